"""The players' own card through the pages (S1–S5): the table's page for a guest with a seat
code and for a signed-in entrant, the scoring table's "needs a person", the director's switch,
the settings file's key, and the pages' query counts."""

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import CodeAttempt, TableCard
from events.services import card_enter, scorer_invite
from league.models import League
from matches.models import MatchStatus
from tests.events.self_entry_support import (
    pending,
    seats_of,
    self_entry_event,
    slip_of_seat,
    tables,
)
from tests.support import at, create_event, run

pytestmark = pytest.mark.django_db


@pytest.fixture
def fest(season, tmp_path):
    return self_entry_event(season, tmp_path)


@pytest.fixture
def done_fest(season, tmp_path):
    """The same event on a past day: its round's time is up."""
    return self_entry_event(season, tmp_path, day=season.institution.today() - timedelta(days=1))


def table_url(number=1, table=1, part=""):
    url = reverse("event_table", args=[at("fest"), number, table])
    return url + part if part else url


def open_slip(client, table, order):
    """The seat's player opens the link on their slip on this phone (S4)."""
    match = tables(League.objects.get(slug="fest"))[table - 1]
    slip = slip_of_seat(match, order)
    assert client.get(reverse("slip_page", args=[slip.token])).status_code == 200
    return slip


def card_post(client, table, order, scores, *, code=None, **more):
    """Seat `order` enters a card from their own phone (their slip opened on it), or types
    `code` on a phone that knows nobody."""
    if code is None:
        open_slip(client, table, order)
    data = {
        "seat": order,
        "code": code or "",
        "ended_by": "went_out",
        **{f"score_{i}": score for i, score in enumerate(scores, start=1)},
        **more,
    }
    return client.post(table_url(1, table, "card/"), data)


def confirm_post(client, table, order, card, *, code=None):
    if code is None:
        open_slip(client, table, order)
    return client.post(
        table_url(1, table, "confirm/"), {"seat": order, "code": code or "", "card": card.pk}
    )


def test_s1_a_guest_enters_the_card_and_the_others_confirm_on_the_table_page(client, fest):
    page = client.get(table_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "Enter our card" in html and "seat_device" in page.cookies
    response = card_post(client, 1, 1, [410, 380, 300])
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "Waiting for seats 2, 3 to confirm it." in page
    assert "Yes, this is our card" not in page  # this phone knows seat 1 only
    open_slip(client, 1, 2)
    assert "Yes, this is our card" in client.get(table_url()).content.decode()
    card = pending(tables(fest)[0])[0]
    assert confirm_post(client, 1, 2, card).status_code == 302
    assert confirm_post(client, 1, 3, card).status_code == 302
    table = tables(fest)[0]
    assert table.status == MatchStatus.CONFIRMED
    page = client.get(table_url()).content.decode()
    assert "The card is in: 410–380–300" in page
    # Three players sharing one phone, each with their own slip opened on it: nothing typed.
    assert not CodeAttempt.objects.exists() and "slips" in client.cookies


def test_s4_a_wrong_code_re_renders_the_page_with_its_message_and_changes_nothing(client, fest):
    response = card_post(client, 1, 1, [410, 380, 300], code="ZZZZZZZZ")
    assert response.status_code == 200
    assert "That code is not the slip of a player at this table" in response.content.decode()
    assert not TableCard.objects.exists()
    assert CodeAttempt.objects.get().device == client.cookies["seat_device"].value


def test_g1_s1_an_unusual_score_asks_yes_really_on_the_table_page(client, fest):
    response = card_post(client, 1, 1, [40, 380, 300])
    html = response.content.decode()
    assert response.status_code == 200 and 'name="unusual_confirmed"' in html
    assert card_post(client, 1, 1, [40, 380, 300], unusual_confirmed="on").status_code == 302
    assert pending(tables(fest)[0])[0].scores == [40, 380, 300]


def test_s1_a_signed_in_entrant_confirms_without_a_code(client, fest):
    table = next(t for t in tables(fest) if any(s.player.user_id for s in seats_of(t)))
    ada = next(seat for seat in seats_of(table) if seat.player.user_id)
    keeper = 1 if ada.order != 1 else 2
    card_post(client, table.table, keeper, [400, 350, 300])
    client.force_login(ada.player.user)
    page = client.get(table_url(1, table.table)).content.decode()
    knows = re.search(r"This phone knows (.*?)</p>", page).group(1)
    assert f"Seat {ada.order} · No." in knows
    card = pending(table)[0]
    response = client.post(
        table_url(1, table.table, "confirm/"), {"seat": "", "code": "", "card": card.pk}
    )
    assert response.status_code == 302
    assert card.confirmations.get().user == ada.player.user


def test_s3_the_scoring_table_shows_only_what_needs_a_person(client, done_fest, director):
    first, second = tables(done_fest)
    card_post(client, 1, 1, [400, 350, 300])
    card_post(client, 1, 2, [400, 360, 300])
    client.force_login(director.user)
    page = client.get(reverse("event_scores", args=[at("fest"), 1])).content.decode()
    assert "Table 1: the players disagree" in page
    assert page.count('data-testid="card-version"') == 2
    missing = re.search(r'data-testid="missing">(.*?)</p>', page, re.S).group(1)
    assert ">2</a>" in missing and ">1</a>" not in missing
    assert 'data-testid="waiting"' not in page  # no list of tables that need nothing
    versions = pending(first)
    response = client.post(
        reverse("event_table_count", args=[at("fest"), 1, 1]), {"card": versions[1].pk}
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert [seat.score for seat in seats_of(first)] == [400, 360, 300]


def test_s3_a_volunteer_settles_a_conflict_and_a_player_cannot(client, done_fest, director, player):
    volunteer = scorer_invite(
        actor=director.user, league=done_fest, name="Val", email="val@example.edu"
    ).user
    card_post(client, 1, 1, [400, 350, 300])
    card_post(client, 1, 2, [400, 360, 300])
    version = pending(tables(done_fest)[0])[0]
    client.force_login(player.user)
    response = client.post(
        reverse("event_table_count", args=[at("fest"), 1, 1]), {"card": version.pk}
    )
    assert response.status_code == 404
    assert len(pending(tables(done_fest)[0])) == 2
    client.force_login(volunteer)
    client.post(reverse("event_table_count", args=[at("fest"), 1, 1]), {"card": version.pk})
    assert TableCard.objects.get(pk=version.pk).state == TableCard.State.COUNTED


def test_s5_the_director_closes_self_entry_for_a_round_from_the_scoring_table(
    client, fest, director
):
    client.force_login(director.user)
    page = client.get(reverse("event_scores", args=[at("fest"), 1])).content.decode()
    assert "Close self-entry for round 1" in page
    client.post(reverse("event_self_entry", args=[at("fest"), 1]))
    client.logout()
    page = client.get(table_url()).content.decode()
    assert "Enter our card" not in page
    response = card_post(client, 1, 1, [400, 350, 300])
    assert "hand yours in there" in response.content.decode()


def test_s5_self_entry_in_the_settings_file_and_its_export(season, tmp_path, director):
    self_entry_event(season, tmp_path)
    out, _ = run("create_event", "--export", "fest")
    assert json.loads(out)["self_entry"] is True
    data = json.loads(out) | {"slug": "fest-two", "self_entry": "yes"}
    with pytest.raises(Exception, match="self_entry"):
        create_event(season, tmp_path, data, "two.json")


def test_s3_the_table_page_and_the_scoring_table_run_the_same_queries_at_two_sizes(
    client, season, tmp_path, director
):
    """With versions, confirmations and wrong codes on the tables, both pages read a fixed
    number of queries whatever the number of tables."""

    def counts(entrants, slug):
        league = self_entry_event(
            season,
            tmp_path,
            day=season.institution.today() - timedelta(days=1),
            entrants=entrants,
            slug=slug,
            student=False,
        )
        for match in tables(league):
            seats = seats_of(match)
            scores = [400, 350, 300][: len(seats)]
            from events.services import SeatProof, table_card_enter

            for order in (1, 2):
                table_card_enter(
                    match=match,
                    proof=SeatProof(order=order, slips=(slip_of_seat(match, order).token,)),
                    scores=[scores[0] + order, *scores[1:]],
                )
        client.force_login(director.user)
        found = []
        for url in (
            reverse("event_table", args=[at(slug), 1, 1]),
            reverse("event_scores", args=[at(slug), 1]),
        ):
            client.get(url)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found.append(len(queries))
        return found

    assert counts(6, "small") == counts(24, "large")


def test_s3_a_card_typed_at_the_scoring_table_counts_an_agreeing_players_version(
    client, fest, director
):
    card_post(client, 1, 1, [400, 350, 300])
    card_enter(actor=director.user, match=tables(fest)[0], scores=[400, 350, 300])
    assert TableCard.objects.get().state == TableCard.State.COUNTED


def test_s4_the_tables_card_carries_no_codes_each_player_proves_their_seat_with_their_slip(
    client, fest, director, tmp_path
):
    from tests.support import poppler

    client.force_login(director.user)
    cards = client.get(reverse("event_print", args=[at("fest"), 1, "cards"]))
    text = poppler("pdftotext", cards.content, tmp_path)
    for match in tables(fest):
        for seat in seats_of(match):
            slip = slip_of_seat(match, seat.order)
            assert slip.code not in text.replace("-", "") and slip.token not in text
    assert "Seat code" not in text
    assert "confirms it on their own phone, with their own slip" in text


def test_s3_the_projector_shows_how_many_cards_are_still_out(client, done_fest):
    panel = reverse("event_projector_panel", args=[at("fest")])
    assert "Cards still out: 2 of 2" in client.get(panel).content.decode()
    first = tables(done_fest)[0]
    card_post(client, 1, 1, [400, 350, 300])
    confirm_post(client, 1, 2, pending(first)[0])  # the time is up: one confirmation counts
    assert "Cards still out: 1 of 2" in client.get(panel).content.decode()


def test_s4_the_director_reads_every_slip_code_attempt_in_the_admin_and_only_their_own(
    client, fest, director, other_institution
):
    from accounts import roles
    from tests.support import staff_member

    roles.sync_groups()
    card_post(client, 1, 1, [400, 350, 300], code="WRONG123")
    client.force_login(director.user)
    page = client.get(reverse("admin:events_codeattempt_changelist"))
    assert page.status_code == 200 and "1 code attempt" in page.content.decode()
    assert client.get(reverse("admin:events_tablecard_changelist")).status_code == 200
    client.force_login(staff_member(other_institution, roles.DIRECTORS).user)
    page = client.get(reverse("admin:events_codeattempt_changelist"))
    assert "0 code attempts" in page.content.decode()


@pytest.mark.parametrize(
    ("part", "page"),
    [
        ("tables/1/card/", "event_table"),
        ("tables/1/confirm/", "event_table"),
        ("tables/1/count/", "event_scores"),
        ("self-entry/", "event_scores"),
    ],
)
def test_s1_s5_a_card_address_opened_by_get_leads_to_the_page_of_its_form(
    client, fest, director, part, page
):
    client.force_login(director.user)
    round_page = reverse("event_round", args=[at("fest"), 1])

    response = client.get(round_page + part)

    assert response.status_code == 302
    assert response.url == reverse(
        page, args=[at("fest"), 1, 1][: 3 if page == "event_table" else 2]
    )
    assert client.put(round_page + part).status_code == 405
    assert not TableCard.objects.exists()


def test_e3_an_event_has_room_for_a_thousand_entrants(fest):
    """Issue 32's evening of 1,000 players: an event's cap is the field's largest, not 512."""
    assert fest.capacity == League.MAX_CAPACITY >= 2000


def test_p2_s4_a_refusal_at_the_table_names_a_withheld_student_as_the_page_does(
    client, season, tmp_path, director, django_capture_on_commit_callbacks
):
    """The refusal is made in a service that knows nothing of who reads it: said to a stranger
    it names her by her player number, as the page around it does; to the director, by name."""
    from accounts.services import name_withhold
    from league.models import Entry

    league = self_entry_event(season, tmp_path, students=2)
    ada = Entry.objects.get(league=league, player__user__first_name="Ada").player
    with django_capture_on_commit_callbacks(execute=True):
        name_withhold(actor=ada.user, profile=ada, withhold=True)
    match = next(t for t in tables(league) if any(s.player_id == ada.pk for s in seats_of(t)))
    seat = next(s for s in seats_of(match) if s.player_id == ada.pk)
    number = Entry.objects.get(league=league, player=ada).player_number
    data = {"seat": seat.order, "code": "", "ended_by": "went_out"}
    data.update({f"score_{i}": 300 + i for i in range(1, 4)})
    url = table_url(1, match.table, "card/")
    other = next(s for s in seats_of(match) if s.player_id != ada.pk)
    client.get(reverse("slip_page", args=[slip_of_seat(match, other.order).token]))

    stranger = client.post(url, data).content.decode()
    client.force_login(director.user)
    staff = client.post(url, data).content.decode()

    where = f"seat {seat.order} (No. {number}"
    assert f"Only {where}, Player {number}) acts for their seat" in stranger
    assert "Ada" not in stranger and "Quill" not in stranger
    assert f"Only {where}, Ada Quill) acts for their seat" in staff

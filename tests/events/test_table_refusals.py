"""S1–S4 at the table's page: every refusal of `card/` and `confirm/` is said on the page, in
words, at the top of the card's section, whatever version or table the form named, and nothing
changes (issue 47: three of them answered 200 and showed nothing). A card for a round that has
not begun is refused at the table saying when it starts, asked about once at the scoring table,
and taken by enter_scores, which says so; the director may start a round early (audited)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from events import services as events
from events.models import CardConfirmation, RoundStartedEarly, TableCard
from matches.models import AuditEvent, MatchStatus
from tests.events.self_entry_support import (
    pending,
    seats_of,
    self_entry_event,
    slip_of_seat,
    tables,
)
from tests.support import run, write

pytestmark = pytest.mark.django_db


@pytest.fixture
def fest(season, tmp_path):
    return self_entry_event(season, tmp_path)


def url(league, table, part=""):
    return reverse("event_table", args=[league, 1, table]) + part


def phone_of(client, league, table, order):
    """Seat `order`'s player opens their slip on this phone."""
    slip = slip_of_seat(tables(league)[table - 1], order)
    client.get(reverse("slip_page", args=[slip.token]))
    return client


def card(order, scores, **more):
    data = {"seat": order or "", "code": "", "ended_by": "went_out", **more}
    data.update({f"score_{i}": score for i, score in enumerate(scores, start=1)})
    return data


def refusal(response) -> str:
    page = response.content.decode()
    found = re.search(r'data-testid="refusal">(.*?)</div>', page, re.S)
    assert response.status_code == 200 and found, "no refusal said on the page"
    return re.sub(r"<[^>]+>", " ", found.group(1)).replace("&#x27;", "'")


def state(league):
    """What a refusal must leave as it was: every version, confirmation and table."""
    return (
        sorted(TableCard.objects.values_list("pk", "state", "scores")),
        CardConfirmation.objects.count(),
        sorted(league.matches.values_list("pk", "status")),
    )


def test_s4_a_phone_without_the_seats_slip_is_refused_in_words(client, fest):
    before = state(fest)
    said = refusal(client.post(url(fest, 1, "card/"), card(1, [400, 350, 300])))
    assert "Only seat 1" in said and "with their own slip" in said
    said = refusal(client.post(url(fest, 1, "card/"), card(None, [400, 350, 300])))
    assert "This phone does not know your seat yet" in said
    phone_of(client, fest, 1, 1)
    said = refusal(client.post(url(fest, 1, "card/"), card(2, [400, 350, 300])))
    assert "Only seat 2" in said and "acts for their seat" in said
    assert state(fest) == before


def test_s4_a_revoked_slip_is_refused_and_its_code_too(client, fest, staff):
    from league.models import Entry

    match = tables(fest)[0]
    old = slip_of_seat(match, 1)
    phone_of(client, fest, 1, 1)
    entry = Entry.objects.get(league=fest, player=seats_of(match)[0].player)
    events.slip_print_again(actor=staff.user, entry=entry)
    before = state(fest)
    said = refusal(client.post(url(fest, 1, "card/"), card(1, [400, 350, 300])))
    assert "Only seat 1" in said and "with their own slip" in said
    said = refusal(client.post(url(fest, 1, "card/"), card(1, [400, 350, 300], code=old.code)))
    assert "That code is not the slip of a player at this table" in said
    assert state(fest) == before


def test_s2_confirming_with_another_tables_card_is_refused_in_words(client, fest):
    phone_of(client, fest, 1, 1)
    client.post(url(fest, 1, "card/"), card(1, [400, 350, 300]))
    theirs = pending(tables(fest)[0])[0]
    phone_of(client, fest, 2, 2)
    before = state(fest)
    said = refusal(client.post(url(fest, 2, "confirm/"), {"seat": 2, "card": theirs.pk}))
    assert "That card is not this table's." in said
    assert state(fest) == before


def test_s2_confirming_a_version_corrected_since_is_refused_in_words(client, fest):
    phone_of(client, fest, 1, 1)
    client.post(url(fest, 1, "card/"), card(1, [400, 350, 300]))
    first = pending(tables(fest)[0])[0]
    client.post(url(fest, 1, "card/"), card(1, [410, 350, 300]))  # the scorekeeper corrects it
    phone_of(client, fest, 1, 2)
    before = state(fest)
    said = refusal(client.post(url(fest, 1, "confirm/"), {"seat": 2, "card": first.pk}))
    assert "The card was corrected since this page was loaded" in said
    assert state(fest) == before


def test_s5_a_card_for_a_round_whose_self_entry_is_closed_is_refused_in_messages(
    client, fest, director
):
    events.self_entry_close(actor=director.user, round=tables(fest)[0].round)
    phone_of(client, fest, 1, 1)
    before = state(fest)
    answer = client.post(url(fest, 1, "card/"), card(1, [400, 350, 300]), follow=True)
    assert "are entered at the scoring table" in answer.content.decode()
    assert state(fest) == before


def test_s2_a_card_at_a_table_closed_as_a_double_forfeit_is_refused_in_words(
    client, fest, director
):
    first, second = tables(fest)
    phone_of(client, fest, 2, 1)
    client.post(url(fest, 2, "card/"), card(1, [400, 350, 300]))  # table 2 waits for a person
    for version in pending(second):
        events.table_card_count(actor=director.user, match=second, card_id=version.pk)
    events.close_round(actor=director.user, round=first.round, reason="Round over")
    first.refresh_from_db()
    assert first.status == MatchStatus.DOUBLE_FORFEIT
    phone_of(client, fest, 1, 1)
    before = state(fest)
    answer = client.post(url(fest, 1, "card/"), card(1, [400, 350, 300]))
    said = refusal(answer)
    assert "already double forfeit" in said.lower() or "double forfeit" in said
    page = answer.content.decode()
    assert "This table was closed without a card" in page and "The card is in" not in page
    assert state(fest) == before


def test_g1_bad_scores_are_refused_in_words_and_the_form_keeps_its_players(client, fest):
    phone_of(client, fest, 1, 1)
    before = state(fest)
    answer = client.post(url(fest, 1, "card/"), card(1, [4000, 350, 300]))
    said = refusal(answer)
    assert "Nothing was entered" in said
    page = answer.content.decode()
    assert "Ensure this value" not in page
    (first, *_) = seats_of(tables(fest)[0])
    assert re.search(
        rf"4000 for Seat 1 · No\. \d+ · {re.escape(first.player.name)} is not a Scrabble score: "
        "a score is from \u2212100 to 1500.",
        page,
    )
    (score_1,) = re.findall(r'<input[^>]*name="score_1"[^>]*>', page)
    assert "autofocus" in score_1 and page.count("autofocus") == 1
    for seat in seats_of(tables(fest)[0]):
        assert f"Seat {seat.order} · No." in page
    assert "Player 1 /" not in page
    assert state(fest) == before


def test_e3_s1_a_card_for_a_round_not_begun_is_refused_at_the_table_saying_when(
    client, season, tmp_path, director
):
    league = self_entry_event(season, tmp_path, slug="early", started=False)
    phone_of(client, league, 1, 1)
    before = state(league)
    said = refusal(client.post(url(league, 1, "card/"), card(1, [400, 350, 300])))
    assert "Round 1 starts at 6:00 PM: enter your card once you have played." in said
    assert state(league) == before

    round_page = reverse("event_round", args=[league, 1])
    client.force_login(director.user)
    assert "Start round 1 now" in client.get(round_page).content.decode()
    client.post(reverse("event_start", args=[league, 1]))
    client.logout()
    assert RoundStartedEarly.objects.filter(round__league=league).exists()
    started = AuditEvent.objects.filter(action="round_started_early", match__league=league)
    assert started.count() == len(tables(league))
    phone_of(client, league, 1, 1)
    assert client.post(url(league, 1, "card/"), card(1, [400, 350, 300])).status_code == 302


def test_e3_the_scoring_table_asks_once_about_a_card_for_a_round_not_begun(
    client, season, tmp_path, director
):
    league = self_entry_event(season, tmp_path, slug="early", started=False)
    match = tables(league)[0]
    seats = seats_of(match)
    client.force_login(director.user)
    data = {
        "table": match.table,
        "seen": ",".join(str(seat.player_id) for seat in seats),
        "ended_by": "went_out",
        **{f"score_{seat.order}": 400 - seat.order for seat in seats},
    }
    scores = reverse("event_scores", args=[league, 1])

    asked = client.post(scores, data).content.decode()

    assert "Round 1 starts at 6:00 PM: enter this card anyway?" in asked
    assert 'name="before_start"' in asked
    match.refresh_from_db()
    assert match.status != MatchStatus.CONFIRMED
    assert client.post(scores, {**data, "before_start": "on"}).status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_e3_enter_scores_takes_a_card_for_a_round_not_begun_and_says_so(season, tmp_path):
    from league.models import Entry

    league = self_entry_event(season, tmp_path, slug="early", started=False)
    match = tables(league)[0]
    rows = ["table,player_number,score"]
    for seat in seats_of(match):
        number = Entry.objects.get(league=league, player=seat.player).player_number
        rows.append(f"{match.table},{number},{400 - seat.order}")

    out, err = run(
        "enter_scores",
        "--league",
        league.slug,
        "--round",
        "1",
        write(tmp_path, "c.csv", "\n".join(rows) + "\n"),
    )

    assert out.strip() == "tables=1 scores=3 skipped=0 conflicts=0"
    assert "Round 1 starts at 6:00 PM: its cards were entered before it began." in err


def test_s3_a_seat_that_entered_its_own_version_is_not_offered_to_confirm_another(
    client, season, tmp_path
):
    league = self_entry_event(
        season, tmp_path, slug="late", day=season.institution.today() - timedelta(days=1)
    )
    phone_of(client, league, 1, 1)
    client.post(url(league, 1, "card/"), card(1, [400, 350, 300]))
    phone_of(client, league, 1, 3)
    client.post(url(league, 1, "card/"), card(3, [400, 350, 330]))
    page = client.get(url(league, 1)).content.decode()
    first = page.split('data-testid="pending-card"')[1]
    # This phone knows seats 1 and 3: 1 entered it, 3 entered another: nothing to confirm.
    assert "Yes, this is our card" not in first
    phone_of(client, league, 1, 2)
    first = client.get(url(league, 1)).content.decode().split('data-testid="pending-card"')[1]
    options = re.findall(r'<option value="(\d)"', first.split("</form>")[0])
    assert "Yes, this is our card" in first and "3" not in options

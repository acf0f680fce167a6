"""S4: each entrant's own slip, their proof for the whole event. Its link remembers them on the
phone that opens it (the table's page then knows them), its code does the same where a phone
cannot scan; the door prints it (one as they check in, or every entrant's to cut apart), a new
one when it is lost (the old link and code stop working on every phone); it is mailed to an
entrant who gave an address, and shown on a student's own event page and home."""

import pytest
from django.core import mail
from django.urls import reverse

from events.models import CodeAttempt, EntrantSlip
from events.services import slip_of, slip_print_again
from events.slips import CODE_LENGTH, WRONG_CODES_PER_DEVICE, shown_code
from league.models import Entry
from tests.events.self_entry_support import seats_of, self_entry_event, tables
from tests.support import poppler

pytestmark = pytest.mark.django_db


@pytest.fixture
def fest(season, tmp_path):
    return self_entry_event(season, tmp_path)


def entry_at(fest, order=1):
    seat = seats_of(tables(fest)[0])[order - 1]
    return Entry.objects.get(league=fest, player=seat.player)


def test_s4_a_slip_has_a_link_naming_no_league_and_a_code_of_eight(fest):
    slip = slip_of(entry_at(fest))
    url = reverse("slip_page", args=[slip.token])
    assert url == f"/slip/{slip.token}/" and fest.slug not in url
    assert len(slip.code) == CODE_LENGTH and shown_code(slip.code)[4] == "-"
    assert slip_of(entry_at(fest)) == slip  # the same slip until it is printed again


def test_s4_opening_the_link_remembers_the_entrant_and_signs_nobody_in(client, fest):
    entry = entry_at(fest)
    slip = slip_of(entry)

    page = client.get(reverse("slip_page", args=[slip.token]))

    assert page.status_code == 200
    assert f"No. {entry.player_number}" in page.content.decode()
    assert "slips" in page.cookies and "sessionid" not in page.cookies
    table = client.get(reverse("event_table", args=[fest, 1, 1])).content.decode()
    assert "As Seat 1 · No." in table


def test_s4_a_phone_remembers_several_entrants_and_each_slip_stays_its_own(client, fest):
    first, second = entry_at(fest, 1), entry_at(fest, 2)
    for entry in (first, second):
        client.get(reverse("slip_page", args=[slip_of(entry).token]))
    table = client.get(reverse("event_table", args=[fest, 1, 1])).content.decode()
    assert "This phone knows Seat 1" in table and "Seat 2 · No." in table


def test_s4_the_code_typed_on_the_slip_page_remembers_the_entrant(client, fest):
    slip = slip_of(entry_at(fest))
    typed = shown_code(slip.code).lower()

    answer = client.post(reverse("slip_code"), {"code": typed})

    assert answer.status_code == 302 and answer.url == reverse("slip_page", args=[slip.token])
    assert "slips" in answer.cookies
    assert CodeAttempt.objects.get().ok


def test_s4_wrong_codes_on_the_slip_page_are_limited_per_phone_and_kept(client, fest):
    slip = slip_of(entry_at(fest))
    for _ in range(WRONG_CODES_PER_DEVICE):
        wrong = client.post(reverse("slip_code"), {"code": "ZZZZ-ZZZZ"})
        assert wrong.status_code == 400
        assert "That is not the code of a slip" in wrong.content.decode()
    refused = client.post(reverse("slip_code"), {"code": slip.code})
    assert "Too many wrong codes from this phone" in refused.content.decode()
    assert "slips" not in refused.cookies
    assert CodeAttempt.objects.filter(ok=False).count() == WRONG_CODES_PER_DEVICE


def test_s4_a_slip_printed_again_stops_the_old_link_and_code_on_every_phone(client, fest, staff):
    entry = entry_at(fest)
    old = slip_of(entry)
    client.get(reverse("slip_page", args=[old.token]))  # a phone that knew them

    new = slip_print_again(actor=staff.user, entry=entry)

    assert new.token != old.token and new.code != old.code
    assert client.get(reverse("slip_page", args=[old.token])).status_code == 410
    table = client.get(reverse("event_table", args=[fest, 1, 1])).content.decode()
    assert "This phone does not know you yet" in table
    assert EntrantSlip.objects.filter(entry=entry, revoked_at=None).get() == new


def test_s4_only_the_events_staff_print_a_slip_again(fest, player):
    from core.errors import NotAllowed

    with pytest.raises(NotAllowed):
        slip_print_again(actor=player.user, entry=entry_at(fest))


def test_s4_the_door_prints_one_entrants_slip_and_every_entrants_to_cut_apart(
    client, fest, staff, tmp_path, settings
):
    settings.SITE_URL = "https://scrabble.example.edu"
    entry = entry_at(fest)
    client.force_login(staff.user)

    one = client.get(reverse("event_slips", args=[fest]) + f"?number={entry.player_number}")
    every = client.get(reverse("event_slips", args=[fest]))

    assert one.status_code == 200 and one["Content-Type"] == "application/pdf"
    text = poppler("pdftotext", one.content, tmp_path)
    slip = slip_of(entry)
    assert f"No. {entry.player_number}" in text and shown_code(slip.code) in text
    assert "https://scrabble.example.edu/slip/" in "".join(text.split())
    all_text = poppler("pdftotext", every.content, tmp_path)
    entries = Entry.objects.filter(league=fest)
    assert all(shown_code(slip_of(e).code) in all_text for e in entries)
    desk = client.get(reverse("event_desk", args=[fest])).content.decode()
    assert "every entrant&#x27;s slip" in desk or "every entrant's slip" in desk


def test_s4_the_slips_are_the_events_staff_alone(client, fest, player):
    client.force_login(player.user)
    assert client.get(reverse("event_slips", args=[fest])).status_code == 404


def test_s4_a_lost_slip_is_printed_anew_from_the_door(client, fest, staff):
    entry = entry_at(fest)
    old = slip_of(entry)
    client.force_login(staff.user)

    answer = client.post(reverse("event_slip_again", args=[fest]), {"player": entry.player_number})

    assert answer.status_code == 302 and f"number={entry.player_number}" in answer.url
    old.refresh_from_db()
    assert old.revoked_at is not None


def test_s4_an_entrant_who_gave_an_address_is_mailed_their_slip_once(
    season, tmp_path, django_capture_on_commit_callbacks
):
    from tests.support import run, write

    with django_capture_on_commit_callbacks(execute=True):
        fest = self_entry_event(season, tmp_path, slug="mailed")
        rows = "name,email\nMia Mailable,mia@example.org\nNo Address,\n"
        run("import_entrants", write(tmp_path, "more.csv", rows), "--league", "mailed")
        run("import_entrants", write(tmp_path, "more.csv", rows), "--league", "mailed")

    slipped = [m for m in mail.outbox if "Your slip for" in m.subject]
    addresses = [entry.player.address for entry in Entry.objects.filter(league=fest)]
    assert sorted(m.to[0] for m in slipped) == sorted(a for a in addresses if a)
    (mias,) = [m for m in slipped if m.to == ["mia@example.org"]]  # once, for two imports
    slip = slip_of(Entry.objects.get(league=fest, player__email="mia@example.org"))
    assert f"/slip/{slip.token}/" in mias.body and shown_code(slip.code) in mias.body


def test_s4_a_student_finds_their_slip_on_the_events_page(client, season, tmp_path):
    fest = self_entry_event(season, tmp_path, students=1)
    entry = Entry.objects.get(league=fest, player__user__first_name="Ada")
    client.force_login(entry.player.user)

    page = client.get(reverse("league_detail", args=[fest])).content.decode()

    assert reverse("slip_page", args=[slip_of(entry).token]) in page


def test_s4_a_student_finds_their_slips_on_their_home_in_constant_queries(
    client, season, tmp_path, django_assert_max_num_queries
):
    """Their own home shows a slip for each of today's and coming events with self-entry; an
    event that is over shows none. Its part of the page costs the same with one event or two."""
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    fest = self_entry_event(season, tmp_path, students=1)
    entry = Entry.objects.get(league=fest, player__user__first_name="Ada")
    client.force_login(entry.player.user)
    client.get("/")  # the first visit makes the slip
    with CaptureQueriesContext(connection) as one_event:
        page = client.get("/").content.decode()
    slip = slip_of(entry)
    assert reverse("slip_page", args=[slip.token]) in page
    assert shown_code(slip.code) in page and "Self-entry Fest" in page

    other = self_entry_event(season, tmp_path, students=0, slug="second-fest")
    Entry.objects.create(league=other, player=entry.player, player_number=99)
    client.get("/")
    with CaptureQueriesContext(connection) as two_events:
        page = client.get("/").content.decode()
    assert page.count(">open your slip</a>") == 2
    assert len(two_events) == len(one_event)

    past = self_entry_event(
        season,
        tmp_path,
        students=0,
        slug="past-fest",
        day=season.institution.today() - timedelta(days=1),
    )
    Entry.objects.create(league=past, player=entry.player, player_number=98)
    assert client.get("/").content.decode().count(">open your slip</a>") == 2

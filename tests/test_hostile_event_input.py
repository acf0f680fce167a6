"""Hostile input on the event, club and assists pages and their commands ("Trust on event day":
never a 500). Each item of the issue has its own test below; then the walk: every form of
those pages (the admin aside) gets each hostile value in each field, and must answer with a
clear refusal and change nothing; then every command with hostile arguments must exit 1 or 2
with its reason, never with a traceback.

What "nothing changed" means: the rows of every table the pages and commands write, read
before and after as one digest per table (`snapshot`)."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.validators import validate_email
from django.db import connection
from django.urls import reverse

from accounts.models import PlayerProfile, User
from league import assists
from league.club import check_in, seat_night
from league.entrant_files import entrants_import
from league.event_files import event_league_save, read_event_file
from league.events import pair_event_round, scorer_create
from league.models import (
    AssistItem,
    AssistSale,
    CheckIn,
    Entry,
    EventCategory,
    EventScorer,
    League,
    LeagueFormat,
    Round,
    RoundPeriod,
    Team,
)
from matches.models import AuditEvent, Dispute, Match, ResultReport, Seat
from tests.factories import LeagueFactory, eligible_student

# --- Values ------------------------------------------------------------------------------------

HUGE = "x" * 100_000  # a pasted book: under the 1 MB body limit, over every column
LONG_EMAIL = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".example.org"  # 309 characters
NUL = "\x00"
SUPERSCRIPT_TWO = "²"  # "²".isdigit() is true, int("²") fails
HUGE_NUMBER = str(10**30)


def test_the_long_email_passes_djangos_validator_but_not_the_254_character_column():
    validate_email(LONG_EMAIL)
    assert 254 < len(LONG_EMAIL) <= 320


# --- Snapshot: nothing changed -------------------------------------------------------------------

WRITTEN = [
    League,
    Round,
    RoundPeriod,
    EventCategory,
    Team,
    Entry,
    CheckIn,
    EventScorer,
    AssistItem,
    AssistSale,
    Match,
    Seat,
    AuditEvent,
    ResultReport,
    Dispute,
    User,
    PlayerProfile,
]


def snapshot() -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its rows, in one query."""
    parts = [
        f"SELECT '{model._meta.db_table}', count(*), "
        f"md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) "
        f"FROM {connection.ops.quote_name(model._meta.db_table)} t"
        for model in WRITTEN
    ]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return {table: (count, digest) for table, count, digest in cursor.fetchall()}


def changed(before: dict) -> list[str]:
    after = snapshot()
    return [table for table in before if before[table] != after[table]]


def refusal_shown(response) -> bool:
    """The page says what was wrong: an error or warning message, or a form's error list."""
    page = response.content.decode()
    return any(
        mark in page for mark in ('class="message error', 'class="message warning', "errorlist")
    )


# --- The event and the club the walk uses --------------------------------------------------------

EVENT = {
    "name": "Walk Fest",
    "slug": "walk",
    "format": "event",
    "rounds": [
        {"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]},
        {"number": 2, "periods": [{"starts": "19:00", "minutes": 45}]},
    ],
    "assists": [{"name": "Ringer", "first_cents": 250, "later_cents": 500}],
}
ENTRANTS = "name,team\nAda Quill,Reds\nBo Vance,Blues\nCy Marsh,Reds\nDi Okoro,Blues\n"


@pytest.fixture
def event(season, director, staff):
    """An event of four entrants paired in round 1 (two tables), a fifth entered and not yet
    here, a volunteer scorer and one sale."""
    day = season.starts_on + timedelta(days=10)
    league, _ = event_league_save(
        actor=director.user,
        season=season,
        event=read_event_file({**EVENT, "date": day.isoformat()}),
    )
    entrants_import(actor=director.user, league=league, data=ENTRANTS.encode())
    pair_event_round(
        actor=director.user, round=league.rounds.get(number=1), seed=1, all_entrants=True
    )
    entrants_import(actor=director.user, league=league, data=b"name\nEd Lark\n")
    scorer_create(actor=director.user, league=league, name="Val Ortiz", email="val@example.org")
    assists.sale_record(
        actor=staff.user,
        league=league,
        entry=Entry.objects.get(league=league, player_number=1),
        item=league.assist_items.get(),
    )
    return league


@pytest.fixture
def club(season):
    """A club open to visitors: night 1 seated (one table of four), night 2 with three checked
    in and not seated, a fifth member not checked in."""
    league = LeagueFactory(
        season=season, format=LeagueFormat.CLUB, name="Walk Club", slug="walk-club"
    )
    league.campus_only = False
    league.save(update_fields=["campus_only"])
    members = [eligible_student(season) for _ in range(5)]
    for number, member in enumerate(members, start=1):
        Entry.objects.create(league=league, player=member, player_number=number)
    first = Round.objects.create(league=league, number=1, play_by=season.starts_on)
    second = Round.objects.create(
        league=league, number=2, play_by=season.starts_on + timedelta(days=7)
    )
    for member in members[:4]:
        check_in(actor=None, as_system=True, round=first, player=member)
    seat_night(actor=None, as_system=True, round=first)
    for member in members[:3]:
        check_in(actor=None, as_system=True, round=second, player=member)
    return league


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args) -> CommandError:
    """The command's refusal: exit 1 (refused) or 2 (usage), with its reason."""
    with pytest.raises(CommandError) as caught:
        run(*args)
    assert caught.value.returncode in (1, 2) and str(caught.value).strip()
    return caught.value


def as_director(client, director):
    client.force_login(director.user)
    return client


# --- The items of the issue, one test each --------------------------------------------------------
# Ids that are not numbers.


@pytest.mark.parametrize(
    "field, value", [("entry", "abc"), ("item", ""), ("entry", HUGE_NUMBER), ("item", NUL)]
)
def test_a_sale_naming_an_entrant_or_item_that_is_not_a_number_is_refused_with_a_message(
    client, event, director, field, value
):
    sale = {"entry": Entry.objects.get(league=event, player_number=2).pk}
    sale["item"] = event.assist_items.get().pk
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_assists", args=["walk"]), {**sale, field: value}, follow=True
    )
    assert response.status_code == 200 and refusal_shown(response)
    assert "The entrant" in response.content.decode() or "The item" in response.content.decode()
    assert not changed(before)


@pytest.mark.parametrize("value", ["abc", "", "1.5", NUL])
def test_voiding_a_sale_that_is_not_a_number_is_refused_with_a_message(
    client, event, director, value
):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_assists", args=["walk"]), {"void": value, "reason": "slip"}, follow=True
    )
    assert response.status_code == 200 and refusal_shown(response)
    assert not changed(before)


@pytest.mark.parametrize("value", ["abc", "²", HUGE_NUMBER, NUL])
def test_removing_a_volunteer_that_is_not_a_number_is_refused_with_a_message(
    client, event, director, value
):
    as_director(client, director)
    before = snapshot()
    response = client.post(reverse("event_scorers", args=["walk"]), {"remove": value}, follow=True)
    assert response.status_code == 200 and refusal_shown(response)
    assert not changed(before)


# "²".isdigit() is true and int("²") fails.


@pytest.mark.parametrize("view", ["event_desk", "club_night"])
def test_a_search_for_a_superscript_two_finds_nobody_rather_than_failing(
    client, event, club, director, view
):
    args = ["walk"] if view == "event_desk" else ["walk-club", 2]
    response = as_director(client, director).get(reverse(view, args=args), {"q": SUPERSCRIPT_TWO})
    rows = response.context["rows" if view == "event_desk" else "entries"]
    assert response.status_code == 200 and not rows


@pytest.mark.parametrize("view", ["event_check_in", "club_check_in"])
def test_checking_in_a_superscript_two_says_nobody_has_that_number(
    client, event, club, director, view
):
    args = ["walk"] if view == "event_check_in" else ["walk-club", 2]
    as_director(client, director)
    before = snapshot()
    response = client.post(reverse(view, args=args), {"player": SUPERSCRIPT_TWO}, follow=True)
    assert "has the number or campus ID" in response.content.decode() or (
        "has the campus ID or number" in response.content.decode()
    )
    assert not changed(before)


def test_swapping_a_superscript_two_says_nobody_has_that_number(client, event, director):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_swap", args=["walk", 1]),
        {"first": SUPERSCRIPT_TWO, "second": "1"},
        follow=True,
    )
    assert refusal_shown(response) and "No entrant has the number" in response.content.decode()
    assert not changed(before)


@pytest.mark.parametrize("quantity", [SUPERSCRIPT_TWO, "١", HUGE_NUMBER, "1.5", NUL])
def test_an_assists_quantity_that_is_not_ascii_digits_is_refused_with_the_range(
    client, event, director, quantity
):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_assists", args=["walk"]),
        {
            "entry": Entry.objects.get(league=event, player_number=2).pk,
            "item": event.assist_items.get().pk,
            "quantity": quantity,
        },
        follow=True,
    )
    assert "Quantity: a whole number from 1 to 100" in response.content.decode()
    assert not changed(before)


# NUL bytes reaching PostgreSQL.


@pytest.mark.parametrize("view", ["event_desk", "club_night"])
@pytest.mark.parametrize("query", [NUL, "Ada\x00"])
def test_a_search_with_a_nul_byte_is_refused_with_a_message(
    client, event, club, director, view, query
):
    args = ["walk"] if view == "event_desk" else ["walk-club", 2]
    response = as_director(client, director).get(reverse(view, args=args), {"q": query})
    assert response.status_code == 200 and refusal_shown(response)
    assert "control character" in response.content.decode()


@pytest.mark.parametrize("view", ["event_check_in", "club_check_in"])
def test_checking_in_a_nul_byte_is_refused_with_a_message(client, event, club, director, view):
    args = ["walk"] if view == "event_check_in" else ["walk-club", 2]
    as_director(client, director)
    before = snapshot()
    response = client.post(reverse(view, args=args), {"player": "12\x0034"}, follow=True)
    assert refusal_shown(response) and "control character" in response.content.decode()
    assert not changed(before)


# E-mail addresses of 255-320 characters.


def test_a_walk_in_with_a_300_character_email_is_refused_by_the_form(client, event, director):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_walk_in", args=["walk"]),
        {"name": "Nia Frost", "category": "Open", "email": LONG_EMAIL},
    )
    assert response.status_code == 200
    assert "at most 254 characters" in str(response.context["walk_in"].errors["email"])
    assert not changed(before)


def test_a_volunteer_with_a_300_character_email_is_refused_by_the_form(client, event, director):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_scorers", args=["walk"]), {"name": "Lou Park", "email": LONG_EMAIL}
    )
    assert response.status_code == 200
    assert "at most 254 characters" in str(response.context["form"].errors["email"])
    assert not changed(before)


def test_an_entrants_row_with_a_300_character_email_is_refused_naming_its_line(event, tmp_path):
    path = tmp_path / "in.csv"
    path.write_text(f"name,email\nNia Frost,{LONG_EMAIL}\nOla Reed,\n")
    out, err = run("import_entrants", str(path), "--league", "walk")
    assert f"{path}:2: refused: " in err and "at most 254 characters" in err
    assert out.strip() == "entrants=1 created=1 updated=0 refused=1"

"""Hostile input on the event, club and assists pages and their commands ("Trust on event day":
never a 500). Each item of the issue has its own test below; then the walk: every form of
those pages (the admin aside) gets each hostile value in each field, and must answer with a
clear refusal and change nothing; then every command with hostile arguments must exit 1 or 2
with its reason, never with a traceback.

What "nothing changed" means: the rows of every table the pages and commands write, read
before and after as one digest per table (`snapshot`)."""

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.validators import validate_email
from django.db import connection
from django.urls import reverse
from post_office.models import Email

from accounts.models import PlayerProfile, SignInLink, User
from clubs.services import check_in, seat_night
from events.entrants_file import entrants_import
from events.files import event_league_save, read_event_file
from events.models import AssistItem, AssistSale, EventCategory, EventScorer, RoundPeriod, Team
from events.services import assists, pair_event_round, scorer_invite
from league.models import CheckIn, Entry, League, LeagueFormat, Round
from matches.models import AuditEvent, Dispute, GameEnd, Match, ResultReport, Seat
from tests.support import LeagueFactory, at, eligible_student, rounds_started

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
    SignInLink,
    Email,  # the outbox: a refused change queues no mail
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
    rounds_started(league)
    entrants_import(actor=director.user, league=league, data=ENTRANTS.encode())
    pair_event_round(
        actor=director.user, round=league.rounds.get(number=1), seed=1, all_entrants=True
    )
    entrants_import(actor=director.user, league=league, data=b"name\nEd Lark\n")
    scorer_invite(actor=director.user, league=league, name="Val Ortiz", email="val@example.org")
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


def usage_error(*args) -> str:
    """The command's usage error: argparse's, which exits 2 from the command line (through
    call_command Django raises it as a CommandError saying "Error: argument ...")."""
    error = refused(*args)
    assert str(error).startswith("Error: argument ") or error.returncode == 2, str(error)
    return str(error)


def as_director(client, director):
    client.force_login(director.user)
    return client


# --- The items of the issue, one test each --------------------------------------------------------
# Ids that are not numbers.


@pytest.mark.parametrize(
    "field, value", [("entry", "abc"), ("item", ""), ("entry", HUGE_NUMBER), ("item", NUL)]
)
def test_e5_a_sale_naming_an_entrant_or_item_that_is_not_a_number_is_refused_with_a_message(
    client, event, director, field, value
):
    sale = {"entry": Entry.objects.get(league=event, player_number=2).pk}
    sale["item"] = event.assist_items.get().pk
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_assists", args=[at("walk")]), {**sale, field: value}, follow=True
    )
    assert response.status_code == 200 and refusal_shown(response)
    assert "The entrant" in response.content.decode() or "The item" in response.content.decode()
    assert not changed(before)


@pytest.mark.parametrize("value", ["abc", "", "1.5", NUL])
def test_e5_voiding_a_sale_that_is_not_a_number_is_refused_with_a_message(
    client, event, director, value
):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_assists", args=[at("walk")]), {"void": value, "reason": "slip"}, follow=True
    )
    assert response.status_code == 200 and refusal_shown(response)
    assert not changed(before)


@pytest.mark.parametrize("value", ["abc", "²", HUGE_NUMBER, NUL])
def test_e3_removing_a_volunteer_that_is_not_a_number_is_refused_with_a_message(
    client, event, director, value
):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_scorers", args=[at("walk")]), {"remove": value}, follow=True
    )
    assert response.status_code == 200 and refusal_shown(response)
    assert not changed(before)


# "²".isdigit() is true and int("²") fails.


@pytest.mark.parametrize("view", ["event_desk", "club_night"])
def test_e3_e4_a_search_for_a_superscript_two_finds_nobody_rather_than_failing(
    client, event, club, director, view
):
    args = [at("walk")] if view == "event_desk" else [at("walk-club"), 2]
    response = as_director(client, director).get(reverse(view, args=args), {"q": SUPERSCRIPT_TWO})
    rows = response.context["rows" if view == "event_desk" else "entries"]
    assert response.status_code == 200 and not rows


@pytest.mark.parametrize("view", ["event_check_in", "club_check_in"])
def test_e3_e4_checking_in_a_superscript_two_says_nobody_has_that_number(
    client, event, club, director, view
):
    args = [at("walk")] if view == "event_check_in" else [at("walk-club"), 2]
    as_director(client, director)
    before = snapshot()
    response = client.post(reverse(view, args=args), {"player": SUPERSCRIPT_TWO}, follow=True)
    assert "has the number or campus ID" in response.content.decode() or (
        "has the campus ID or number" in response.content.decode()
    )
    assert not changed(before)


def test_e3_swapping_a_superscript_two_says_nobody_has_that_number(client, event, director):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_swap", args=[at("walk"), 1]),
        {"first": SUPERSCRIPT_TWO, "second": "1"},
        follow=True,
    )
    assert refusal_shown(response) and "No entrant has the number" in response.content.decode()
    assert not changed(before)


@pytest.mark.parametrize("quantity", [SUPERSCRIPT_TWO, "١", HUGE_NUMBER, "1.5", NUL])
def test_e5_an_assists_quantity_that_is_not_ascii_digits_is_refused_with_the_range(
    client, event, director, quantity
):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_assists", args=[at("walk")]),
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
def test_e3_e4_a_search_with_a_nul_byte_is_refused_with_a_message(
    client, event, club, director, view, query
):
    args = [at("walk")] if view == "event_desk" else [at("walk-club"), 2]
    response = as_director(client, director).get(reverse(view, args=args), {"q": query})
    assert response.status_code == 200 and refusal_shown(response)
    assert "control character" in response.content.decode()


@pytest.mark.parametrize("view", ["event_check_in", "club_check_in"])
def test_e3_e4_checking_in_a_nul_byte_is_refused_with_a_message(
    client, event, club, director, view
):
    args = [at("walk")] if view == "event_check_in" else [at("walk-club"), 2]
    as_director(client, director)
    before = snapshot()
    response = client.post(reverse(view, args=args), {"player": "12\x0034"}, follow=True)
    assert refusal_shown(response) and "control character" in response.content.decode()
    assert not changed(before)


# E-mail addresses of 255-320 characters.


def test_e3_a_walk_in_with_a_300_character_email_is_refused_by_the_form(client, event, director):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_walk_in", args=[at("walk")]),
        {"name": "Nia Frost", "category": "Open", "email": LONG_EMAIL},
    )
    assert response.status_code == 200
    assert "at most 254 characters" in str(response.context["walk_in"].errors["email"])
    assert not changed(before)


def test_e3_a_volunteer_with_a_300_character_email_is_refused_by_the_form(client, event, director):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("event_scorers", args=[at("walk")]), {"name": "Lou Park", "email": LONG_EMAIL}
    )
    assert response.status_code == 200
    assert "at most 254 characters" in str(response.context["form"].errors["email"])
    assert not changed(before)


def test_e3_an_entrants_row_with_a_300_character_email_is_refused_naming_its_line(event, tmp_path):
    path = tmp_path / "in.csv"
    path.write_text(f"name,email\nNia Frost,{LONG_EMAIL}\nOla Reed,\n")
    out, err = run("import_entrants", str(path), "--league", "walk")
    assert f"{path}:2: refused: " in err and "at most 254 characters" in err
    assert out.strip() == "entrants=1 created=1 updated=0 refused=1"


# The settings file (the upload and create_event): one validation, naming the key and its limit.


def fest(season, **change) -> dict:
    return {**EVENT, "date": (season.starts_on + timedelta(days=10)).isoformat(), **change}


def club_file(season, **change) -> dict:
    first = season.starts_on + timedelta(days=3)
    return {
        "name": "Thursday Club",
        "slug": "thursday",
        "format": "club",
        "rounds": [{"number": 1, "date": first.isoformat()}],
        **change,
    }


def refusal_of_file(route, raw: bytes, *, client, director, season, tmp_path) -> str:
    """The refusal the command (exit 1) or the upload (the form again, 200) gives for `raw`;
    nothing is created either way."""
    if route == "command":
        path = tmp_path / "settings.json"
        path.write_bytes(raw)
        error = refused(
            "create_event",
            str(path),
            "--institution",
            season.institution.slug,
            "--season",
            season.slug,
        )
        assert error.returncode == 1
        message = str(error)
    else:
        client.force_login(director.user)
        response = client.post(
            reverse("event_setup"),
            {"season": season.pk, "file": SimpleUploadedFile("settings.json", raw)},
        )
        assert response.status_code == 200
        message = " ".join(response.context["form"].errors["file"])
    assert not League.objects.filter(slug__in=[at("walk"), "thursday"]).exists()
    return message


ROUTES = ["command", "upload"]
TOO_LONG = [
    ("name", {"name": "N" * 121}, "name: at most 120 characters (121 given)"),
    ("venue", {"venue": "V" * 201}, "venue: at most 200 characters (201 given)"),
    ("slug", {"slug": "s" * 51}, "slug: at most 50 characters (51 given)"),
    (
        "category",
        {"categories": [{"name": "Open"}, {"name": "C" * 61}]},
        "categories[2].name: at most 60 characters (61 given)",
    ),
    (
        "group",
        {"categories": [{"name": "Open", "pairing_group": "G" * 61}]},
        "categories[1].pairing_group: at most 60 characters (61 given)",
    ),
    (
        "assist",
        {"assists": [{"name": "A" * 61, "first_cents": 100}]},
        "assists[1].name: at most 60 characters (61 given)",
    ),
    (
        "champion",
        {"champion_category": "C" * 61},
        "champion_category: at most 60 characters (61 given)",
    ),
]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "change, words", [case[1:] for case in TOO_LONG], ids=[c[0] for c in TOO_LONG]
)
def test_e3_e4_a_settings_file_text_over_its_column_is_refused_naming_the_key_and_limit(
    client, director, season, tmp_path, route, change, words
):
    raw = json.dumps(fest(season, **change)).encode()
    assert words in refusal_of_file(
        route, raw, client=client, director=director, season=season, tmp_path=tmp_path
    )


SHAPES = [
    ("slug with a space", {"slug": "walk fest"}, "slug: 'walk fest' has a character a slug cannot"),
    ("slug with accents", {"slug": "fête"}, "(no spaces or accents)"),
    ("venue a number", {"venue": 12}, "venue: text expected, not 12"),
    ("rounds a number", {"rounds": 3}, "rounds: a list of rounds, [...], not 3"),
    (
        "periods a number",
        {"rounds": [{"number": 1, "periods": 2}]},
        "rounds[1].periods: a list of periods, [...], not 2",
    ),
    (
        "round number as text",
        {"rounds": [{"number": "1", "periods": [{"starts": "18:00", "minutes": 45}]}]},
        'rounds[1].number: a whole number from 1 to 99, not "1"',
    ),
    ("public as text", {"public": "yes"}, 'public: true or false, not "yes"'),
    ("challenge points", {"challenge_points": 7}, "challenge_points: 7 is not one of 5, 10"),
    ("name with a NUL", {"name": "Walk\x00Fest"}, "name holds a control character"),
    ("name with a lone surrogate", {"name": "Walk\ud800"}, "name holds a control character"),
    ("unknown key", {"venu": "Hall"}, 'The file: unknown keys "venu"'),
    (
        "unknown key inside",
        {"categories": [{"name": "Open", "turns": 3}]},
        'categories[1]: unknown keys "turns"',
    ),
    (
        "51 categories",
        {"categories": [{"name": f"C{n}"} for n in range(51)]},
        "categories: at most 50 categories (51 given)",
    ),
    (
        "31 rounds",
        {
            "rounds": [
                {"number": n, "periods": [{"starts": "18:00", "minutes": 5}]} for n in range(1, 32)
            ]
        },
        "rounds: at most 30 rounds (31 given)",
    ),
    (
        "11 periods",
        {
            "rounds": [
                {
                    "number": 1,
                    "periods": [{"starts": f"{h:02d}:00", "minutes": 5} for h in range(11)],
                }
            ]
        },
        "rounds[1].periods: at most 10 periods (11 given)",
    ),
    (
        "51 assists",
        {"assists": [{"name": f"A{n}", "first_cents": 1} for n in range(51)]},
        "assists: at most 50 assists (51 given)",
    ),
    (
        "a later price below the first",
        {"assists": [{"name": "Ringer", "first_cents": 500, "later_cents": 250}]},
        "assists[1].later_cents: at least first_cents (500)",
    ),
    (
        "cents beyond the column",
        {"assists": [{"name": "Ringer", "first_cents": 10**12}]},
        "assists[1].first_cents: a whole number from 0 to 10000000",
    ),
]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("change, words", [case[1:] for case in SHAPES], ids=[c[0] for c in SHAPES])
def test_e3_e4_a_settings_file_of_the_wrong_shape_is_refused_naming_the_key(
    client, director, season, tmp_path, route, change, words
):
    raw = json.dumps(fest(season, **change)).encode()
    assert words in refusal_of_file(
        route, raw, client=client, director=director, season=season, tmp_path=tmp_path
    )


def test_e5_a_later_price_below_the_first_is_refused_and_an_equal_one_is_kept(season):
    from league.file_schema import LeagueFileError

    cheaper = {"name": "Ringer", "first_cents": 500, "later_cents": 250}
    with pytest.raises(LeagueFileError, match=r"assists\[1\].later_cents: at least first_cents"):
        read_event_file(fest(season, assists=[cheaper]))
    same = read_event_file(fest(season, assists=[{**cheaper, "later_cents": 500}]))
    assert [(a.first_cents, a.later_cents) for a in same.assists] == [(500, 500)]


CLUB_NIGHTS = [
    ("number 10**30", 10**30, "rounds[1].number: a whole number from 1 to 999"),
    ("number 1.7", 1.7, "rounds[1].number: a whole number from 1 to 999, not 1.7"),
    ("number 0", 0, "rounds[1].number: a whole number from 1 to 999; 0 is outside that"),
    ("number as text", "2", 'rounds[1].number: a whole number from 1 to 999, not "2"'),
]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "number, words", [c[1:] for c in CLUB_NIGHTS], ids=[c[0] for c in CLUB_NIGHTS]
)
def test_e4_a_club_night_number_that_is_not_a_small_whole_number_is_refused_not_rounded(
    client, director, season, tmp_path, route, number, words
):
    data = club_file(season)
    data["rounds"][0]["number"] = number
    assert words in refusal_of_file(
        route,
        json.dumps(data).encode(),
        client=client,
        director=director,
        season=season,
        tmp_path=tmp_path,
    )
    assert not Round.objects.exists()


def test_e4_a_club_with_a_hundred_and_one_nights_is_refused(client, director, season, tmp_path):
    data = club_file(season)
    data["rounds"] = [{"number": n, "date": data["rounds"][0]["date"]} for n in range(1, 102)]
    assert "rounds: at most 100 nights (101 given)" in refusal_of_file(
        "command",
        json.dumps(data).encode(),
        client=client,
        director=director,
        season=season,
        tmp_path=tmp_path,
    )


FILES = [
    ("not UTF-8", b'{"name": "F\xeate"}', "Not UTF-8 text (byte 0xea on line 1)"),
    ("empty", b"", "file is empty"),
    ("binary", bytes(range(256)) * 4, "Not UTF-8 text"),
    ("100,000 deep", b"[" * 100_000 + b"]" * 100_000, "nest more than 10 deep (line 1)"),
    ("over 256 KB", b"{" + b" " * (256 * 1024) + b"}", "at most 256 KB"),
    (
        "40,000 categories",
        json.dumps(
            {"format": "event", "categories": [{"name": f"C{n}"} for n in range(40_000)]}
        ).encode(),
        "at most 256 KB",
    ),
    ("not JSON", b'{"format": "event",\n', "Not a JSON file (line 2)"),
    (
        "NaN",
        b'{"format": "event", "seats_per_table": NaN}',
        "NaN is not a number a setting can have",
    ),
    (
        "5000 digits",
        b'{"format": "event", "team_size": ' + b"9" * 5000 + b"}",
        "a number of 5000 digits (at most 100)",
    ),
    ("a list", b"[1, 2]", "The file must hold one JSON object"),
    ("no format", b'{"name": "x"}', 'format: null is not "club" or "event"'),
]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("raw, words", [c[1:] for c in FILES], ids=[c[0] for c in FILES])
def test_e3_e4_a_settings_file_that_cannot_be_read_is_refused_saying_why(
    client, director, season, tmp_path, route, raw, words
):
    assert words in refusal_of_file(
        route, raw, client=client, director=director, season=season, tmp_path=tmp_path
    )


def test_e3_e4_export_refuses_a_new_slug_that_could_not_be_imported(season, tmp_path):
    path = tmp_path / "f.json"
    path.write_text(json.dumps(fest(season)))
    run(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )
    for slug in ("bad slug!", "fête-2027", "s" * 51):
        assert "argument --slug: " in usage_error(
            "create_event", "--export", "walk", "--slug", slug
        )
    exported, _ = run("create_event", "--export", "walk", "--slug", "walk-2027")
    assert json.loads(exported)["slug"] == "walk-2027"


# --- Every command with hostile arguments: exit 1 or 2 with the reason, nothing changed ----------


def hostile_files(tmp_path) -> dict[str, str]:
    """Files no command should take: by what is wrong with them."""
    made = {
        "binary": bytes(range(256)) * 64,
        "not UTF-8": "name,team\nRenée Fox,Reds\n".encode("latin-1"),
        "empty": b"",
        "NUL bytes": b"name,team\nAda\x00,Reds\n",
        "unterminated quote": b'name,team\n"Ada Quill,Reds\nBo Vance,Blues\n',
        "only a header": b"table,player_number,score\n",
    }
    paths = {}
    for what, data in made.items():
        path = tmp_path / f"{what.replace(' ', '-')}.csv"
        path.write_bytes(data)
        paths[what] = str(path)
    paths["missing"] = str(tmp_path / "nowhere.csv")
    paths["a folder"] = str(tmp_path)
    paths["a NUL in the name"] = str(tmp_path / "a\x00b.csv")
    return paths


def card_file(tmp_path, rows: str) -> str:
    path = tmp_path / "cards.csv"
    path.write_text("table,player_number,score\n" + rows)
    return str(path)


SLUGS = ["nope", "a\x00b", "s" * 5000, "bad slug!", ""]
NUMBERS = ["abc", SUPERSCRIPT_TWO, "١", "1.5", HUGE_NUMBER, "-1", "", "1\x00"]


def command_cases(tmp_path, season) -> list[tuple[str, list[str]]]:
    files = hostile_files(tmp_path)
    institution = season.institution.slug
    cases = []
    for slug in SLUGS:
        cases += [
            ("pair_round", ["--league", slug]),
            ("enter_scores", ["--league", slug, "--round", "1", card_file(tmp_path, "1,1,400\n")]),
            ("import_entrants", [files["only a header"], "--league", slug]),
            ("create_event", ["--export", slug]),
            ("create_event", [files["empty"], "--institution", slug, "--season", season.slug]),
            ("create_event", [files["empty"], "--institution", institution, "--season", slug]),
            ("run_nightly", ["--institution", slug]),
            ("import_roster", [files["only a header"], "--institution", slug, "--season", "x"]),
            (
                "import_roster",
                [files["only a header"], "--institution", institution, "--season", slug],
            ),
        ]
    for number in NUMBERS:
        cases += [
            ("pair_round", ["--league", "walk", "--round", number]),
            ("pair_round", ["--league", "walk", "--seed", number]),
            ("pair_round", ["--league", "walk-club", "--round", number]),
            ("enter_scores", ["--league", "walk", "--round", number, card_file(tmp_path, "")]),
            ("seed_demo", ["--players", number]),
            ("seed_demo", ["--leagues", number]),
            ("seed_demo", ["--matches", number]),
            ("seed_demo", ["--seed", number]),
        ]
    for seed in [str(2**31), str(-(2**31)), str(10**30)]:
        cases.append(("pair_round", ["--league", "walk-club", "--round", "2", "--seed", seed]))
    for path in files.values():
        cases += [
            ("import_entrants", [path, "--league", "walk", "--strict"]),
            ("enter_scores", ["--league", "walk", "--round", "1", path]),
            ("create_event", [path, "--institution", institution, "--season", season.slug]),
            (
                "import_roster",
                [path, "--institution", institution, "--season", season.slug, "--strict"],
            ),
            ("gcg_check", [path]),
        ]
    for today in ["abc", "9999-12-31", "0001-01-01", "2026-02-30", "\x00", "1" * 5000]:
        cases.append(("run_nightly", ["--today", today]))
    for day in ["9999-12-31", "tomorrow", "\x00", "2027-02-30"]:
        cases.append(("create_event", ["--export", "walk-club", "--date", day]))
    for row in [
        f"{SUPERSCRIPT_TWO},1,400\n1,2,350\n",
        f"1,{SUPERSCRIPT_TWO},400\n1,2,350\n",
        f"1,1,{HUGE_NUMBER}\n1,2,350\n",
        f"{HUGE_NUMBER},1,400\n",
        f"1,{HUGE_NUMBER},400\n1,2,350\n",
        "1,1,400\n1,2,350\n1,3,\x00\n",
        '1,1,"400\n',
        "1,1,-101\n1,2,350\n",
        "1,1," + "9" * 5000 + "\n1,2,350\n",
    ]:
        cases.append(
            ("enter_scores", ["--league", "walk", "--round", "1", card_file(tmp_path, row)])
        )
    entrants = tmp_path / "entrants"
    entrants.mkdir()
    for n, text in enumerate(
        [
            f"name,player_number\nNia Frost,{SUPERSCRIPT_TWO}\n",
            f"name,player_number\nNia Frost,{HUGE_NUMBER}\n",
            "name,player_number\nNia Frost,-1\n",
            f"name,email\nNia Frost,{LONG_EMAIL}\n",
            f"name,team\nNia Frost,{'T' * 121}\n",
            f"name\n{'N' * 151}\n",
            f"name,category\nNia Frost,{'C' * 5000}\n",
            f"name,campus_id\nNia Frost,{'9' * 5000}\n",
            'name,team\nNia Frost,Reds\n"Ola Reed,Blues\n',
        ]
    ):
        path = entrants / f"{n}.csv"
        path.write_text(text)
        cases.append(("import_entrants", [str(path), "--league", "walk", "--strict"]))
    return cases


def test_every_command_refuses_hostile_arguments_with_its_reason_and_changes_nothing(
    event, club, season, tmp_path, capsys
):
    before = snapshot()
    tracebacks = []
    for command, args in command_cases(tmp_path, season):
        out, err = io.StringIO(), io.StringIO()
        try:
            call_command(command, *args, stdout=out, stderr=err)
        except CommandError as error:
            assert error.returncode in (1, 2) and str(error).strip(), (command, args)
        except SystemExit as exit:  # gcg_check's own exit codes: 2, the file cannot be read
            assert exit.code in (1, 2) and err.getvalue().strip(), (command, args)
        except Exception as error:  # noqa: BLE001 - the point: which ones end in a traceback
            tracebacks.append(
                f"{command} {[a[:40] for a in args]}: {type(error).__name__}: {error}"[:300]
            )
        else:
            tracebacks.append(
                f"{command} {[a[:40] for a in args]}: exit 0 ({out.getvalue()[:80]!r})"
            )
        if changed(before):
            tracebacks.append(f"{command} {[a[:40] for a in args]}: changed {changed(before)}")
            before = snapshot()
    assert not tracebacks, "\n".join(tracebacks)


# pair_round --seed, huge or negative; the small ones.


@pytest.mark.parametrize("seed", ["-1", str(2**31), HUGE_NUMBER, SUPERSCRIPT_TWO])
def test_e3_e4_pair_round_refuses_a_seed_outside_0_to_2_31_and_says_the_range(event, seed):
    message = usage_error("pair_round", "--league", "walk", "--round", "2", "--seed", seed)
    assert "argument --seed: a whole number from 0 to 2147483647" in message
    assert Round.objects.get(league=event, number=2).seed is None


def test_e3_pair_round_takes_the_largest_seed_in_range(event, director):
    from matches.services import card_enter

    for table in Match.objects.filter(round__league=event, round__number=1):
        card_enter(actor=director.user, match=table, scores=[400, 350])
    run("pair_round", "--league", "walk", "--round", "2", "--seed", str(2**31 - 1))
    assert Round.objects.get(league=event, number=2).seed == 2**31 - 1


def test_a_bad_seed_on_the_command_line_exits_2_with_the_range_not_a_traceback():
    """The real command line: argparse's usage error, exit status 2, before any database."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "manage.py", "pair_round", "--league", "x", "--seed", "-5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "argument --seed: a whole number from 0 to 2147483647" in result.stderr
    assert "Traceback" not in result.stderr


def test_e3_an_entrants_row_with_an_unterminated_quote_is_refused_naming_its_line(event, tmp_path):
    path = tmp_path / "in.csv"
    path.write_text('name,team\nNia Frost,Reds\n"Ola Reed,Blues\nPia Lund,Reds\n')
    error = refused("import_entrants", str(path), "--league", "walk")
    assert "line 3: a quote opened here is never closed" in str(error)
    assert not Entry.objects.filter(player__display_name__startswith="Ola").exists()
    assert not Entry.objects.filter(player__display_name="Nia Frost").exists()


def test_e3_a_score_card_file_with_an_unterminated_quote_is_refused_naming_its_line(
    event, tmp_path
):
    error = refused(
        "enter_scores",
        "--league",
        "walk",
        "--round",
        "1",
        card_file(tmp_path, '1,1,"400\n1,2,350\n'),
    )
    assert "line 2: a quote opened here is never closed" in str(error)
    assert not Match.objects.filter(round__league=event, status="confirmed").exists()


@pytest.mark.parametrize("key", ["", "   "])
def test_e4_a_club_check_in_with_an_empty_key_asks_for_one_and_names_nobody(
    client, club, director, key
):
    as_director(client, director)
    before = snapshot()
    response = client.post(
        reverse("club_check_in", args=[at("walk-club"), 2]), {"player": key}, follow=True
    )
    page = response.content.decode()
    assert "Scan or type a player number or campus ID." in page
    assert director.name not in page.split('class="messages"')[1].split("</ul>")[0]
    assert not changed(before)


# --- The walk: every form of the event, club and assists pages, each hostile value in each field


def numbers(low: int, high: int) -> list[str]:
    """What a whole-number field must refuse, given its range."""
    return [
        "abc", "", " ", SUPERSCRIPT_TWO, "١", "1.5", "1e3", str(low - 1), str(high + 1),
        HUGE_NUMBER, "9" * 5000, NUL, "1\x00", HUGE,
    ]  # fmt: skip


IDS = [
    "abc",
    "",
    " ",
    SUPERSCRIPT_TWO,
    "1.5",
    "-1",
    "0",
    "999999999",
    HUGE_NUMBER,
    NUL,
    "7\x00",
    HUGE,
]
KEYS = ["", " ", SUPERSCRIPT_TWO, "abc", "-1", "0", "999999", HUGE_NUMBER, NUL, "5\x00", HUGE]
REQUIRED_TEXT = ["", " ", NUL, "Ab\x00", "\x07bell", HUGE]
OPTIONAL_TEXT = [NUL, "Ab\x00", "\x07bell", HUGE]
EMAILS = [LONG_EMAIL, "not-an-email", NUL, "a\x00@example.org", HUGE]
CHOICES = ["", "Nope", NUL, HUGE]
ROUND_TRIPS = ["\n", "x\r\nX-Injected: 1", NUL, HUGE, "<b>", SUPERSCRIPT_TWO]
FLAGS = [NUL, HUGE, "0", "false"]


@dataclass
class World:
    """What the walk's forms point at."""

    event: League
    club: League
    season: object
    director: object
    student: object

    def entry(self, number: int) -> Entry:
        return Entry.objects.get(league=self.event, player_number=number)

    def club_table(self) -> Match:
        return Match.objects.get(round__league=self.club, round__number=1)


@dataclass
class Form:
    """A form: its URL, data that it accepts (posting it changes something), the hostile values
    each field must refuse with a message, and fields that are passed along rather than read
    (a flag, the search to go back to) posted with `quiet` data that the form refuses anyway."""

    url: Callable[[World], str]
    base: Callable[[World], dict]
    walk: dict[str, list]
    passive: dict[str, list] = dataclass_field(default_factory=dict)
    quiet: Callable[[World], tuple[str, dict]] | None = None
    persona: str = "director"


def _card(world: World, prefix: str = "") -> dict:
    return {
        f"{prefix}score_1": "400",
        f"{prefix}score_2": "350",
        f"{prefix}ended_by": GameEnd.WENT_OUT,
    }


def seen(table: Match) -> str:
    """The seating a page showed for `table`, as its card form sends it back."""
    return ",".join(str(seat.player_id) for seat in table.seats.order_by("order"))


def _club_card(world: World) -> dict:
    table = world.club_table()
    prefix = f"table-{table.pk}-"
    return {
        **_card(world, prefix),
        f"{prefix}score_3": "300",
        f"{prefix}score_4": "250",
        f"{prefix}seen": seen(table),
    }


def _event_card(world: World) -> dict:
    table = Match.objects.get(round__league=world.event, round__number=1, table=1)
    return {"table": "1", **_card(world), "override_reason": "", "seen": seen(table)}


GOOD_FILE = None  # set by the walk: a settings file the upload accepts


FORMS = {
    "desk check-in": Form(
        url=lambda w: reverse("event_check_in", args=[at("walk")]),
        base=lambda w: {"player": "5"},
        walk={"player": KEYS},
        passive={"q": ROUND_TRIPS, "undo": FLAGS, "back": FLAGS, "leave": FLAGS},
        quiet=lambda w: (reverse("event_check_in", args=[at("walk")]), {"player": "nobody"}),
    ),
    "walk-in": Form(
        url=lambda w: reverse("event_walk_in", args=[at("walk")]),
        base=lambda w: {"name": "Nia Frost", "category": "Open", "team": "", "email": ""},
        walk={
            "name": REQUIRED_TEXT + ["N" * 151],
            "category": CHOICES,
            "team": OPTIONAL_TEXT + ["T" * 121],
            "email": EMAILS,
            "campus_id": OPTIONAL_TEXT + ["9" * 41, "0000000"],
        },
    ),
    "swap": Form(
        url=lambda w: reverse("event_swap", args=[at("walk"), 1]),
        base=lambda w: {"first": "1", "second": "3", "confirmed": "1"},
        walk={"first": KEYS, "second": KEYS},
        passive={"confirmed": FLAGS},
        quiet=lambda w: (
            reverse("event_swap", args=[at("walk"), 1]),
            {"first": "1", "second": "1"},
        ),
    ),
    "pair": Form(
        url=lambda w: reverse("event_pair", args=[at("walk"), 1]),
        base=lambda w: {"repair": "1"},
        walk={},
        passive={"repair": FLAGS},
        quiet=lambda w: (reverse("event_pair", args=[at("walk"), 2]), {}),
    ),
    "close round": Form(
        url=lambda w: reverse("event_close", args=[at("walk"), 1]),
        base=lambda w: {"reason": "Round over"},
        walk={"reason": OPTIONAL_TEXT + ["r" * 301]},
    ),
    "score card": Form(
        url=lambda w: reverse("event_scores", args=[at("walk"), 1]),
        base=_event_card,
        walk={
            "table": numbers(1, 999) + ["3"],
            "seen": [NUL, "", "abc", SUPERSCRIPT_TWO, "1,2,3", HUGE],
            **{f"number_{n}": [v for v in numbers(1, 99999) if v.strip()] for n in range(1, 5)},
            "score_1": numbers(-100, 1500),
            "score_2": numbers(-100, 1500),
            "score_3": [v for v in numbers(-100, 1500) if v.strip()] + ["300"],
            "score_4": [v for v in numbers(-100, 1500) if v.strip()],
            "ended_by": CHOICES,
            "override_reason": OPTIONAL_TEXT + ["r" * 301],
        },
    ),
    "volunteer": Form(
        url=lambda w: reverse("event_scorers", args=[at("walk")]),
        base=lambda w: {"name": "Lou Park", "email": "lou@example.org"},
        walk={"name": REQUIRED_TEXT + ["N" * 151], "email": ["", *EMAILS]},
    ),
    "volunteer removal": Form(
        url=lambda w: reverse("event_scorers", args=[at("walk")]),
        base=lambda w: {"remove": str(EventScorer.objects.get(league=w.event).pk)},
        walk={"remove": IDS},
    ),
    "volunteer slip": Form(
        url=lambda w: reverse("event_scorers", args=[at("walk")]),
        base=lambda w: {"slip": str(EventScorer.objects.get(league=w.event).pk)},
        walk={"slip": IDS},
    ),
    "sale": Form(
        url=lambda w: reverse("event_assists", args=[at("walk")]),
        base=lambda w: {
            "entry": str(w.entry(2).pk),
            "item": str(w.event.assist_items.get().pk),
            "quantity": "2",
            "at": "table-1",
        },
        walk={"entry": IDS, "item": IDS, "quantity": numbers(1, 100)},
        passive={"at": ROUND_TRIPS},
        quiet=lambda w: (reverse("event_assists", args=[at("walk")]), {"entry": "abc"}),
    ),
    "void": Form(
        url=lambda w: reverse("event_assists", args=[at("walk")]),
        base=lambda w: {"void": str(AssistSale.objects.get().pk), "reason": "Rang up twice"},
        walk={"void": IDS, "reason": REQUIRED_TEXT + ["r" * 301]},
    ),
    "settings upload": Form(
        url=lambda w: reverse("event_setup"),
        base=lambda w: {"season": str(w.season.pk), "file": GOOD_FILE},
        walk={
            "season": IDS,
            "file": [
                b"",
                b"\xff\xfe\x00binary",
                b"[" * 100_000,
                b'{"format": "event",',
                b"{" + b" " * (256 * 1024) + b"}",
                HUGE.encode(),
                b"name\x00",
            ],
        },
        passive={"update": FLAGS},
        quiet=lambda w: (reverse("event_setup"), {"season": str(w.season.pk), "file": b"[]"}),
    ),
    "enter online": Form(
        url=lambda w: reverse("league_join", args=[at("walk")]),
        base=lambda w: {"category": "Open"},
        walk={"category": ["Nope", NUL, HUGE]},
        persona="student",
    ),
    "club check-in": Form(
        url=lambda w: reverse("club_check_in", args=[at("walk-club"), 2]),
        base=lambda w: {"player": "5"},
        walk={"player": KEYS},
        passive={"q": ROUND_TRIPS, "undo": FLAGS},
        quiet=lambda w: (reverse("club_check_in", args=[at("walk-club"), 2]), {"player": "nobody"}),
    ),
    "guest": Form(
        url=lambda w: reverse("club_guest", args=[at("walk-club"), 2]),
        base=lambda w: {"name": "Gus Hale", "email": ""},
        walk={"name": REQUIRED_TEXT + ["G" * 151], "email": EMAILS},
    ),
    "seat the night": Form(
        url=lambda w: reverse("club_seat", args=[at("walk-club"), 2]),
        base=lambda w: {},
        walk={},
        passive={"repair": FLAGS},
        quiet=lambda w: (reverse("club_seat", args=[at("walk-club"), 3]), {}),
    ),
    "close the night": Form(
        url=lambda w: reverse("club_close", args=[at("walk-club"), 1]),
        base=lambda w: {"reason": "Night over"},
        walk={"reason": REQUIRED_TEXT + ["r" * 301]},
    ),
    "club card": Form(
        url=lambda w: reverse("club_card", args=[at("walk-club"), 1, w.club_table().pk]),
        base=_club_card,
        walk={},  # its fields carry the table's id: club_card_fields
    ),
    "next night": Form(
        url=lambda w: reverse("club_night_add", args=[at("walk-club")]),
        base=lambda w: {"on": (w.season.starts_on + timedelta(days=21)).isoformat()},
        walk={"on": ["", "abc", "2026-02-30", "99999-01-01", HUGE_NUMBER, NUL, HUGE, "0001-01-01"]},
    ),
}


def club_card_fields(world: World) -> dict[str, list]:
    prefix = f"table-{world.club_table().pk}-"
    walk = {f"{prefix}score_{n}": numbers(-100, 1500) for n in range(1, 5)}
    return {
        **walk,
        f"{prefix}seen": [NUL, "", "abc", SUPERSCRIPT_TWO, "1,2", HUGE],
        f"{prefix}ended_by": CHOICES,
        f"{prefix}override_reason": OPTIONAL_TEXT + ["r" * 301],
    }


@pytest.fixture
def world(event, club, season, director):
    Round.objects.create(league=club, number=3, play_by=season.starts_on + timedelta(days=14))
    student = eligible_student(season)
    global GOOD_FILE
    GOOD_FILE = json.dumps(fest(season, slug="walk-two", name="Walk Two")).encode()
    return World(event=event, club=club, season=season, director=director, student=student)


def post(client, url: str, data: dict):
    data = {
        key: SimpleUploadedFile("settings.json", value) if isinstance(value, bytes) else value
        for key, value in data.items()
    }
    return client.post(url, data, follow=True)


@pytest.mark.parametrize("name", FORMS)
def test_every_form_refuses_each_hostile_value_with_a_message_and_changes_nothing(
    client, world, name
):
    form = FORMS[name]
    client.force_login(world.director.user if form.persona == "director" else world.student.user)
    walk = club_card_fields(world) if name == "club card" else form.walk
    before = snapshot()
    problems = []
    for field, values in walk.items():
        for value in values:
            response = post(client, form.url(world), {**form.base(world), field: value})
            what = f"{field}={value[:30]!r}"
            if response.status_code != 200 or not refusal_shown(response):
                problems.append(f"{what}: {response.status_code}, no refusal shown")
            if changed(before):
                problems.append(f"{what}: changed {changed(before)}")
                before = snapshot()
    for field, values in form.passive.items():
        url, data = form.quiet(world)
        for value in values:
            response = post(client, url, {**data, field: value})
            if response.status_code != 200 or changed(before):
                problems.append(f"{field}={value[:30]!r} (passed along): {response.status_code}")
                before = snapshot()
    assert not problems, "\n".join(problems)
    # The data the walk started from is accepted: each refusal above was the hostile value's.
    response = post(client, form.url(world), form.base(world))
    assert response.status_code == 200 and changed(before), f"{name}: the base data changed nothing"


SEARCHES = [NUL, "Ada\x00", SUPERSCRIPT_TWO, HUGE_NUMBER, "-1", "%", "_", "\\", "x" * 10_000]
ODD_NUMBERS = [NUL, SUPERSCRIPT_TWO, "١", HUGE_NUMBER, "-1", "abc", "", "x" * 10_000]
READ_ONLY = {
    "event desk": (lambda w: reverse("event_desk", args=[at("walk")]), {"q": SEARCHES}),
    "club night": (lambda w: reverse("club_night", args=[at("walk-club"), 2]), {"q": SEARCHES}),
    "table timer": (
        lambda w: reverse("table_timer", args=[at("walk")]),
        {"seconds": ODD_NUMBERS, "players": ODD_NUMBERS, "table": ODD_NUMBERS, "names": [NUL]},
    ),
    "assists": (
        lambda w: reverse("event_assists", args=[at("walk")]),
        {"open": [NUL, "<b>", HUGE]},
    ),
    "printables": (
        lambda w: reverse("event_print", args=[at("walk"), 1, "pairings"]),
        {"paper": ["nope", NUL]},
    ),
}


@pytest.mark.parametrize("name", READ_ONLY)
def test_every_page_reads_hostile_parameters_without_an_error_or_a_change(client, world, name):
    url, parameters = READ_ONLY[name]
    client.force_login(world.director.user)
    before = snapshot()
    for key, values in parameters.items():
        for value in values:
            response = client.get(url(world), {key: value})
            assert response.status_code == 200, (key, value[:30])
            if key == "q" and (NUL in value or len(value) > 100):
                assert refusal_shown(response), value[:30]
    assert not changed(before)


PATHS = [
    ("get", "event_round", [at("walk"), "N"]),
    ("get", "event_table", [at("walk"), "N", 1]),
    ("get", "event_table", [at("walk"), 1, "N"]),
    ("get", "event_scores", [at("walk"), "N"]),
    ("post", "event_scores", [at("walk"), "N"]),
    ("get", "event_print", [at("walk"), "N", "cards"]),
    ("post", "event_pair", [at("walk"), "N"]),
    ("post", "event_swap", [at("walk"), "N"]),
    ("post", "event_close", [at("walk"), "N"]),
    ("get", "club_night", [at("walk-club"), "N"]),
    ("post", "club_check_in", [at("walk-club"), "N"]),
    ("post", "club_guest", [at("walk-club"), "N"]),
    ("post", "club_seat", [at("walk-club"), "N"]),
    ("post", "club_close", [at("walk-club"), "N"]),
    ("post", "club_card", [at("walk-club"), 1, "N"]),
    ("post", "club_card", [at("walk-club"), "N", 1]),
]


@pytest.mark.parametrize("number", [0, 2**31, 2**63, 10**30])
def test_a_round_table_or_night_number_beyond_its_column_is_a_404(client, world, number):
    client.force_login(world.director.user)
    before = snapshot()
    for method, name, args in PATHS:
        url = reverse(name, args=[number if arg == "N" else arg for arg in args])
        response = getattr(client, method)(url, {"reason": "x", "player": "1", "name": "Gus"})
        assert response.status_code == 404, (method, name, args)
    assert not changed(before)

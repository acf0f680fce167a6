"""What the tests share: made-up people and places on the reserved example.edu / example.org
domains, the scenarios tests start from (a reported match, a confirmed game, an open dispute,
entrants), running a command, calls started together on their own connections, an SMTP server
on loopback, reading a PDF, a club's members and pages, and where the project's files are."""

import asyncio
import io
import json
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import factory
import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from accounts.models import Institution, PlayerProfile, RosterEntry, Season, User
from accounts.services import eligibility_rule
from league.addresses import LeagueAddress
from league.models import Entry
from matches import services

PASSWORD = "correct-horse-battery"
# The checkout, and the game records written for the tests.
ROOT = Path(__file__).resolve().parent.parent
GCG_FIXTURES = ROOT / "tests" / "fixtures" / "gcg"


class InstitutionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Institution
        django_get_or_create = ["slug"]

    name = factory.Sequence(lambda n: f"Example College {n}")
    slug = factory.Sequence(lambda n: f"example-{n}")
    email_domains = factory.LazyAttribute(lambda o: f"{o.slug}.example.edu")
    campus_id_pattern = r"\d{7}"
    campus_id_hint = "seven digits"
    timezone = "America/Chicago"
    default_venue = "Student Union, Games Room"
    front_desk_location = "the Recreation Center front desk"


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    institution = factory.SubFactory(InstitutionFactory)
    name = "Fall term"
    slug = factory.Sequence(lambda n: f"term-{n}")
    starts_on = factory.LazyFunction(lambda: timezone.now().date() - timedelta(days=10))
    ends_on = factory.LazyFunction(lambda: timezone.now().date() + timedelta(days=80))
    registration_deadline = factory.LazyFunction(lambda: timezone.now().date() + timedelta(days=5))


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    first_name = factory.Sequence(lambda n: f"Avery{n}")
    last_name = "Quillfeather"
    email = factory.Sequence(lambda n: f"person{n}@example.edu")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def verified(user, create, extracted, **kwargs):
        if create and extracted is not False:
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


class ProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerProfile
        skip_postgeneration_save = True

    institution = factory.SubFactory(InstitutionFactory)
    user = factory.SubFactory(
        UserFactory,
        email=factory.LazyAttributeSequence(
            lambda o, n: f"student{n}@{o.factory_parent.institution.domains[0]}"
        ),
    )
    campus_id = factory.Sequence(lambda n: f"{1000000 + n}")

    @factory.post_generation
    def student_role(profile, create, extracted, **kwargs):
        """Whoever has a campus ID signed up as a student (staff fixtures pass campus_id="")."""
        if create and profile.campus_id:
            profile.user.groups.add(Group.objects.get_or_create(name=roles.STUDENTS)[0])


def at(slug: str, campus: str = "example-state") -> LeagueAddress:
    """A league's public address by its slug, on the `institution` fixture's campus unless
    another is named: for reverse() where a test knows the slug rather than the league."""
    return LeagueAddress(campus, slug)


def with_role(profile: PlayerProfile, group_name: str) -> PlayerProfile:
    profile.user.groups.add(Group.objects.get_or_create(name=group_name)[0])
    if group_name == roles.DIRECTORS:
        profile.user.is_staff = True
        profile.user.save(update_fields=["is_staff"])
    return profile


def staff_member(institution: Institution, group_name: str) -> PlayerProfile:
    """Someone working for the institution in `group_name`: no campus ID, so no student role."""
    return with_role(ProfileFactory(institution=institution, campus_id=""), group_name)


def roster_entry(season: Season, campus_id: str) -> RosterEntry:
    return RosterEntry.objects.create(season=season, campus_id=campus_id)


# --- Leagues and matches -------------------------------------------------------------------------


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "league.League"

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Tuesday League {n}")
    slug = factory.Sequence(lambda n: f"tuesday-{n}")
    venue = "Student Union, Games Room"


def eligible(profile: PlayerProfile, season: Season) -> PlayerProfile:
    from accounts.models import Eligibility

    Eligibility.objects.update_or_create(
        profile=profile, season=season, defaults={"status": "eligible", "source": "roster"}
    )
    return profile


def match_between(
    league, first: PlayerProfile, second: PlayerProfile, *, play_by=None, number=None
):
    """A two-player match in its own round, due `play_by` (default: in a week)."""
    return table_of(league, [first, second], play_by=play_by, number=number)


def table_of(league, players, *, play_by=None, number=None, scorekeeper: int = 1):
    """A match of these players in seat order (two to four, G9) in its own round, due
    `play_by` (default: in a week)."""
    from league.models import Round
    from matches.services import NewMatch, matches_create

    play_by = play_by or (timezone.now().date() + timedelta(days=7))
    number = number or (league.rounds.count() + 1)
    round_ = Round.objects.create(league=league, number=number, play_by=play_by)
    new = NewMatch(round=round_, players=[player.pk for player in players], scorekeeper=scorekeeper)
    return matches_create(actor=None, new=[new])[0]


def round_of(league, count: int, *, play_by=None, number=None):
    """A round of `count` two-player matches between new eligible students, due `play_by`
    (default: in a week); returns (the round, its matches in id order)."""
    from league.models import Round
    from matches.services import NewMatch, matches_create

    play_by = play_by or (timezone.now().date() + timedelta(days=7))
    number = number or (league.rounds.count() + 1)
    round_ = Round.objects.create(league=league, number=number, play_by=play_by)
    new = [
        NewMatch(
            round=round_,
            players=[eligible_student(league.season).pk, eligible_student(league.season).pk],
        )
        for _ in range(count)
    ]
    return round_, matches_create(actor=None, new=new)


# --- Scenarios -----------------------------------------------------------------------------------
# What a test starts from. Rulings, reports, confirmations and disputes go through the real
# services, as the director or a player would, so a test's setup keeps exercising the code it
# depends on. Scores are in seat order (seat 1's first) unless a name says otherwise.


def eligible_student(season: Season, *, first_name=None, last_name=None) -> PlayerProfile:
    """A student of the season's institution, eligible for it."""
    names = {"user__first_name": first_name, "user__last_name": last_name}
    profile = ProfileFactory(
        institution=season.institution, **{key: value for key, value in names.items() if value}
    )
    return eligible(profile, season)


def ruled_ineligible(profile: PlayerProfile, season: Season, *, director, reason="Suspended"):
    """The director's ruling (L10), which outranks ID checks and the roster."""
    eligibility_rule(
        actor=director.user, profile=profile, season=season, status="ineligible", reason=reason
    )
    return profile


def entrant(league, *, first_name=None, last_name=None) -> PlayerProfile:
    """An eligible student entered in `league`."""
    profile = eligible_student(league.season, first_name=first_name, last_name=last_name)
    Entry.objects.create(league=league, player=profile)
    return profile


def new_match(league, **when):
    """A match between two new eligible students; `when` (play_by, number) as in match_between."""
    first, second = eligible_student(league.season), eligible_student(league.season)
    return match_between(league, first, second, **when)


def submitted_report(match, *, by: PlayerProfile, scores=(420, 380), **details):
    """`by` reports the result, every seat's score in seat order; it waits for the other
    seats' confirmation (L6, L7, G9)."""
    return services.report_submit(actor=by.user, match=match, scores=list(scores), **details)


def confirmed_game(match, *, winner: PlayerProfile, loser: PlayerProfile, scores=(400, 350)):
    """`winner` reports `scores` (theirs first, whichever seat they sit in), `loser` confirms.
    For a tie either player may stand as the winner."""
    winner_sits_first = match.seats.get(order=1).player_id == winner.pk
    by_seat = scores if winner_sits_first else (scores[1], scores[0])
    report = submitted_report(match, by=winner, scores=by_seat)
    services.report_confirm(actor=loser.user, report=report)
    report.refresh_from_db()
    return report


def open_dispute(
    match,
    *,
    reported=(420, 380),
    disputed=(400, 410),
    note="Turn 12 was scored 32, not 12.",
    **details,
):
    """Seat 1 reports `reported`, seat 2 disputes it with `disputed` (L9); `details` (turn,
    move, the scores at the turn) go with the dispute."""
    first, second = (seat.player for seat in match.seats.order_by("order"))
    report = submitted_report(match, by=first, scores=[reported[0], reported[1]])
    return services.report_dispute(
        actor=second.user,
        report=report,
        scores=[disputed[0], disputed[1]],
        note=note,
        **details,
    )


# --- Commands, races, mail, PDFs, a club's pages -------------------------------------------


def run_together(*calls):
    """Start every call at the same moment, each in its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as error:  # noqa: BLE001 - the outcome is the assertion
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args) -> CommandError:
    with pytest.raises(CommandError) as caught:
        run(*args)
    return caught.value


def refused_saying(*args) -> tuple[CommandError, str]:
    """A command that refuses, and what it wrote on standard error before it did."""
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(*args, stdout=io.StringIO(), stderr=err)
    return caught.value, err.getvalue()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def create_event(season, tmp_path, data: dict, name: str = "event.json"):
    """`create_event` with `data` as its settings file, in `season`: what it printed."""
    return run(
        "create_event",
        write(tmp_path, name, json.dumps(data)),
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
    )


FEST = {
    "name": "Scrabble Fest",
    "slug": "fest",
    "format": "event",
    "venue": "Student Union Ballroom",
    "rounds": [
        {"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]},
        {"number": 2, "periods": [{"starts": "19:00", "minutes": 45}]},
        {"number": 3, "periods": [{"starts": "20:00", "minutes": 45}]},
    ],
    "categories": [
        {"name": "Competitive", "pairing_group": "Competitive", "turn_seconds": 150},
        {"name": "Just for Fun", "pairing_group": "Fun", "turn_seconds": None},
        {"name": "Corporate Team", "pairing_group": "Fun", "turn_seconds": None},
    ],
    "champion_category": "Competitive",
}


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 Message accepted"


class SlowInbox(Inbox):
    """Takes each message at once and says so (250) a little later: a sender killed in between
    has delivered a message it never heard was accepted, the worst moment to die."""

    delay = 0.01

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        await asyncio.sleep(self.delay)
        return "250 Message accepted"


def gunicorn(port: int, env: dict, log: Path | None = None) -> subprocess.Popen:
    """One web instance on loopback, as compose runs `web`, once it takes connections; its
    errors written to `log` (dropped without one)."""
    server = subprocess.Popen(
        [Path(sys.executable).parent / "gunicorn", "config.wsgi:application"]
        + ["--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w") if log else subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return server
        assert time.monotonic() < deadline, "gunicorn did not start"
        time.sleep(0.2)


def known_ratings(institution, ratings: dict) -> None:
    """These players' known ratings (player: rating), imported as a director would (R5)."""
    from ratings.imports import ratings_import

    lines = "".join(f"{player.campus_id},{rating}\n" for player, rating in ratings.items())
    ratings_import(actor=None, institution=institution, data=f"campus_id,rating\n{lines}".encode())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def smtp_settings(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5


class Refusing(Inbox):
    """An SMTP server that refuses one mailbox and accepts the rest."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce@"):
            return "550 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def poppler(tool, pdf: bytes, tmp_path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    args = [tool, str(path)] + (["-"] if tool == "pdftotext" else [])
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def members(club, count):
    players = [eligible_student(club.season) for _ in range(count)]
    for number, player in enumerate(players, start=1):
        Entry.objects.create(league=club, player=player, player_number=number)
    return players


def url(night, name="club_night", *extra):
    return reverse(name, args=[night.league, night.number, *extra])


# --- A game record (GCG) -------------------------------------------------------------------

# Sage (the opponent fixture, seat 2) moves first and goes out; Rowan (seat 1) is left with EI.
# Move 6 is a phony Rowan takes back; move 8 scores the unplayed tiles.
MOVES = """\
#player1 sage Sage Okafor
#player2 rowan Rowan Pemberton
>sage: DINNVWY 8D WINDY +32 32
>rowan: ADEEGIL 7C GALE +16 16
>sage: ENORSTU H8 .OUTERS +11 43
>rowan: ADEIIXZ I9 AX +22 38
>sage: ABCNU?E - +0 43
>rowan: DEIIZ?? 12E DIZ. +14 52
>rowan: DEIIZ?? -- -14 38
"""
# North-American rule: the player who went out gains twice the other's tiles (E + I = 2).
NORTH_AMERICAN_RECORD = MOVES + ">sage: (EI) +4 47\n"
# Standard rule: she gains them once, he loses them.
STANDARD_RECORD = MOVES + ">sage: (EI) +2 45\n>rowan: EI (EI) -2 36\n"


def rounds_started(league):
    """The director started every round of the event early (E3): its tables take cards
    whatever the hour the test runs at, as an event dated today would only after each round's
    time."""
    from events.models import RoundStartedEarly

    for round_ in league.rounds.all():
        RoundStartedEarly.objects.get_or_create(round=round_)
    return league

"""A club league's settings file (the Public contract's `create_event` for format "club", E4):
read it, save it as a league with its nights, and write it back out for next year.

`campus_only` is the one key whose default here differs from the league's: a club file without
it makes a club open to visitors (false), since a club night is where members bring a friend
(seed 003 is a club's rules, not a campus league's). A league made any other way stays
campus-only unless the director says otherwise; an exported file always names the key.

An event's file (format "event", E3, E5) is read by ``events.files``; what every format's file
shares is ``league.settings_files``."""

from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction

from league.file_schema import Day, ListOf, Obj, Whole, check_league_file
from league.models import ChallengeRule, EndOfGameRule, League, LeagueFormat, Lexicon, Round
from league.refresh import refresh_leagues
from league.settings_files import (
    LeagueFileError,
    choice,
    locked_league_of_file,
    require_file_director,
    save_settings,
    shared_export,
    shared_settings,
)

MAX_NIGHTS = 100  # twice a week for a year: far beyond a club's season
CLUB_NIGHTS = ListOf(
    Obj(
        {"number": Whole(1, 999), "date": Day("the night's date")},
        frozenset({"number", "date"}),
    ),
    "nights",
    MAX_NIGHTS,
    min_items=1,
)
CLUB_KEYS = {"rounds": CLUB_NIGHTS}
CLUB_REQUIRED = frozenset({"rounds"})


@dataclass
class ClubFile:
    name: str
    slug: str
    venue: str | None
    public: bool
    public_names: str  # P1: "" = the institution's
    search_engines: bool  # P3
    campus_only: bool
    rating_weight: float  # R3
    lexicon: str
    end_of_game_rule: str
    challenge_rule: str
    challenge_points: int
    nights: list[tuple[int, date]]  # (number, date), by number


def read_club_file(data) -> ClubFile:
    """The file's settings, checked (``file_schema.check_league_file`` first); omitted keys
    take the league defaults, and a club's challenge rule defaults to
    `club_bonus_to_challenger` (003 rule 9, G5)."""
    check_league_file(data)
    if data["format"] != LeagueFormat.CLUB:
        raise LeagueFileError(f'format: "{data["format"]}" is read as an event, not a club.')
    nights = [(item["number"], date.fromisoformat(item["date"])) for item in data["rounds"]]
    if len({number for number, _ in nights}) != len(nights):
        raise LeagueFileError("Two rounds have the same number.")
    return ClubFile(
        name=data["name"].strip(),
        slug=data["slug"].strip(),
        venue=(data.get("venue") or "").strip() or None,
        public=choice(data, "public", True),
        public_names=data.get("public_names") or "",
        search_engines=choice(data, "search_engines", False),
        campus_only=choice(data, "campus_only", False),  # open to visitors unless it says
        rating_weight=float(choice(data, "rating_weight", 1.0)),
        lexicon=choice(data, "lexicon", Lexicon.NWL2023),
        end_of_game_rule=choice(data, "end_of_game_rule", EndOfGameRule.STANDARD),
        challenge_rule=choice(data, "challenge_rule", ChallengeRule.CLUB_BONUS_TO_CHALLENGER),
        challenge_points=choice(data, "challenge_points", 10),
        nights=sorted(nights),
    )


def club_league_save(
    *, actor, season, club: ClubFile, update: bool = False, as_system: bool = False
) -> tuple[League, bool]:
    """Create the club league in `season` from its file, or with `update` bring an existing one
    in line with it (settings, and the dates of nights not yet seated; nights added, unseated
    nights left out of the file removed). Returns the league and whether anything changed:
    the same file again changes nothing."""
    require_file_director(actor, season, "a club", as_system=as_system)
    for number, day in club.nights:
        if not season.starts_on <= day <= season.ends_on:
            raise LeagueFileError(f"Night {number} ({day}) falls outside {season.name}.")
    with transaction.atomic():
        league = locked_league_of_file(
            club.slug, season, LeagueFormat.CLUB, "a club", update=update
        )
        settings = shared_settings(club, season)
        changed = league is None
        if league is None:
            league = League.objects.create(
                season=season, slug=club.slug, format=LeagueFormat.CLUB, **settings
            )
        else:
            changed = save_settings(league, settings)
        changed |= _save_nights(league, dict(club.nights))
        if changed:
            refresh_leagues([league.pk])
    return league, changed


def _save_nights(league: League, wanted: dict[int, date]) -> bool:
    changed = False
    for night in Round.objects.filter(league=league).order_by("number"):
        seated = night.matches.exists()
        if night.number not in wanted:
            if seated or night.check_ins.exists():
                raise LeagueFileError(f"Night {night.number} has begun: it stays in the file.")
            night.delete()
            changed = True
        elif night.play_by != wanted[night.number]:
            if seated:
                raise LeagueFileError(f"Night {night.number} is seated: its date stays.")
            night.play_by = wanted[night.number]
            night.save(update_fields=["play_by"])
            changed = True
        wanted.pop(night.number, None)
    Round.objects.bulk_create(
        [Round(league=league, number=number, play_by=day) for number, day in wanted.items()]
    )
    return changed or bool(wanted)


def export_club_file(league: League, *, slug: str | None = None, first_night=None) -> dict:
    """The league's file, renamed to `slug` and, for a club, its nights shifted together so
    that the first falls on `first_night`."""
    if league.format != LeagueFormat.CLUB:
        raise LeagueFileError(f"{league.slug} is not a club or an event.")
    nights = list(league.rounds.order_by("number").values_list("number", "play_by"))
    shift = timedelta(0)
    if first_night is not None and nights:
        shift = first_night - nights[0][1]
    return {
        **shared_export(league),
        "slug": slug or league.slug,
        "format": LeagueFormat.CLUB.value,
        "rounds": [{"number": number, "date": (day + shift).isoformat()} for number, day in nights],
    }


def save_file(*, actor, season, data: dict, update: bool = False, as_system: bool = False):
    """The club's saver for ``league.settings_files``: read, then save."""
    return club_league_save(
        actor=actor, season=season, club=read_club_file(data), update=update, as_system=as_system
    )


def export_file(league: League, *, slug: str | None = None, day=None) -> dict:
    """The club's exporter for ``league.settings_files``: its nights start on `day`."""
    return export_club_file(league, slug=slug, first_night=day)

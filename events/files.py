"""An event's settings file (`create_event` for format "event", E3, E5): read it, save it as
a league with its categories and timed rounds, write it back out for next year. Omitted keys
take the league defaults, except: no categories gives one, "Open"; no rounds gives three of 45
minutes at 18:00, 19:00 and 20:00 (E3); no `campus_only` opens the event to guests (a Fest is
for the whole community). An export names every key, so it reads back to the same league.
Assists (E5): a first and a later price in whole cents (a repriced item keeps its sales)."""

from dataclasses import dataclass
from datetime import date, time, timedelta

from django.db import transaction

from events.models import AssistItem, Event, EventCategory, RoundPeriod, ShortTeam, event_of_league
from league.file_schema import check_league_file
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

DEFAULT_ROUNDS = [(1, [(time(18, 0), 45)]), (2, [(time(19, 0), 45)]), (3, [(time(20, 0), 45)])]
DEFAULT_CATEGORY = "Open"


@dataclass(frozen=True)
class CategorySpec:
    name: str
    pairing_group: str
    turn_seconds: int | None


@dataclass(frozen=True)
class AssistSpec:
    name: str
    first_cents: int
    later_cents: int


@dataclass
class EventFile:
    name: str
    slug: str
    day: date
    venue: str | None
    public: bool
    public_names: str  # P1: "" = the institution's
    search_engines: bool  # P3
    campus_only: bool
    rating_weight: float  # R3
    seats_per_table: int
    lexicon: str
    end_of_game_rule: str
    challenge_rule: str
    challenge_points: int
    team_size: int | None
    short_team: str
    champion_category: str | None
    self_entry: bool  # S1
    first_round: str  # R4: "random" or "rating"
    rounds: list[tuple[int, list[tuple[time, int]]]]  # (number, [(starts, minutes)]), by number
    categories: list[CategorySpec]
    assists: list[AssistSpec]


def _rounds(items) -> list[tuple[int, list[tuple[time, int]]]]:
    if items is None:
        return [(number, list(periods)) for number, periods in DEFAULT_ROUNDS]
    rounds = []
    for index, item in enumerate(items, start=1):
        periods = [
            (time.fromisoformat(period["starts"]), period["minutes"]) for period in item["periods"]
        ]
        if any(b[0] <= a[0] for a, b in zip(periods, periods[1:], strict=False)):
            raise LeagueFileError(f"rounds[{index}]: periods start in order.")
        rounds.append((item["number"], periods))
    if len({number for number, _ in rounds}) != len(rounds):
        raise LeagueFileError("Two rounds have the same number.")
    return sorted(rounds)


def _categories(items) -> list[CategorySpec]:
    if not items:
        return [CategorySpec(DEFAULT_CATEGORY, DEFAULT_CATEGORY, None)]
    categories = []
    for item in items:
        name = item["name"]
        group = item.get("pairing_group") or name
        categories.append(
            CategorySpec(" ".join(name.split()), " ".join(group.split()), item.get("turn_seconds"))
        )
    names = [category.name.casefold() for category in categories]
    if len(set(names)) != len(names):
        raise LeagueFileError("Two categories have the same name.")
    # One pairing group, one clock: a timed and an untimed category cannot share tables.
    timing: dict[str, int | None] = {}
    for category in categories:
        if timing.setdefault(category.pairing_group, category.turn_seconds) != (
            category.turn_seconds
        ):
            raise LeagueFileError(
                f"Pairing group {category.pairing_group!r} mixes turn timings: its categories "
                "play at the same tables, so give them the same turn_seconds."
            )
    return categories


def _assists(items) -> list[AssistSpec]:
    """E5's items sold for the charity: whole cents, the later price at least the first (004:
    prices "increase after the first round")."""
    if not items:
        return []
    assists = []
    for index, item in enumerate(items, start=1):
        first = item["first_cents"]
        later = first if item.get("later_cents") is None else item["later_cents"]
        if later < first:
            raise LeagueFileError(
                f"assists[{index}].later_cents: at least first_cents ({first}), since the price "
                f"goes up from the second period or round on ({later} given)."
            )
        assists.append(AssistSpec(" ".join(item["name"].split()), first, later))
    names = [assist.name.casefold() for assist in assists]
    if len(set(names)) != len(names):
        raise LeagueFileError("Two assists have the same name.")
    return assists


def read_event_file(data) -> EventFile:
    """The file's settings, checked (``file_schema.check_league_file`` first); see the
    module's docstring for the defaults."""
    check_league_file(data)
    if data["format"] != LeagueFormat.EVENT:
        raise LeagueFileError(f'format: "{data["format"]}" is read as a club, not an event.')
    team_size = data.get("team_size")
    categories = _categories(data.get("categories"))
    champion = data.get("champion_category")
    if champion is not None:
        match = [c.name for c in categories if c.name.casefold() == champion.strip().casefold()]
        if not match:
            raise LeagueFileError(f"champion_category: {champion!r} is not one of the categories.")
        champion = match[0]
    return EventFile(
        name=data["name"].strip(),
        slug=data["slug"],
        day=date.fromisoformat(data["date"]),
        venue=(data.get("venue") or "").strip() or None,
        public=choice(data, "public", True),
        public_names=data.get("public_names") or "",
        search_engines=choice(data, "search_engines", False),
        campus_only=choice(data, "campus_only", False),
        rating_weight=float(choice(data, "rating_weight", 1.0)),
        seats_per_table=choice(data, "seats_per_table", 2),
        lexicon=choice(data, "lexicon", Lexicon.NWL2023),
        end_of_game_rule=choice(data, "end_of_game_rule", EndOfGameRule.STANDARD),
        challenge_rule=choice(data, "challenge_rule", ChallengeRule.LOSE_TURN),
        challenge_points=choice(data, "challenge_points", 10),
        team_size=team_size,
        short_team=choice(data, "short_team", ShortTeam.SUM),
        champion_category=champion,
        self_entry=choice(data, "self_entry", False),
        first_round=choice(data, "first_round", "random"),
        rounds=_rounds(data.get("rounds")),
        categories=categories,
        assists=_assists(data.get("assists")),
    )


def save_file(*, actor, season, data: dict, update: bool = False, as_system: bool = False):
    """The event's saver for ``league.settings_files``: read, then save."""
    return event_league_save(
        actor=actor, season=season, event=read_event_file(data), update=update, as_system=as_system
    )


def event_league_save(
    *, actor, season, event: EventFile, update: bool = False, as_system: bool = False
) -> tuple[League, bool]:
    """Create the event in `season` from its file, or with `update` bring an existing one in
    line with it: settings, categories (added, changed; one left out of the file is removed
    unless someone entered it), and rounds not yet paired (their periods; added; removed).
    Returns the league and whether anything changed: the same file again changes nothing."""
    require_file_director(actor, season, "an event", as_system=as_system)
    if not season.starts_on <= event.day <= season.ends_on:
        raise LeagueFileError(f"The event's day ({event.day}) falls outside {season.name}.")
    with transaction.atomic():
        league = locked_league_of_file(
            event.slug, season, LeagueFormat.EVENT, "an event", update=update
        )
        settings = {
            **shared_settings(event, season),
            # An event has no cap of its own: the door decides (the field's largest).
            "capacity": League.MAX_CAPACITY,
        }
        own = {
            "date": event.day,
            "seats_per_table": event.seats_per_table,
            "team_size": event.team_size,
            "short_team": event.short_team,
            "self_entry": event.self_entry,
            "first_round": event.first_round,
        }
        changed = league is None
        if league is None:
            league = League.objects.create(
                season=season, slug=event.slug, format=LeagueFormat.EVENT, **settings
            )
            Event.objects.create(league=league, **own)
        else:
            if event_of_league(league).date != event.day and league.matches.exists():
                raise LeagueFileError("The event has paired rounds: its date stays.")
            changed = save_settings(league, settings)
            row, made = Event.objects.get_or_create(league=league, defaults=own)
            changed |= made or save_settings(row, own)
        changed |= _save_categories(league, event)
        changed |= _save_rounds(league, event)
        changed |= _save_assists(league, event)
        if changed:
            refresh_leagues([league.pk])
    return league, changed


def _save_categories(league: League, event: EventFile) -> bool:
    changed = False
    existing = {c.name.casefold(): c for c in EventCategory.objects.filter(league=league)}
    wanted = {spec.name.casefold() for spec in event.categories}
    for key, category in existing.items():
        if key not in wanted:
            if category.entrants.exists():
                raise LeagueFileError(
                    f"Category {category.name!r} has entrants: it stays in the file."
                )
            Event.objects.filter(league=league, champion_category=category).update(
                champion_category=None
            )
            category.delete()
            changed = True
    for position, spec in enumerate(event.categories):
        category = existing.get(spec.name.casefold())
        values = {
            "name": spec.name,
            "pairing_group": spec.pairing_group,
            "turn_seconds": spec.turn_seconds,
            "position": position,
        }
        if category is None:
            EventCategory.objects.create(league=league, **values)
            changed = True
        elif any(getattr(category, k) != v for k, v in values.items()):
            if league.matches.exists() and (
                category.pairing_group != spec.pairing_group
                or category.turn_seconds != spec.turn_seconds
            ):
                raise LeagueFileError(
                    f"Category {spec.name!r}: its pairing group and timing stay once a round "
                    "is paired."
                )
            for key, value in values.items():
                setattr(category, key, value)
            category.save()
            changed = True
    champion = None
    if event.champion_category:
        champion = EventCategory.objects.get(league=league, name=event.champion_category)
    row = Event.objects.get(league=league)
    if row.champion_category_id != (champion.pk if champion else None):
        row.champion_category = champion
        row.save(update_fields=["champion_category"])
        changed = True
    return changed


def round_days(day: date, rounds) -> dict[int, date]:
    """Each round's day: the event's, and one more each time a round starts earlier than the
    period before it (past midnight: round 3 at 00:15 after round 2 at 23:15)."""
    days, today, last = {}, day, None
    for number, periods in sorted(rounds):
        if last is not None and periods and periods[0][0] < last:
            today += timedelta(days=1)
        days[number], last = today, periods[-1][0] if periods else last
    return days


def _save_rounds(league: League, event: EventFile) -> bool:
    changed = False
    wanted = dict(event.rounds)
    days = round_days(event.day, event.rounds)
    for round_ in Round.objects.filter(league=league).order_by("number"):
        paired = round_.matches.exists()
        if round_.number not in wanted:
            if paired or round_.check_ins.exists():
                raise LeagueFileError(f"Round {round_.number} has begun: it stays in the file.")
            round_.delete()
            changed = True
            continue
        periods = list(round_.periods.order_by("number").values_list("starts", "minutes"))
        if round_.play_by != days[round_.number] or periods != wanted[round_.number]:
            if paired:
                raise LeagueFileError(f"Round {round_.number} is paired: its times stay.")
            round_.play_by = days[round_.number]
            round_.save(update_fields=["play_by"])
            round_.periods.all().delete()
            _create_periods(round_, wanted[round_.number])
            changed = True
        wanted.pop(round_.number)
    for number, periods in wanted.items():
        round_ = Round.objects.create(league=league, number=number, play_by=days[number])
        _create_periods(round_, periods)
        changed = True
    return changed


def _save_assists(league: League, event: EventFile) -> bool:
    """Items added, repriced (sales already made keep the price they were sold at) or, when
    none was sold, removed."""
    changed = False
    existing = {item.name.casefold(): item for item in AssistItem.objects.filter(league=league)}
    wanted = {assist.name.casefold() for assist in event.assists}
    for key, item in existing.items():
        if key not in wanted:
            if item.sales.exists():
                raise LeagueFileError(f"Assist {item.name!r} has been sold: it stays in the file.")
            item.delete()
            changed = True
    for position, assist in enumerate(event.assists):
        values = {
            "name": assist.name,
            "first_cents": assist.first_cents,
            "later_cents": assist.later_cents,
            "position": position,
        }
        item = existing.get(assist.name.casefold())
        if item is None:
            AssistItem.objects.create(league=league, **values)
            changed = True
        elif any(getattr(item, key) != value for key, value in values.items()):
            for key, value in values.items():
                setattr(item, key, value)
            item.save()
            changed = True
    return changed


def _create_periods(round_: Round, periods) -> None:
    RoundPeriod.objects.bulk_create(
        [
            RoundPeriod(round=round_, number=number, starts=starts, minutes=minutes)
            for number, (starts, minutes) in enumerate(periods, start=1)
        ]
    )


def export_file(league: League, *, slug: str | None = None, day: date | None = None) -> dict:
    """The event's file (its exporter for ``league.settings_files``), renamed to `slug` and
    re-dated to `day` (next year's Fest)."""
    event = event_of_league(league)
    categories = list(league.categories.order_by("position", "id"))
    champion = next((c.name for c in categories if c.pk == event.champion_category_id), None)
    rounds = [
        {
            "number": round_.number,
            "periods": [
                {"starts": period.starts.strftime("%H:%M"), "minutes": period.minutes}
                for period in round_.periods.all()
            ],
        }
        for round_ in league.rounds.order_by("number").prefetch_related("periods")
    ]
    return {
        **shared_export(league),
        "slug": slug or league.slug,
        "format": LeagueFormat.EVENT.value,
        "date": (day or event.date).isoformat(),
        "seats_per_table": event.seats_per_table,
        "team_size": event.team_size,
        "short_team": event.short_team,
        "champion_category": champion,
        "self_entry": event.self_entry,
        "first_round": event.first_round,
        "rounds": rounds,
        "categories": [
            {"name": c.name, "pairing_group": c.pairing_group, "turn_seconds": c.turn_seconds}
            for c in categories
        ],
        "assists": [
            {"name": item.name, "first_cents": item.first_cents, "later_cents": item.later_cents}
            for item in league.assist_items.all()
        ],
    }

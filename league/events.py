"""One-day events (E3): entrants, check-in at the door, pairing a round, swapping two players,
entrants leaving mid-event, closing a round, and the volunteers who score.

An event is a league of format ``event``; its rounds (``Round``) all fall on the event's day,
each with its periods. A table is a match with its number (``Match.table``); a bye is a match
of one seat. Check-in is for the evening: an entrant checked in for a round stays checked in
for the rounds after it (``CheckIn`` is kept on the round that was next when they arrived), so
a walk-in during round 1 is paired from round 2. An entrant who leaves keeps their scores and
is not paired again.

Pairing itself (``event_pairing.pair_round``) and the ranking (``leaderboard.leaderboard``) are
pure functions; these services read what they need, call them, and write the result in one
transaction with the event's row locked, so a check-in, a pairing and a swap of the same event
happen one after another. Commands act as the site with ``as_system=True``."""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Case, CharField, F, Max, Q, Value, When
from django.db.models.functions import Concat, Trim
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from accounts.campus_ids import normalize_campus_id
from accounts.models import GUEST_NAME_MAX, PlayerProfile, SignInLink, User
from accounts.services import sign_in_link_create, volunteer_account_create
from core.errors import DomainError, NotAllowed
from core.tasks import queue_email
from core.values import shown
from matches.models import FINAL_STATUSES, OPEN_STATUSES, AuditEvent, Match, MatchStatus, Seat
from matches.notifications import rendered_message
from matches.services import NewMatch, double_forfeit_tables, matches_create

from . import event_pairing
from .event_seating import seat_round
from .leaderboard import Entrant as BoardEntrant
from .leaderboard import Leaderboard, leaderboard
from .leaderboard import Table as BoardTable
from .models import CheckIn, Entry, EventCategory, EventScorer, League, LeagueFormat, Round, Team
from .refresh import refresh_leagues
from .services import _enter, number_entries


class EventError(DomainError):
    pass


# The columns' lengths: longer would fail the insert (PlayerProfile.email, Team.name).
EMAIL_MAX = PlayerProfile._meta.get_field("email").max_length
TEAM_NAME_MAX = Team._meta.get_field("name").max_length
PLAYER_NUMBER_MAX = 99999


# --- Locks and rights ---------------------------------------------------------------------------


def lock_event(league: League) -> League:
    league = (
        League.objects.select_for_update(of=("self",))
        .select_related("season__institution")
        .get(pk=league.pk)
    )
    if league.format != LeagueFormat.EVENT:
        raise EventError(f"{league} is not an event.")
    return league


def _require(actor, league: League, *, staff: bool = False, as_system: bool = False) -> None:
    """The director; with `staff`, the front desk too (check-in, walk-ins)."""
    if actor is None:
        if as_system:
            return
        raise NotAllowed("Sign in first.")
    institution = league.season.institution
    if staff:
        if not roles.is_front_desk_of(actor, institution):
            raise NotAllowed("Only the event's staff can do that.")
    elif not roles.is_director_of(actor, institution):
        raise NotAllowed("Only the event's director can do that.")


# --- Reading the event's state ------------------------------------------------------------------


def round_status(tables: Sequence[Match]) -> str:
    """ "unpaired", "paired" (some table without its result) or "complete" (event.json)."""
    if not tables:
        return "unpaired"
    return "complete" if all(table.status in FINAL_STATUSES for table in tables) else "paired"


def rounds_with_tables(league: League) -> list[tuple[Round, list[Match]]]:
    """Every round, in order, with its tables (byes last) and their seats: three queries."""
    rounds = list(league.rounds.order_by("number").prefetch_related("periods"))
    tables: dict[int, list[Match]] = {round_.pk: [] for round_ in rounds}
    for match in (
        Match.objects.filter(league=league)
        .order_by("round__number", "table", "id")
        .prefetch_related("seats__player__user")
    ):
        tables[match.round_id].append(match)
    return [(round_, tables[round_.pk]) for round_ in rounds]


def board_of(league: League, entries: Sequence[Entry], rounds, up_to: int | None = None):
    """The leaderboard (a pure function's answer) from the event's entries and tables; only
    rounds numbered below `up_to` when given (what a pairing may look at)."""
    categories = list(league.categories.order_by("position", "id"))
    names = {c.pk: c.name for c in categories}
    entrants = [
        BoardEntrant(
            id=entry.player_id,
            number=entry.player_number,
            name=entry.player.name,
            category=names.get(entry.category_id, ""),
            team=entry.team.name if entry.team_id else None,
            withdrawn=entry.withdrawn_at is not None,
        )
        for entry in entries
    ]
    tables = []
    for round_, matches in rounds:
        if up_to is not None and round_.number >= up_to:
            continue
        for match in matches:
            if match.status in (MatchStatus.CONFIRMED, MatchStatus.RESOLVED):
                seats = tuple((s.player_id, s.score) for s in match.seats.all())
            elif match.status in (MatchStatus.BYE, MatchStatus.DOUBLE_FORFEIT):
                seats = tuple((s.player_id, None) for s in match.seats.all())
            else:
                continue  # not played yet
            tables.append(
                BoardTable(
                    round=round_.number,
                    seats=seats,
                    bye=match.status == MatchStatus.BYE,
                    double_forfeit=match.status == MatchStatus.DOUBLE_FORFEIT,
                )
            )
    champion = next((c.name for c in categories if c.pk == league.champion_category_id), None)
    return leaderboard(
        entrants,
        tables,
        categories=[c.name for c in categories],
        champion_category=champion,
        team_size=league.team_size,
        short_team=league.short_team,
    )


def event_entries(league: League) -> list[Entry]:
    return list(
        Entry.objects.filter(league=league)
        .select_related("player__user", "category", "team")
        .order_by("player_number", "id")
    )


@dataclass
class EventState:
    league: League
    entries: list[Entry]
    rounds: list[tuple[Round, list[Match]]]
    board: Leaderboard


def event_state(league: League) -> EventState:
    """What the event's pages show: entries, rounds with tables, the leaderboard."""
    entries = event_entries(league)
    rounds = rounds_with_tables(league)
    return EventState(league, entries, rounds, board_of(league, entries, rounds))


def next_round(league: League) -> Round | None:
    """The first round not yet paired (None once all are)."""
    return league.rounds.filter(matches__isnull=True).order_by("number").first()


def checked_in_entries(league: League, round_: Round) -> list[Entry]:
    """Entrants checked in for this round or an earlier one, who have not left."""
    return list(
        Entry.objects.filter(
            league=league,
            withdrawn_at__isnull=True,
            check_ins__round__league=league,
            check_ins__round__number__lte=round_.number,
        )
        .distinct()
        .select_related("player__user", "category", "team")
        .order_by("player_number", "id")
    )


# --- Entrants -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntrantDetails:
    """One entrant as staff type them or a CSV row gives them (import_entrants)."""

    name: str = ""
    category: str = ""
    team: str = ""
    player_number: int | None = None
    email: str = ""
    campus_id: str = ""


def _category(league: League, name: str) -> EventCategory:
    categories = list(league.categories.order_by("position", "id"))
    if not categories:
        raise EventError(f"{league} has no categories.")
    if not name.strip():
        return categories[0]
    found = next((c for c in categories if c.name.casefold() == name.strip().casefold()), None)
    if found is None:
        raise EventError(
            f"No category {shown(name.strip())}: the categories are "
            f"{', '.join(c.name for c in categories)}."
        )
    return found


def _team(league: League, name: str, entry: Entry | None) -> Team | None:
    name = " ".join(name.split())
    if not name:
        return None
    team = Team.objects.filter(league=league, name__iexact=name).first()
    if team is None:
        return Team.objects.create(league=league, name=name)
    members = team.entries.filter(withdrawn_at__isnull=True)
    if entry is not None:
        members = members.exclude(pk=entry.pk)
    if league.team_size and members.count() >= league.team_size:
        raise EventError(
            f"{team.name} already has {league.team_size} members, the event's team size."
        )
    return team


def _existing_entry(league: League, details: EntrantDetails) -> Entry | None:
    """A person already entered: the same player number, else e-mail, else campus ID; a row
    with none of the three is the league's only entrant with that name (ignoring case), so the
    same file imported twice changes nothing. Namesakes need a number or an e-mail."""
    entries = Entry.objects.filter(league=league).select_related("player__user")
    if details.player_number is not None:
        found = entries.filter(player_number=details.player_number).first()
        if found is not None:
            return found
    if details.email:
        found = entries.filter(
            Q(player__email__iexact=details.email) | Q(player__user__email__iexact=details.email)
        ).first()
        if found is not None:
            return found
    if details.campus_id:
        return entries.filter(player__campus_id=details.campus_id).first()
    if details.player_number is not None or details.email or not details.name:
        return None
    namesakes = list(entries_named(league, details.name)[:2])
    if len(namesakes) > 1:
        raise EventError(
            f"{entries_named(league, details.name).count()} entrants are named {details.name}: "
            "give the player number or the e-mail of the one you mean."
        )
    return namesakes[0] if namesakes else None


def entries_named(league: League, name: str):
    """The league's entries whose player has this name, ignoring case: a guest's display name,
    a student's full name (as ``PlayerProfile.name`` shows it)."""
    full_name = Case(
        When(player__user__isnull=True, then=F("player__display_name")),
        default=Trim(Concat("player__user__first_name", Value(" "), "player__user__last_name")),
        output_field=CharField(),
    )
    return (
        Entry.objects.filter(league=league)
        .select_related("player__user")
        .annotate(full_name=full_name)
        .filter(full_name__iexact=name)
        .order_by("pk")
    )


def _person(league: League, details: EntrantDetails) -> PlayerProfile:
    """The student the details name (campus ID, else a student's e-mail), or a guest."""
    institution = league.season.institution
    if details.campus_id:
        student = (
            PlayerProfile.objects.filter(
                institution=institution, campus_id=details.campus_id, user__isnull=False
            )
            .select_related("user")
            .first()
        )
        if student is None:
            raise EventError(f"No student has the campus ID {details.campus_id}.")
        return student
    if details.email:
        student = (
            PlayerProfile.objects.filter(institution=institution, user__email__iexact=details.email)
            .select_related("user")
            .first()
        )
        if student is not None:
            return student
    if league.campus_only:
        raise EventError(
            f"{league} is for students only: give {details.name or 'the entrant'}'s campus ID."
        )
    if not details.name:
        raise EventError("Give the entrant's name.")
    guest = None
    if details.email:
        guest = PlayerProfile.objects.filter(
            institution=institution, user__isnull=True, email__iexact=details.email
        ).first()
    if guest is None:
        guest = PlayerProfile.objects.create(
            institution=institution, display_name=details.name, email=details.email
        )
    return guest


def clean_details(details: EntrantDetails) -> EntrantDetails:
    """Whitespace tidied, e-mail lower-cased and checked, the campus ID in its stored form."""
    name = " ".join((details.name or "").split())
    email = (details.email or "").strip().lower()
    if len(name) > GUEST_NAME_MAX:
        raise EventError(
            f"A name is at most {GUEST_NAME_MAX} characters ({len(name)} given): shorten it."
        )
    if len(email) > EMAIL_MAX:
        raise EventError(
            f"An e-mail address is at most {EMAIL_MAX} characters ({len(email)} given)."
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise EventError(f"{email!r} is not an e-mail address.") from None
    team = " ".join((details.team or "").split())
    if len(team) > TEAM_NAME_MAX:
        raise EventError(
            f"A team's name is at most {TEAM_NAME_MAX} characters ({len(team)} given)."
        )
    number = details.player_number
    if number is not None and not 1 <= number <= PLAYER_NUMBER_MAX:
        raise EventError(f"Player number {number}: a whole number from 1 to {PLAYER_NUMBER_MAX}.")
    campus_id = normalize_campus_id(details.campus_id) if details.campus_id else ""
    return EntrantDetails(
        name=name,
        category=(details.category or "").strip(),
        team=team,
        player_number=number,
        email=email,
        campus_id=campus_id,
    )


class Saved:
    """What ``entrant_save`` did with the details it was given."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


def entrant_save(
    *,
    actor,
    league: League,
    details: EntrantDetails,
    check_in: bool = False,
    now=None,
    as_system: bool = False,
    refresh: bool = True,
) -> tuple[Entry, str]:
    """Add an entrant (a student by campus ID or e-mail, else a guest where the event is open to
    guests), or update the one already entered (same player number, else e-mail, else campus
    ID, else the only entrant with that name): category, team, number and a guest's name. The
    front desk or the director; with `check_in`, they are checked in at once (a walk-in).
    Returns the entry and what was done (``Saved``): the same details twice change nothing."""
    details = clean_details(details)
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league, staff=True, as_system=as_system)
        entry = _existing_entry(league, details)
        created = entry is None
        changed = False
        category = _category(league, details.category)
        if entry is None:
            player = _person(league, details)
            entry = Entry.objects.filter(league=league, player=player).first()
            if entry is None or entry.withdrawn_at is not None:
                changed = entry is not None
                created = entry is None
                entry = _enter(league, player, by_director=True, refresh=refresh)
            else:
                created = False
        elif entry.withdrawn_at is not None:
            entry = _enter(league, entry.player, by_director=True, refresh=refresh)
            changed = True
        wanted_team = " ".join(details.team.split())
        if entry.team_id and wanted_team and wanted_team.casefold() != entry.team.name.casefold():
            raise EventError(
                f"{entry.player.name} is in team {entry.team.name}: a player belongs to one team."
            )
        team = _team(league, details.team, entry) if details.team else entry.team
        if details.player_number is not None and entry.player_number != details.player_number:
            taken = (
                Entry.objects.filter(league=league, player_number=details.player_number)
                .exclude(pk=entry.pk)
                .select_related("player__user")
                .first()
            )
            if taken is not None:
                raise EventError(f"Player number {details.player_number} is {taken.player.name}'s.")
            if entry.player_number is not None and _has_played(entry):
                raise EventError(
                    f"{entry.player.name} has played as number {entry.player_number}: "
                    "it stays theirs for the evening."
                )
            entry.player_number = details.player_number
            changed = True
        if entry.category_id != category.pk or entry.team_id != (team.pk if team else None):
            changed = True
        entry.category = category
        entry.team = team
        entry.save(update_fields=["player_number", "category", "team"])
        player = entry.player
        if player.is_guest and details.name and player.display_name != details.name:
            player.display_name = details.name
            player.save(update_fields=["display_name"])
            changed = True
        if entry.player_number is None:
            number_entries(league)
            entry.refresh_from_db(fields=["player_number"])
        if check_in:
            _check_in(league, entry, actor, now)
        if refresh:  # the leaderboard lists every entrant; an import refreshes once at its end
            refresh_leagues([league.pk])
    if created:
        return entry, Saved.CREATED
    return entry, Saved.UPDATED if changed else Saved.UNCHANGED


def event_join(*, actor, league: League, category: str = "") -> Entry:
    """A student enters the event online, like a league (L10 holds), in the category they
    choose (the first when none). Joining again changes their category before they play."""
    player = PlayerProfile.objects.filter(user=actor).select_related("institution", "user").first()
    if player is None or player.institution_id != league.season.institution_id:
        raise NotAllowed("Only students of the event's institution can enter it online.")
    with transaction.atomic():
        league = lock_event(league)
        chosen = _category(league, category)
        entry = Entry.objects.filter(league=league, player=player).first()
        if entry is None or entry.withdrawn_at is not None:
            entry = _enter(league, player)
        elif _has_played(entry):
            raise EventError(f"You are already in {league} and have played: ask the desk.")
        entry.category = chosen
        entry.save(update_fields=["category"])
        refresh_leagues([league.pk])
        return entry


def _has_played(entry: Entry) -> bool:
    return Seat.objects.filter(match__league=entry.league_id, player=entry.player_id).exists()


def _check_in(league: League, entry: Entry, actor, now) -> CheckIn | None:
    """Check in for the evening, on the next round to pair (or the last round once all are
    paired: they are then paired for nothing more, but the list shows them here)."""
    if CheckIn.objects.filter(round__league=league, entry=entry).exists():
        return None
    round_ = next_round(league) or league.rounds.order_by("-number").first()
    if round_ is None:
        raise EventError(f"{league} has no rounds.")
    return CheckIn.objects.create(
        round=round_,
        entry=entry,
        checked_in_at=now,
        checked_in_by=actor if actor is not None and actor.is_authenticated else None,
    )


def event_check_in(
    *, actor, league: League, entry: Entry, now=None, as_system: bool = False
) -> bool:
    """The entrant is here (front desk). Returns False when they already were."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league, staff=True, as_system=as_system)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is not None:
            raise EventError(f"{entry.player.name} has left the event.")
        return _check_in(league, entry, actor, now) is not None


def event_check_out(*, actor, league: League, entry: Entry) -> None:
    """Undo a check-in made by mistake; refused once they have been paired (they leave
    instead: ``entrant_leave``)."""
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league, staff=True)
        if _has_played(entry):
            raise EventError(
                f"{entry.player.name} is already paired: mark them as leaving instead."
            )
        CheckIn.objects.filter(round__league=league, entry=entry).delete()


def entrant_leave(*, actor, league: League, entry: Entry, reason: str = "", now=None) -> None:
    """An entrant leaves mid-event (E3): they keep their scores and are not paired again. Their
    table in a round under way keeps its place: its card is entered as played, or the round's
    closing makes it a double forfeit."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league, staff=True)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is not None:
            raise EventError(f"{entry.player.name} has already left.")
        entry.withdrawn_at = now
        entry.withdrawn_reason = (reason or "").strip() or "Left the event"
        entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        refresh_leagues([league.pk])


def entrant_return(*, actor, league: League, entry: Entry) -> None:
    """An entrant marked as leaving comes back (or was marked by mistake): paired again from
    the next round to pair."""
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league, staff=True)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is None:
            raise EventError(f"{entry.player.name} has not left.")
        entry.withdrawn_at = None
        entry.withdrawn_reason = ""
        entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        refresh_leagues([league.pk])


# --- Pairing ------------------------------------------------------------------------------------


def _groups(league: League) -> list[event_pairing.Group]:
    groups: dict[str, bool] = {}
    for category in league.categories.order_by("position", "id"):
        groups[category.pairing_group] = groups.get(category.pairing_group, False) or bool(
            category.turn_seconds
        )
    return [event_pairing.Group(name, timed) for name, timed in groups.items()]


def _pair_or_seat(league: League, entrants, *, by_score: bool, seed: int):
    """Pairs (E3: by score, an odd group's bye or table of three), or tables of three or four
    (E5: teammates at different tables, repeat meetings kept down) where the event seats more."""
    groups = _groups(league)
    if league.seats_per_table == 2:
        return event_pairing.pair_round(entrants, groups, by_score=by_score, seed=seed)
    tables, repeats = [], 0
    for group in groups:
        members = [entrant for entrant in entrants if entrant.group == group.name]
        seating = seat_round(members, seats=league.seats_per_table, seed=seed, group=group.name)
        tables += seating.tables
        repeats += seating.repeats
    return event_pairing.Pairing(tables=tables, byes=[], repeats=repeats)


@dataclass(frozen=True)
class RoundClock:
    """Where a round stands at a moment (E5's periods): "before" it, in "period" N with
    `minutes_left`, in the "break" before period N, or "over"."""

    state: str
    period: int = 0
    minutes_left: int = 0

    def __str__(self) -> str:
        if self.state == "period":
            return f"Period {self.period}: {self.minutes_left} min left"
        if self.state == "break":
            return f"Break: period {self.period} starts in {self.minutes_left} min"
        if self.state == "before":
            return f"Starts in {self.minutes_left} min"
        return "Time is up: play on until every player has had the same number of turns"


def round_clock(day, periods, tz, now: datetime) -> RoundClock:
    """The round's clock from its day, its periods [(starts, minutes)] and the time zone."""
    spans = []
    for starts, minutes in periods:
        begin = datetime.combine(day, starts, tzinfo=tz)
        spans.append((begin, begin + timedelta(minutes=minutes)))
    if not spans:
        return RoundClock("over")

    def minutes_until(moment) -> int:
        return max(0, -(-int((moment - now).total_seconds()) // 60))  # rounded up

    for number, (begin, end) in enumerate(spans, start=1):
        if now < begin:
            return RoundClock("before" if number == 1 else "break", number, minutes_until(begin))
        if now < end:
            return RoundClock("period", number, minutes_until(end))
    return RoundClock("over")


def round_starts(league: League, round_: Round) -> datetime | None:
    """When the round's first period starts, in the institution's time zone."""
    first = round_.periods.order_by("number").first()
    if first is None or league.event_date is None:
        return None
    return datetime.combine(league.event_date, first.starts, tzinfo=league.season.institution.tz)


def pair_event_round(
    *,
    actor,
    round: Round,
    seed: int | None = None,
    repair: bool = False,
    all_entrants: bool = False,
    now=None,
    as_system: bool = False,
) -> tuple[list[Match], list[Match]]:
    """The director pairs round `round` among those checked in (every active entrant with
    `all_entrants`, checking them in): round 1 at random, later rounds by cumulative score,
    within each pairing group, teammates apart, no repeat while avoidable, an odd group's bye
    or table of three (E3). The seed is recorded on the round. Returns (tables, byes).

    Refused while an earlier round has a table without its result, and for a round with any
    score entered; a paired round only with `repair` (its tables are drawn again)."""
    now = now or timezone.now()
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    with transaction.atomic():
        league = lock_event(round.league)
        _require(actor, league, as_system=as_system)
        round_ = Round.objects.select_for_update().get(pk=round.pk, league=league)
        earlier = Match.objects.filter(league=league, round__number__lt=round_.number)
        unfinished = earlier.exclude(status__in=FINAL_STATUSES).select_related("round")
        first_open = unfinished.order_by("round__number", "table").first()
        if first_open is not None:
            count = unfinished.count()
            raise EventError(
                f"Round {first_open.round.number} is not complete: {count} "
                f"table{'s' if count != 1 else ''} still without a result "
                f"(table {first_open.table} first). Enter the cards or close the round."
            )
        if Round.objects.filter(
            league=league, number__lt=round_.number, matches__isnull=True
        ).exists():
            raise EventError(
                f"Pair the rounds in order: an earlier round than {round_.number} is not paired."
            )
        tables = Match.objects.filter(round=round_)
        # Lock the round's tables before looking at them: a card entered meanwhile (which
        # locks its table first) is then either seen here, or waits and finds its table gone.
        list(tables.select_for_update().values_list("id", flat=True))
        if tables.exclude(status__in=OPEN_STATUSES + [MatchStatus.BYE]).exists():
            raise EventError(
                f"Round {round_.number} has scores entered: it cannot be paired again."
            )
        if tables.exists():
            if not repair:
                raise EventError(
                    f"Round {round_.number} is already paired: pair it again with repair."
                )
            tables.delete()
        if all_entrants:
            for entry in Entry.objects.filter(league=league, withdrawn_at__isnull=True):
                _check_in(league, entry, actor, now)
        present = checked_in_entries(league, round_)
        if len(present) < 2:
            raise EventError(f"Only {len(present)} entrant(s) checked in: nobody to pair.")
        missing = [e.player.name for e in present if e.category_id is None]
        if missing:
            raise EventError(f"Give {missing[0]} a category before pairing.")
        rounds = rounds_with_tables(league)
        board = board_of(league, event_entries(league), rounds, up_to=round_.number)
        by_id = {row.entrant.id: row for row in board.rows}
        met: dict[int, set[int]] = {}
        had_bye: set[int] = set()
        for earlier_round, matches in rounds:
            if earlier_round.number >= round_.number:
                continue
            for match in matches:
                players = [seat.player_id for seat in match.seats.all()]
                if match.status == MatchStatus.BYE:
                    had_bye.update(players)
                for player in players:
                    met.setdefault(player, set()).update(p for p in players if p != player)
        group_of = {c.pk: c.pairing_group for c in league.categories.all()}
        entrants = [
            event_pairing.Entrant(
                id=entry.player_id,
                group=group_of[entry.category_id],
                team=entry.team.name if entry.team_id else None,
                total=by_id[entry.player_id].total if entry.player_id in by_id else 0,
                wins=by_id[entry.player_id].wins if entry.player_id in by_id else 0,
                spread=by_id[entry.player_id].spread if entry.player_id in by_id else 0,
                opponents=frozenset(met.get(entry.player_id, ())),
                had_bye=entry.player_id in had_bye,
            )
            for entry in present
        ]
        try:
            pairing = _pair_or_seat(league, entrants, by_score=round_.number > 1, seed=seed)
        except event_pairing.PairingError as error:
            raise EventError(str(error)) from None
        starts = round_starts(league, round_) or now
        reason = f"Round {round_.number} paired (seed {seed})" + (", re-paired" if repair else "")
        created = matches_create(
            actor=actor,
            new=[
                NewMatch(
                    round=round_,
                    players=players,
                    status=MatchStatus.SCHEDULED,
                    scheduled_at=starts,
                    table=number,
                )
                for number, players in enumerate(pairing.tables, start=1)
            ]
            + [NewMatch(round=round_, players=[player]) for player in pairing.byes],
            reason=reason,
            now=now,
        )
        round_.seed = seed
        round_.seating_changed_after_print |= round_.cards_printed_at is not None
        round_.save(update_fields=["seed", "seating_changed_after_print"])
        refresh_leagues([league.pk])  # event.json lists the round's tables
        return created[: len(pairing.tables)], created[len(pairing.tables) :]


class SwapNeedsConfirming(EventError):
    """The swap breaks a constraint: the director may go ahead knowingly."""


def _swap_warnings(league: League, round_: Round, tables: dict[int, list[Seat]]) -> list[str]:
    entries = {
        e.player_id: e
        for e in Entry.objects.filter(league=league).select_related("team", "category")
    }
    met: dict[int, set[int]] = {}
    for match_players in (
        Seat.objects.filter(match__league=league, match__round__number__lt=round_.number)
        .values_list("match_id", "player_id")
        .order_by("match_id")
    ):
        met.setdefault(match_players[0], set()).add(match_players[1])
    earlier_pairs = {
        frozenset((a, b)) for players in met.values() for a in players for b in players if a != b
    }
    warnings = []
    for seats in tables.values():
        players = [seat.player_id for seat in seats]
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                ea, eb = entries[a], entries[b]
                if ea.team_id and ea.team_id == eb.team_id:
                    warnings.append(
                        f"{ea.player.name} and {eb.player.name} are teammates ({ea.team.name})."
                    )
                if frozenset((a, b)) in earlier_pairs:
                    warnings.append(f"{ea.player.name} and {eb.player.name} have played already.")
                group_a = ea.category.pairing_group if ea.category_id else ""
                group_b = eb.category.pairing_group if eb.category_id else ""
                if group_a != group_b:
                    warnings.append(
                        f"{ea.player.name} ({group_a}) and {eb.player.name} ({group_b}) are in "
                        "different pairing groups."
                    )
    return warnings


def swap_players(
    *, actor, round: Round, first: PlayerProfile, second: PlayerProfile, confirmed: bool = False
) -> list[str]:
    """The director swaps two players' seats before the round starts (no score entered in it):
    checked against E3's constraints; a swap that breaks one raises SwapNeedsConfirming with
    the reasons unless `confirmed`. Audited on both tables. Returns the warnings accepted."""
    with transaction.atomic():
        league = lock_event(round.league)
        _require(actor, league)
        round_ = Round.objects.select_for_update().get(pk=round.pk, league=league)
        matches = Match.objects.filter(round=round_)
        list(matches.select_for_update().values_list("id", flat=True))  # as pairing does
        if matches.exclude(status__in=OPEN_STATUSES + [MatchStatus.BYE]).exists():
            raise EventError(f"Round {round_.number} has scores entered: swaps are closed.")
        seats = {
            seat.player_id: seat
            for seat in Seat.objects.filter(match__round=round_).select_related("match", "player")
        }
        if first.pk == second.pk:
            raise EventError("Choose two different players.")
        for person in (first, second):
            if person.pk not in seats:
                raise EventError(f"{person.name} has no seat in round {round_.number}.")
        a, b = seats[first.pk], seats[second.pk]
        if a.match_id == b.match_id:
            raise EventError(f"{first.name} and {second.name} already share a table.")
        if MatchStatus.BYE in (a.match.status, b.match.status):
            raise EventError(
                "A bye is not swapped: pair the round again with repair to move a bye."
            )
        after: dict[int, list[Seat]] = {}
        for seat in seats.values():
            after.setdefault(seat.match_id, []).append(seat)
        a.player_id, b.player_id = b.player_id, a.player_id
        warnings = _swap_warnings(
            league, round_, {a.match_id: after[a.match_id], b.match_id: after[b.match_id]}
        )
        if warnings and not confirmed:
            raise SwapNeedsConfirming(" ".join(warnings))
        # Different tables: neither player is already at the other's, so no uniqueness clash.
        Seat.objects.filter(pk=a.pk).update(player_id=a.player_id)
        Seat.objects.filter(pk=b.pk).update(player_id=b.player_id)
        if round_.cards_printed_at is not None and not round_.seating_changed_after_print:
            round_.seating_changed_after_print = True
            round_.save(update_fields=["seating_changed_after_print"])
        who = actor if actor is not None and actor.is_authenticated else None
        note = "; ".join(warnings)
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    match_id=seat.match_id,
                    actor=who,
                    action="swapped",
                    before={"player": other.player_id},
                    after={"player": seat.player_id, "seat": seat.order},
                    reason=f"{first.name} and {second.name} swapped"
                    + (f" ({note})" if note else ""),
                )
                for seat, other in ((a, b), (b, a))
            ]
        )
        refresh_leagues([league.pk])
        return warnings


def cards_printed(*, actor, round: Round, now=None) -> None:
    """The round's score cards (or score sheets) were printed: from now on a re-pairing or a swap
    makes the scoring table ask for the players' numbers on every card of the round."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(round.league)
        _require(actor, league, staff=True)
        Round.objects.filter(pk=round.pk, league=league).update(cards_printed_at=now)


def close_round(*, actor, round: Round, reason: str = "", now=None) -> int:
    """The director closes the round: each table still without a card becomes a double forfeit
    (a loss for every seat, adding nothing to their totals). Returns how many."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(round.league)
        _require(actor, league)
        ids = list(Match.objects.filter(round=round).values_list("id", flat=True))
        return len(
            double_forfeit_tables(
                ids, actor=actor, reason=reason or f"Round {round.number} closed", now=now
            )
        )


# --- Volunteers ---------------------------------------------------------------------------------


def scorer_access_ends(league: League) -> datetime:
    """When a volunteer's rights and links end: at the end of the day after the event."""
    day = (league.event_date or league.season.institution.today()) + timedelta(days=2)
    return datetime.combine(day, time(0, 0), tzinfo=league.season.institution.tz)


def scorer_invite(*, actor, league: League, name: str, email: str, now=None) -> EventScorer:
    """The director invites a volunteer to enter this event's score cards, by name and address.
    Volunteers belong to the director's institution: an address without an account gets a new
    account there; one whose account is this institution's is attached; one whose account is
    another institution's (or a site admin's) is never attached, and its owner is told so. The
    director sees "invited" in every case, so the page tells nobody whether, or where, an
    address has an account. An attached volunteer is mailed a one-time log-in link (following
    it verifies the address); inviting the same address again sends a fresh one."""
    now = now or timezone.now()
    name = " ".join((name or "").split())
    email = (email or "").strip().lower()
    if not name:
        raise EventError("Give the volunteer's name.")
    if len(name) > 150:
        raise EventError(f"A name is at most 150 characters ({len(name)} given): shorten it.")
    if len(email) > 254:
        raise EventError(f"An e-mail address is at most 254 characters ({len(email)} given).")
    try:
        validate_email(email)
    except ValidationError:
        raise EventError(f"{email!r} is not an e-mail address.") from None
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league)
        institution = league.season.institution
        if now >= scorer_access_ends(league):
            raise EventError(f"{league} is over: volunteers score until the day after it.")
        scorer = EventScorer.objects.filter(league=league, email=email).first()
        if scorer is None:
            user = User.objects.filter(email__iexact=email).select_related("profile").first()
            if user is None:
                user = volunteer_account_create(institution=institution, name=name, email=email)
            elif user.institution is None or user.institution.pk != institution.pk:
                user = None
            elif attached := EventScorer.objects.filter(league=league, user=user).first():
                scorer = attached
            if scorer is None:
                scorer = EventScorer.objects.create(
                    league=league, name=name, email=email, user=user, created_by=actor
                )
        _send_invitation(league, scorer, now)
    return scorer


def _log_in_url(token: str) -> str:
    return settings.SITE_URL + reverse("sign_in_link", args=[token])


def _send_invitation(league: League, scorer: EventScorer, now) -> None:
    if scorer.user is None:
        lines = [
            f"The director of {league} at {league.season.institution.name} invited this address "
            "to enter the event's score cards.",
            "This address already has an account with another institution, so it cannot be "
            "used for their volunteers. If you are volunteering, give the director another "
            "address.",
        ]
        link, button = league.get_absolute_url(), f"Open {league}"
        link = settings.SITE_URL + link
    else:
        token = sign_in_link_create(
            user=scorer.user,
            expires_at=scorer_access_ends(league),
            next_path=league.get_absolute_url(),
            now=now,
        )
        lines = [
            f"You are a volunteer scorer at {league}"
            + (f" on {league.event_date:%A %-d %B}" if league.event_date else "")
            + ": you enter the tables' score cards at the scoring table.",
            "The button logs you in once, without a password, until the end of the day after "
            "the event. Keep this e-mail to yourself: whoever follows the link is logged in as "
            "you.",
        ]
        link, button = _log_in_url(token), "Log in to score"
    queue_email(
        rendered_message(
            "email/volunteer_invitation",
            to=scorer.email,
            subject=f"Volunteer scorer at {league}",
            context={"greeting": scorer.name, "lines": lines, "link": link, "button": button},
        )
    )


def scorer_slip(*, actor, league: League, scorer: EventScorer, now=None) -> str:
    """A fresh one-time log-in link for the director to print on a slip and hand over. An
    invitation nobody could be attached to gets a link that leads nowhere, so that the slip,
    like the page, does not tell the director the address has an account elsewhere."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league)
        scorer = EventScorer.objects.select_related("user").get(pk=scorer.pk, league=league)
        if now >= scorer_access_ends(league):
            raise EventError(f"{league} is over: volunteers score until the day after it.")
        if scorer.user is None:
            return _log_in_url(secrets.token_hex(20))
        token = sign_in_link_create(
            user=scorer.user,
            expires_at=scorer_access_ends(league),
            next_path=league.get_absolute_url(),
            now=now,
        )
        return _log_in_url(token)


def scorer_remove(*, actor, league: League, scorer: EventScorer) -> None:
    """The volunteer may no longer enter this event's cards; their unused links to it end."""
    with transaction.atomic():
        league = lock_event(league)
        _require(actor, league)
        scorer = EventScorer.objects.filter(pk=scorer.pk, league=league).first()
        if scorer is None:
            return
        if scorer.user is not None:
            SignInLink.objects.filter(
                user=scorer.user, used_at__isnull=True, next_path=league.get_absolute_url()
            ).update(used_at=timezone.now())
        scorer.delete()


def next_free_number(league: League) -> int:
    last = Entry.objects.filter(league=league).aggregate(Max("player_number"))["player_number__max"]
    return (last or 0) + 1

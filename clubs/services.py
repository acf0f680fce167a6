"""Club nights (E4, G9, L8): checking in, seating a night, closing it.

A club night is a ``Round`` of a club league; its ``play_by`` is the night's date. Those checked
in (``CheckIn``) are seated at tables of four and three by ``seating.seat_tables``, keeping
recent tablemates apart; each table is a match whose seat order is the draw for first play,
seat 1 keeping score (G9), or the first student after a guest there. Guests (``guest_add``)
play only in a club that is not campus-only. A night's tables are its matches in id order:
table 1 is the first. The nightly's L8 never forfeits club tables: the director closes the
night (``close_night``) and its tables still without scores become double forfeits then, and
its reports another seat has confirmed become final.

Each service runs in one transaction with the night's row locked, so a check-in, a check-out and
a seating of the same night happen one after another. The commands act as the site, passing
``as_system=True``; nothing else may leave out the acting user.
"""

from dataclasses import dataclass
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from accounts.models import GUEST_NAME_MAX, PlayerProfile, User
from accounts.services import guest_for
from core.errors import DomainError
from league.models import CheckIn, Entry, League, LeagueFormat, Round
from league.services import enter, lock_league, number_entries, require_staff
from league.tables import SeatingError
from matches.models import OPEN_STATUSES, Match, MatchStatus, ResultReport, Seat
from matches.services import MAX_SEATS, NewMatch, matches_create, seat_add
from matches.services.tables import confirm_answered_tables, double_forfeit_tables

from .models import NightClosing
from .seating import seat_tables


class ClubError(DomainError):
    pass


def lock_night(round_: Round) -> Round:
    night = (
        Round.objects.select_for_update(of=("self",))
        .select_related("league__season__institution")
        .get(pk=round_.pk)
    )
    if night.league.format != LeagueFormat.CLUB:
        raise ClubError(f"{night.league} is not a club: it has no club nights.")
    return night


def _require_open(night: Round) -> None:
    """A closed night takes no more check-ins, seats nobody, and is not closed again."""
    closing = NightClosing.objects.filter(night=night).first()
    if closing is not None:
        tz = night.league.season.institution.tz
        raise ClubError(
            f"Night {night.number} is closed (since "
            f"{timezone.localtime(closing.closed_at, tz):%-I:%M %p}): nothing more happens at it."
        )


def _active_entry(league: League, player: PlayerProfile) -> Entry:
    entry = Entry.objects.filter(league=league, player=player, withdrawn_at__isnull=True).first()
    if entry is None:
        raise ClubError(f"{player.name} is not in this league.")
    return entry


def seated_players(round_: Round) -> set[int]:
    return set(Seat.objects.filter(match__round=round_).values_list("player_id", flat=True))


def check_in(
    *, actor, round: Round, player: PlayerProfile, now=None, as_system: bool = False
) -> CheckIn:
    """`player` is present tonight (front desk or director). Checking in twice changes nothing.
    A late arrival after seating is checked in too; they sit down at the next re-seat."""
    now = now or timezone.now()
    with transaction.atomic():
        night = lock_night(round)
        require_staff(actor, night.league, front_desk=True, as_system=as_system)
        _require_open(night)
        entry = _active_entry(night.league, player)
        if entry.player_number is None:
            number_entries(night.league)
        check, _ = CheckIn.objects.get_or_create(
            round=night,
            entry=entry,
            defaults={
                "checked_in_at": now,
                "checked_in_by": actor if actor is not None and actor.is_authenticated else None,
            },
        )
        return check


def check_out(*, actor, round: Round, player: PlayerProfile, as_system: bool = False) -> None:
    """Undo a check-in (the front desk's mistake, or someone who left before seating). Refused
    for a player already seated tonight: their table is drawn."""
    with transaction.atomic():
        night = lock_night(round)
        require_staff(actor, night.league, front_desk=True, as_system=as_system)
        entry = _active_entry(night.league, player)
        if player.pk in seated_players(night):
            raise ClubError(f"{player.name} is already seated tonight: their table is drawn.")
        CheckIn.objects.filter(round=night, entry=entry).delete()


def guest_add(
    *, actor, league: League, name: str, email: str = "", round: Round | None = None, now=None
) -> Entry:
    """The front desk or the director adds a guest (a visitor with no campus ID, who never logs
    in) to a club open to visitors (E4); the guest gets the next player number and, given
    `round`, is checked in for that night too. A guest of the institution with the same e-mail
    is the same person: their profile (and name on file) is reused, and an entry they already
    have in this league is returned, not doubled."""
    name = " ".join((name or "").split())
    email = (email or "").strip().lower()
    if not name:
        raise ClubError("Give the guest's name.")
    if len(name) > GUEST_NAME_MAX:
        raise ClubError(
            f"A guest's name is at most {GUEST_NAME_MAX} characters ({len(name)} given): "
            "shorten it."
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ClubError(f"{email!r} is not an e-mail address.") from None
    with transaction.atomic():
        league = lock_league(league)
        require_staff(actor, league, front_desk=True)
        if league.format != LeagueFormat.CLUB:
            raise ClubError(f"{league} is not a club: guests join clubs.")
        if league.campus_only:
            raise ClubError(
                f"{league} is for students only: guests cannot be added until the director "
                "opens it to visitors."
            )
        if round is not None and round.league_id != league.pk:
            raise ClubError(f"That night is not one of {league}'s.")
        institution = league.season.institution
        if (
            email
            and User.objects.filter(email__iexact=email, profile__institution=institution).exists()
        ):
            raise ClubError(f"{email} belongs to a student: check them in by campus ID or number.")
        guest = guest_for(institution=institution, name=name, email=email)
        entry = Entry.objects.filter(league=league, player=guest, withdrawn_at__isnull=True).first()
        if entry is None:
            entry = enter(league, guest, by_director=True)
        if round is not None:
            check_in(actor=actor, round=round, player=guest, now=now)
        return entry


def _history(night: Round) -> list[list[list[int]]]:
    """The league's earlier nights' tables, most recent night first: players per table."""
    nights: dict[int, dict[int, list[int]]] = {}
    seats = (
        Seat.objects.filter(
            match__round__league=night.league, match__round__number__lt=night.number
        )
        .order_by("-match__round__number", "match_id", "order")
        .values_list("match__round__number", "match_id", "player_id")
    )
    for number, match_id, player_id in seats:
        nights.setdefault(number, {}).setdefault(match_id, []).append(player_id)
    return [[table for table in tables.values() if len(table) > 1] for tables in nights.values()]


def _scorekeeper(table: list[int], guests: set[int]) -> int:
    """The seat that keeps score: the first, unless a guest sits there. A guest never signs in
    to report, so the table names the first student after them (G9: "the first seat unless the
    table names another"); the first seat still plays first."""
    return next((order for order, player in enumerate(table, 1) if player not in guests), 1)


def seat_night(
    *,
    actor,
    round: Round,
    seed: int = 1,
    repair: bool = False,
    now=None,
    as_system: bool = False,
) -> list[Match]:
    """The director seats the night: those checked in (with an active entry) at tables of four
    and three, recent tablemates kept apart, seat order drawn, seat 1 keeping score unless a
    guest sits there (E4, G9).
    Returns the tables in number order.

    A seated night is refused unless `repair`, which deletes its tables and seats it again
    (their "created" audit events go with them: a re-seat happens before any game is played).
    A night with any report or result is refused either way."""
    now = now or timezone.now()
    with transaction.atomic():
        night = lock_night(round)
        require_staff(actor, night.league, as_system=as_system)
        _require_open(night)
        tables = Match.objects.filter(round=night)
        played = tables.exclude(status__in=OPEN_STATUSES).exists() or (
            ResultReport.objects.filter(match__round=night).exists()
        )
        if played:
            raise ClubError(
                f"Night {night.number} has results reported: it cannot be seated again. "
                "Seat those who came late instead: the tables already seated stay as they are."
            )
        if tables.exists():
            if not repair:
                raise ClubError(f"Night {night.number} is already seated: re-seat it with repair.")
            tables.delete()
        rows = list(
            CheckIn.objects.filter(round=night, entry__withdrawn_at__isnull=True)
            .order_by("entry__player_number", "entry_id")
            .values_list("entry__player_id", "entry__player__user_id")
        )
        present = [player_id for player_id, _ in rows]
        guests = {player_id for player_id, user_id in rows if user_id is None}
        if not present:
            raise ClubError(f"Nobody is checked in for night {night.number}.")
        try:
            seating = seat_tables(present, history=_history(night), seed=seed)
        except SeatingError as error:
            raise ClubError(str(error)) from None
        return matches_create(
            actor=actor,
            new=[
                NewMatch(
                    round=night,
                    players=table,
                    status=MatchStatus.SCHEDULED,
                    scheduled_at=now,
                    scorekeeper=_scorekeeper(table, guests),
                    table=number,
                )
                for number, table in enumerate(seating.tables, start=1)
            ],
            reason=f"Night {night.number} seated (seed {seed})" + (", re-seated" if repair else ""),
            now=now,
        )


@dataclass(frozen=True)
class Latecomers:
    """What seating the latecomers did: the new tables, or the table one latecomer joined."""

    tables: list[Match]
    joined: Match | None = None


def unseated_players(night: Round) -> list[tuple[int, int | None]]:
    """Those checked in tonight with an active entry who have no table yet: (profile id, user
    id, None for a guest), by player number."""
    seated = seated_players(night)
    return [
        (player_id, user_id)
        for player_id, user_id in CheckIn.objects.filter(
            round=night, entry__withdrawn_at__isnull=True
        )
        .order_by("entry__player_number", "entry_id")
        .values_list("entry__player_id", "entry__player__user_id")
        if player_id not in seated
    ]


def tables_a_latecomer_may_join(night: Round) -> list[Match]:
    """Tables with a free seat (two or three players) and no result and no report, the
    smallest first: a single latecomer joins the smallest whose game the desk has seen has not
    started (the software cannot know)."""
    return list(
        Match.objects.filter(round=night, status__in=OPEN_STATUSES)
        .exclude(reports__isnull=False)
        .annotate(seated=Count("seats"))
        .filter(seated__gte=2, seated__lt=MAX_SEATS)
        .order_by("seated", "table", "id")
    )


def seat_latecomers(
    *, actor, round: Round, seed: int = 1, join: Match | None = None, now=None
) -> Latecomers:
    """Those checked in after the night was seated sit down, and every table already seated
    stays as it is (E4, G9). Two or more get tables of their own by E4's sizes: fours and
    threes, a table of two only when forced (2: one table of two; 5: three and two; 6: three
    and three; 7: four and three), away from recent tablemates, numbered after the night's
    last table. A single latecomer joins the table `join` (of two or three: the page offers
    the smallest first), which the desk confirmed has not started, in its last seat; without
    one they wait for the next latecomer."""
    now = now or timezone.now()
    with transaction.atomic():
        night = lock_night(round)
        require_staff(actor, night.league, front_desk=True)  # the desk sees who came late
        _require_open(night)
        if not Match.objects.filter(round=night).exists():
            raise ClubError(f"Night {night.number} is not seated yet: seat it first.")
        waiting = unseated_players(night)
        if not waiting:
            raise ClubError(f"Everyone checked in for night {night.number} has a table.")
        if len(waiting) == 1:
            ((player_id, _),) = waiting
            if join is None:
                raise ClubError(
                    "One latecomer cannot make a table: they join the smallest table that has "
                    "not started, or wait for the next latecomer."
                )
            if not any(table.pk == join.pk for table in tables_a_latecomer_may_join(night)):
                raise ClubError(
                    f"Table {join.table} cannot take a latecomer: only a table of two or three "
                    "without a result or a report can."
                )
            player = PlayerProfile.objects.get(pk=player_id)
            joined = seat_add(
                actor=actor,
                match=join,
                player=player,
                reason=f"Night {night.number}: {player.name} came late",
                now=now,
            )
            return Latecomers(tables=[], joined=joined)
        guests = {player_id for player_id, user_id in waiting if user_id is None}
        try:
            seating = seat_tables(
                [player_id for player_id, _ in waiting], history=_history(night), seed=seed
            )
        except SeatingError as error:
            raise ClubError(str(error)) from None
        last = Match.objects.filter(round=night).aggregate(last=Max("table"))["last"] or 0
        tables = matches_create(
            actor=actor,
            new=[
                NewMatch(
                    round=night,
                    players=table,
                    status=MatchStatus.SCHEDULED,
                    scheduled_at=now,
                    scorekeeper=_scorekeeper(table, guests),
                    table=last + number,
                )
                for number, table in enumerate(seating.tables, start=1)
            ],
            reason=f"Night {night.number}: latecomers seated (seed {seed})",
            now=now,
        )
        return Latecomers(tables=tables)


def night_add(*, actor, league: League, on) -> Round:
    """The director schedules the club's next night on date `on` (within the season, after the
    last night)."""
    with transaction.atomic():
        league = League.objects.select_for_update().select_related("season").get(pk=league.pk)
        if league.format != LeagueFormat.CLUB:
            raise ClubError(f"{league} is not a club: it has no club nights.")
        require_staff(actor, league)
        season = league.season
        if not season.starts_on <= on <= season.ends_on:
            raise ClubError(
                f"A night must fall within {season.name} ({season.starts_on} to {season.ends_on})."
            )
        last = Round.objects.filter(league=league).order_by("-number").first()
        if last is not None and on <= last.play_by:
            raise ClubError(f"The next night must come after night {last.number} ({last.play_by}).")
        return Round.objects.create(
            league=league, number=(last.number + 1) if last else 1, play_by=on
        )


class NightClosed(NamedTuple):
    forfeited: int  # tables without scores, now double forfeits
    confirmed: int  # reports another seat confirmed, now final


def close_night(*, actor, round: Round, reason: str, now=None) -> NightClosed:
    """The director closes the night: each table still without scores becomes a double forfeit
    (a loss for every seat, G9), and each pending report that a seat besides the scorekeeper
    confirmed becomes final (G9, ours), audited as the director's with how many confirmed. A
    report nobody else confirmed keeps its confirmation window; a disputed one waits for the
    director's ruling. Closing again is refused and changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        night = lock_night(round)
        require_staff(actor, night.league)
        _require_open(night)
        ids = list(Match.objects.filter(round=night).values_list("id", flat=True))
        forfeited = double_forfeit_tables(ids, actor=actor, reason=reason, now=now)
        confirmed = confirm_answered_tables(ids, actor=actor, when="when the night closed", now=now)
        NightClosing.objects.create(
            night=night,
            closed_at=now,
            closed_by=actor if actor is not None and actor.is_authenticated else None,
            reason=reason[:300],
        )
        return NightClosed(forfeited=len(forfeited), confirmed=len(confirmed))

"""An event's rounds (E3, E5): pairing or seating a round among those checked in (round 1 at
random, later rounds by cumulative score, within each pairing group, teammates apart), the
printed cards, starting a round early and closing it. The director's swaps: ``swaps``."""

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from events import pairing as event_pairing
from events.card_board import not_begun_words, round_begun
from events.models import FirstRound, RoundCards, RoundStartedEarly, event_of_league
from events.rights import (
    EventError,
    lock_event,
    require,
)
from events.seating import seat_round
from events.selectors import (
    board_of,
    cards_begun,
    checked_in_entries,
    checked_in_without_a_seat,
    event_entries,
    round_starts,
    rounds_with_tables,
)
from events.services.card_settling import cards_waiting, settle_due_cards
from events.services.door import check_in_entry
from league.models import Entry, League, Round
from league.names import STAFF
from league.refresh import refresh_leagues
from matches.models import FINAL_STATUSES, AuditEvent, Match, MatchStatus
from matches.services import NewMatch, double_forfeit_tables, matches_create
from ratings import glicko
from ratings.models import PlayerRating

# --- Pairing ------------------------------------------------------------------------------------


def _groups(league: League) -> list[event_pairing.Group]:
    groups: dict[str, bool] = {}
    for category in league.categories.order_by("position", "id"):
        groups[category.pairing_group] = groups.get(category.pairing_group, False) or bool(
            category.turn_seconds
        )
    return [event_pairing.Group(name, timed) for name, timed in groups.items()]


def _pair_or_seat(league: League, entrants, *, by_score: bool, seed: int, by_rating: bool):
    """Pairs (E3: by score, an odd group's bye or table of three), or tables of three or four
    (E5: teammates at different tables, repeat meetings kept down) where the event seats more."""
    groups = _groups(league)
    if event_of_league(league).seats_per_table == 2:
        return event_pairing.pair_round(
            entrants, groups, by_score=by_score, seed=seed, by_rating=by_rating
        )
    tables, repeats = [], 0
    for group in groups:
        members = [entrant for entrant in entrants if entrant.group == group.name]
        seating = seat_round(
            members, seats=event_of_league(league).seats_per_table, seed=seed, group=group.name
        )
        tables += seating.tables
        repeats += seating.repeats
    return event_pairing.Pairing(tables=tables, byes=[], repeats=repeats)


@dataclass(frozen=True)
class RoundPaired:
    """A round paired: its tables and byes; when it was paired again, those it seated who had
    no seat in it before (checked in since it was first paired, or back after leaving), and
    those who had a seat and are no longer seated because they left the event."""

    tables: list[Match]
    byes: list[Match]
    taken_in: list[Entry]
    left_out: list[Entry]


def entrants_named(entries: list[Entry]) -> str:
    """Entrants as the director reads them in what a pairing says: through the naming path
    (staff read names as given; a forgotten entrant is "Former player N"), with their number."""
    return ", ".join(
        f"{entry.player.name_in(STAFF, entry.player_number)} (number {entry.player_number})"
        for entry in entries
    )


class AlreadyPaired(EventError):
    """The round is paired and `repair` was not asked for: nothing changed. `waiting` are those
    checked in who have no seat in it; drawing it again (before its first card) seats them."""

    def __init__(self, round_: Round, waiting: list[Entry]):
        self.round = round_
        self.waiting = waiting
        count = len(waiting)
        if waiting:
            said = (
                f"{count} checked in since it was paired "
                f"{'has' if count == 1 else 'have'} no seat yet: {entrants_named(waiting)}. "
                "Drawing the round again seats them."
            )
        else:
            said = "Everyone checked in has a seat in it."
        super().__init__(f"Round {round_.number} is already paired; nothing changed. {said}")


def pair_event_round(
    *,
    actor,
    round: Round,
    seed: int | None = None,
    repair: bool = False,
    all_entrants: bool = False,
    now=None,
    as_system: bool = False,
) -> RoundPaired:
    """The director pairs round `round` among those checked in (every active entrant with
    `all_entrants`, checking them in): round 1 at random, later rounds by cumulative score,
    within each pairing group, teammates apart, no repeat while avoidable, an odd group's bye
    or table of three (E3). The seed is recorded on the round.

    Refused while an earlier round has a table without its result, and for a round with any
    score entered; a paired round only with `repair` (its tables are drawn again, taking in
    everyone checked in since it was first paired), else AlreadyPaired says who is waiting."""
    now = now or timezone.now()
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    with transaction.atomic():
        league = lock_event(round.league)
        require(actor, league, as_system=as_system)
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
        if cards_begun(round_):
            raise EventError(
                f"Round {round_.number} has scores entered: it cannot be paired again."
            )
        waiting: list[Entry] = []
        gone: list[Entry] = []
        if tables.exists():
            waiting = checked_in_without_a_seat(league, round_)
            if not repair:
                raise AlreadyPaired(round_, waiting)
            gone = list(
                Entry.objects.filter(
                    league=league, withdrawn_at__isnull=False, player__seats__match__round=round_
                )
                .select_related("player__user")
                .order_by("player_number", "id")
            )
            tables.delete()
        if all_entrants:
            for entry in Entry.objects.filter(league=league, withdrawn_at__isnull=True):
                check_in_entry(league, entry, actor, now)
        present = checked_in_entries(league)
        if len(present) < 2:
            raise EventError(f"Only {len(present)} entrant(s) checked in: nobody to pair.")
        missing = [e.player.name for e in present if e.entrant.category_id is None]
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
        by_rating = round_.number == 1 and event_of_league(league).first_round == FirstRound.RATING
        ratings = (
            dict(
                PlayerRating.objects.filter(
                    player_id__in=[entry.player_id for entry in present]
                ).values_list("player_id", "rating")
            )
            if by_rating
            else {}
        )
        entrants = [
            event_pairing.PairingEntrant(
                id=entry.player_id,
                group=group_of[entry.entrant.category_id],
                team=entry.entrant.team.name if entry.entrant.team_id else None,
                total=by_id[entry.player_id].total if entry.player_id in by_id else 0,
                wins=by_id[entry.player_id].wins if entry.player_id in by_id else 0,
                spread=by_id[entry.player_id].spread if entry.player_id in by_id else 0,
                opponents=frozenset(met.get(entry.player_id, ())),
                had_bye=entry.player_id in had_bye,
                rating=ratings.get(entry.player_id, glicko.START),
            )
            for entry in present
        ]
        try:
            pairing = _pair_or_seat(
                league, entrants, by_score=round_.number > 1, seed=seed, by_rating=by_rating
            )
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
        round_.save(update_fields=["seed"])
        seating_changed(round_)
        refresh_leagues([league.pk])  # event.json lists the round's tables
        return RoundPaired(
            tables=created[: len(pairing.tables)],
            byes=created[len(pairing.tables) :],
            taken_in=waiting,
            left_out=gone,
        )


def seating_changed(round_: Round) -> None:
    """A re-pairing or a swap: if the round's cards were printed, a card in the hall may now name
    other players than its table's, and the scoring table asks for numbers from then on."""
    RoundCards.objects.filter(round=round_).update(seating_changed_after_print=True)


def cards_printed(*, actor, round: Round, now=None) -> None:
    """The round's score cards (or score sheets) were printed: from now on a re-pairing or a swap
    makes the scoring table ask for the players' numbers on every card of the round."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(round.league)
        require(actor, league, staff=True)
        round_ = Round.objects.get(pk=round.pk, league=league)
        RoundCards.objects.update_or_create(round=round_, defaults={"printed_at": now})


def close_round(*, actor, round: Round, reason: str = "", now=None) -> int:
    """The director closes the round: the players' cards another seat confirmed count (S2),
    and each table still without a card becomes a double forfeit (a loss for every seat,
    adding nothing to their totals). A table whose players' card still waits for a person (a
    conflict, or a card nobody confirmed) is settled at the scoring table first: closing is
    refused while one does, so no card entered at a table is lost. Returns how many forfeited."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(round.league)
        require(actor, league)
        settle_due_cards(round, now, closing=True)
        waiting = cards_waiting(round)
        if waiting:
            raise EventError(
                f"Table{'s' if len(waiting) > 1 else ''} {', '.join(map(str, waiting))} "
                f"{'have cards' if len(waiting) > 1 else 'has a card'} the players entered "
                "that still wait for a person: settle them at the scoring table before closing "
                f"round {round.number}."
            )
        ids = list(Match.objects.filter(round=round).values_list("id", flat=True))
        return len(
            double_forfeit_tables(
                ids, actor=actor, reason=reason or f"Round {round.number} closed", now=now
            )
        )


def round_start_early(*, actor, round: Round, now=None) -> int:
    """The director starts the round before its first period's time (everyone is seated):
    its tables take cards from now on. Each table's history says who started it and when.
    Starting it twice changes nothing. Returns how many tables it opened."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(round.league)
        require(actor, league)
        if round_begun(league, round, now):
            return 0
        RoundStartedEarly.objects.create(round=round, started_at=now, started_by=actor)
        tables = list(Match.objects.filter(round=round).values_list("id", flat=True))
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    match_id=table,
                    actor=actor,
                    action="round_started_early",
                    before={"starts": not_begun_words(league, round)},
                    after={"started_at": now.isoformat()},
                    reason=f"Round {round.number} started early by the director",
                    created_at=now,
                )
                for table in tables
            ]
        )
        return len(tables)

"""The director's swap of two players' seats in a round before its first card (E3): checked
against the pairing's constraints (teammates apart, no repeat, groups apart), asking first
when it breaks one, audited on both tables."""

from django.db import transaction

from accounts.models import PlayerProfile
from events.models import TableCard
from events.rights import EventError, lock_event, require
from events.services.rounds import seating_changed
from league.models import Entry, League, Round
from league.refresh import refresh_leagues
from matches.models import OPEN_STATUSES, AuditEvent, Match, MatchStatus, Seat


class SwapNeedsConfirming(EventError):
    """The swap breaks a constraint: the director may go ahead knowingly."""


def _swap_warnings(league: League, round_: Round, tables: dict[int, list[Seat]]) -> list[str]:
    entries = {
        e.player_id: e
        for e in Entry.objects.filter(league=league).select_related(
            "entrant__team", "entrant__category"
        )
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
                if ea.entrant.team_id and ea.entrant.team_id == eb.entrant.team_id:
                    warnings.append(
                        f"{ea.player.name} and {eb.player.name} are teammates ({ea.entrant.team.name})."
                    )
                if frozenset((a, b)) in earlier_pairs:
                    warnings.append(f"{ea.player.name} and {eb.player.name} have played already.")
                group_a = ea.entrant.category.pairing_group if ea.entrant.category_id else ""
                group_b = eb.entrant.category.pairing_group if eb.entrant.category_id else ""
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
        require(actor, league)
        round_ = Round.objects.select_for_update().get(pk=round.pk, league=league)
        matches = Match.objects.filter(round=round_)
        list(matches.select_for_update().values_list("id", flat=True))  # as pairing does
        if (
            matches.exclude(status__in=OPEN_STATUSES + [MatchStatus.BYE]).exists()
            or TableCard.objects.filter(match__in=matches).exists()
        ):
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
        seating_changed(round_)
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

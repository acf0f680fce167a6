"""Persisting brackets: build one when a league's regular season is complete (or a tournament's
registration has closed), create each game's match when both players are known, and advance
winners as results become final. The bracket logic itself is `brackets.py`.

Nothing here renders the league's pages: the caller does, once, after the standings and the
bracket have both changed (``refresh.refresh_leagues``)."""

from datetime import date, timedelta

from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, Prefetch, Q
from django.utils import timezone

from matches.models import FINAL_STATUSES, Match, MatchStatus, Outcome, Seat
from matches.services import match_create

from . import brackets
from .models import Bracket, BracketSlot, Entry, League, LeagueFormat, Round, Standing


def _seeded_players(league: League) -> list[int]:
    if league.format == LeagueFormat.SINGLE_ELIMINATION:
        entries = Entry.objects.filter(league=league, withdrawn_at__isnull=True).order_by(
            "seed", "joined_at", "id"
        )
        return list(entries.values_list("player_id", flat=True))
    top = Standing.objects.filter(league=league, withdrawn=False).order_by(
        "rank", "player__user__last_name"
    )
    return list(top.values_list("player_id", flat=True)[: league.playoff_size])


def leagues_ready_for_bracket(league_ids, today: date) -> set[int]:
    """Which of these leagues have their bracket drawn on `today` (L11), in one query: none drawn
    yet and, for a league, playoffs of two or more after a regular season that has matches, all
    of them final; for a tournament, registration closed."""
    open_regular = Match.objects.filter(league=OuterRef("pk"), round__playoff=False).exclude(
        status__in=FINAL_STATUSES
    )
    return set(
        League.objects.filter(pk__in=list(league_ids))
        .annotate(
            has_bracket=Exists(Bracket.objects.filter(league=OuterRef("pk"))),
            has_open=Exists(open_regular),
            regular=Count("matches", filter=Q(matches__round__playoff=False)),
        )
        .filter(has_bracket=False)
        .filter(
            Q(format=LeagueFormat.LEAGUE, has_open=False, regular__gt=0, playoff_size__gte=2)
            | Q(format=LeagueFormat.SINGLE_ELIMINATION, season__registration_deadline__lt=today)
        )
        .values_list("pk", flat=True)
    )


def _plain(slots: list[BracketSlot]) -> list[list[brackets.Slot]]:
    rounds: list[list[brackets.Slot]] = []
    for slot in slots:
        while len(rounds) <= slot.round_index:
            rounds.append([])
        rounds[slot.round_index].append(
            brackets.Slot(slot.seed_a, slot.seed_b, slot.decided, slot.winner_seed)
        )
    return rounds


def _store(bracket: Bracket, rows: list[BracketSlot], rounds, today: date) -> None:
    """Copy the plain bracket back into its rows and create matches for slots now ready."""
    changed = []
    for row in rows:
        plain = rounds[row.round_index][row.position]
        values = (plain.seed_a, plain.seed_b, plain.decided, plain.winner)
        if values != (row.seed_a, row.seed_b, row.decided, row.winner_seed):
            row.seed_a, row.seed_b, row.decided, row.winner_seed = values
            changed.append(row)
    BracketSlot.objects.bulk_update(changed, ["seed_a", "seed_b", "decided", "winner_seed"])
    _create_matches(
        bracket,
        [
            row
            for row in rows
            if rounds[row.round_index][row.position].ready and row.match_id is None
        ],
        today,
    )
    final = rounds[-1][0]
    if final.decided and bracket.finished_at is None:
        bracket.champion_id = bracket.seeds[final.winner - 1] if final.winner else None
        bracket.finished_at = timezone.now()
        bracket.save(update_fields=["champion", "finished_at"])


def _create_matches(bracket: Bracket, rows: list[BracketSlot], today: date) -> None:
    if not rows:
        return
    league = bracket.league
    regular_rounds = (
        Round.objects.filter(league=league, playoff=False).aggregate(n=Max("number"))["n"] or 0
    )
    play_by = today + timedelta(days=league.round_length_days)
    for row in rows:
        round_, _ = Round.objects.get_or_create(
            league=league,
            number=regular_rounds + row.round_index + 1,
            defaults={"play_by": play_by, "playoff": True},
        )
        round_.league = league  # the deadline needs its league and time zone
        match = match_create(
            actor=None,
            round=round_,
            players=[bracket.seeds[row.seed_a - 1], bracket.seeds[row.seed_b - 1]],
            reason="Bracket drawn (L11)",
        )
        row.match = match
        row.save(update_fields=["match"])


def build_ready_brackets(*, league_ids, today: date) -> int:
    """Seed and draw the bracket of each of these leagues that is ready for one: 1 v N, 2 v N-1,
    byes to the top seeds (L11). Returns how many were drawn."""
    built = 0
    for league_id in sorted(leagues_ready_for_bracket(league_ids, today)):
        with transaction.atomic():
            league = (
                League.objects.select_for_update(of=("self",))
                .select_related("season__institution")
                .get(pk=league_id)
            )
            # Asked again under the lock: another run may have drawn it in the meantime.
            if league_id in leagues_ready_for_bracket([league_id], today) and _draw(league, today):
                built += 1
    return built


def _draw(league: League, today: date) -> Bracket | None:
    seeds = _seeded_players(league)
    if len(seeds) < 2:
        return None
    rounds = brackets.new_bracket(len(seeds))
    bracket = Bracket.objects.create(
        league=league, size=brackets.bracket_size(len(seeds)), seeds=seeds
    )
    rows = BracketSlot.objects.bulk_create(
        [
            BracketSlot(bracket=bracket, round_index=r, position=i)
            for r, slots in enumerate(rounds)
            for i, _ in enumerate(slots)
        ]
    )
    _store(bracket, rows, rounds, today)
    return bracket


def _winner_seed(bracket: Bracket, match: Match) -> tuple[bool, int | None]:
    """(decided, winner seed) from a final bracket match; a tie decides nothing (replay it)."""
    if match.status == MatchStatus.DOUBLE_FORFEIT:
        return True, None
    for seat in match.seats.all():
        if seat.outcome in (Outcome.WIN, Outcome.FORFEIT_WIN):
            return True, bracket.seeds.index(seat.player_id) + 1
    return False, None


def brackets_advance(*, league_ids, today: date | None = None) -> int:
    """Move winners of final bracket matches on; returns how many brackets changed. Matches of
    the next round are due a round length after `today` (default: the institution's today)."""
    pending = (
        BracketSlot.objects.filter(
            bracket__league_id__in=list(league_ids), decided=False, match__status__in=FINAL_STATUSES
        )
        .values_list("bracket_id", flat=True)
        .distinct()
    )
    advanced = 0
    for bracket_id in list(pending):
        with transaction.atomic():
            bracket = (
                Bracket.objects.select_for_update(of=("self",))
                .select_related("league__season__institution")
                .get(pk=bracket_id)
            )
            rows = list(
                BracketSlot.objects.filter(bracket=bracket)
                .select_related("match")
                .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.order_by("order")))
                .order_by("round_index", "position")
            )
            rounds = _plain(rows)
            moved = False
            for row in rows:
                plain = rounds[row.round_index][row.position]
                if not plain.ready or row.match is None or row.match.status not in FINAL_STATUSES:
                    continue
                decided, winner = _winner_seed(bracket, row.match)
                if decided:
                    brackets.record_result(rounds, row.round_index, row.position, winner)
                    moved = True
            if moved:
                _store(bracket, rows, rounds, today or bracket.league.season.institution.today())
                advanced += 1
    return advanced

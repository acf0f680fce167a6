"""Persisting brackets: build one when a league's regular season is complete (or a tournament's
registration has closed), create each game's match when both players are known, and advance
winners as results become final. The bracket logic itself is `brackets.py`.

Nothing here renders the league's pages: the caller does, once, after the standings and the
bracket have both changed (``refresh.refresh_leagues``)."""

from datetime import date, timedelta

from django.db import transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Prefetch, Q
from django.utils import timezone

from accounts.errors import NotEligible
from accounts.models import PlayerProfile
from accounts.services import require_eligible
from matches.models import FINAL_STATUSES, Match, MatchStatus, Outcome, Seat
from matches.services import match_create, withdrawal_forfeits

from . import brackets
from .models import Bracket, BracketSlot, Entry, League, LeagueFormat, Round, SeedBy, Standing


def _seeded_players(league: League) -> tuple[list[int], list[dict]]:
    """The seeds in order, and who was passed over because the gate refused them (L10): a
    tournament's active entrants in the director's order, or by rating where its `seed_by`
    says so (R4: highest first, the unrated after the rated, as NASPA seeds them, each part in
    the director's order); a league's best `playoff_size` in the standings, the next eligible
    player taking the place of one who is not."""
    if league.format == LeagueFormat.SINGLE_ELIMINATION:
        order = ["seed", "joined_at", "id"]
        if league.seed_by == SeedBy.RATING:
            order.insert(0, F("player__rating__rating").desc(nulls_last=True))
        candidates = Entry.objects.filter(league=league, withdrawn_at__isnull=True).order_by(*order)
        places = None
    else:
        candidates = Standing.objects.filter(league=league, withdrawn=False).order_by(
            "rank", "player__user__last_name"
        )
        places = league.playoff_size
    seeds, left_out = [], []
    for candidate in candidates.select_related("player__user"):
        if places is not None and len(seeds) == places:
            break
        try:
            require_eligible(
                profile=candidate.player, season=league.season, campus_only=league.campus_only
            )
        except NotEligible as refusal:
            left_out.append({"player": candidate.player_id, "why": refusal.message})
        else:
            seeds.append(candidate.player_id)
    return seeds, left_out


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
    players = PlayerProfile.objects.select_related("user").in_bulk(
        [bracket.seeds[seed - 1] for row in rows for seed in (row.seed_a, row.seed_b)]
    )
    left = set(
        Entry.objects.filter(
            league=league, player__in=list(players), withdrawn_at__isnull=False
        ).values_list("player_id", flat=True)
    )
    for row in rows:
        pair = [bracket.seeds[row.seed_a - 1], bracket.seeds[row.seed_b - 1]]
        round_, _ = Round.objects.get_or_create(
            league=league,
            number=regular_rounds + row.round_index + 1,
            defaults={"play_by": play_by, "playoff": True},
        )
        round_.league = league  # the deadline needs its league and time zone
        match = match_create(
            actor=None,
            round=round_,
            players=pair,
            reason="Bracket drawn",
        )
        row.match = match
        row.save(update_fields=["match"])
        if not _settle_if_left(league, [players[pk] for pk in pair], left):
            _settle_if_ineligible(league, [players[pk] for pk in pair])


def _settle_if_left(league: League, players: list[PlayerProfile], left: set[int]) -> bool:
    """E1, P4 at a bracket game's creation: a player who withdrew or was forgotten since the
    draw, waiting for this game, will not play it; it goes to the opponent by forfeit, as
    their leaving did with the games already drawn. Returns whether it did."""
    for player in players:
        if player.pk in left:
            withdrawal_forfeits(
                actor=None,
                player=player,
                league=league,
                reason=f"{player.name} left {league}.",
                told=[
                    f"{player.name} left {league}: the match is a forfeit win for their opponent."
                ],
            )
            return True
    return False


def _settle_if_ineligible(league: League, players: list[PlayerProfile]) -> None:
    """L10 at a bracket game's creation: a player ruled ineligible since the draw, waiting for
    this game, could not play it, and it would end a double forfeit that knocks their opponent
    out too. It goes to the opponent by forfeit, as the ruling does with games already drawn."""
    for player in players:
        try:
            require_eligible(profile=player, season=league.season, campus_only=league.campus_only)
        except NotEligible:
            withdrawal_forfeits(
                actor=None,
                player=player,
                league=league,
                reason=f"{player.name} is not eligible to play in {league.season.name}.",
            )
            return


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
    seeds, left_out = _seeded_players(league)
    if len(seeds) < 2:
        return None
    rounds = brackets.new_bracket(len(seeds))
    bracket = Bracket.objects.create(
        league=league, size=brackets.bracket_size(len(seeds)), seeds=seeds, left_out=left_out
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

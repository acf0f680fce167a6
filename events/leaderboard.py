"""An event's leaderboard (E3, E5, G9): plain data in, plain data out, no database.

Ranking (E3): the combined score over the rounds; ties go to more games won, then the greater
spread, then the higher single game; still tied, a shared place (1, 2, 2, 4). Games, wins and
spread count G9's pairings: at a table of N each seat meets the N−1 others, winning against
each lower score, half a win against an equal one.

A bye (an odd timed group, E3) scores the entrant's average over the rounds they actually
played, rounded half up, and counts as a game won with no spread (ours: the bye stands in for a
game of their usual strength, not for a margin). A table closed without a card (a double
forfeit) adds nothing to the totals and is a loss against every other seat. An entrant who left
keeps their scores and their place, marked.

Each category's top three are its first three in the overall order, with everyone tied with
the third; the champion category's first place (or places, when shared) is the champion. A
team's total is the sum of its members' totals; with ``short_team="average_fill"`` each empty
place up to the team size counts the members' average, rounded half up (E5, ours)."""

from collections.abc import Sequence
from dataclasses import dataclass, field

SHORT_TEAM_RULES = ("sum", "average_fill")


@dataclass(frozen=True)
class BoardEntrant:
    id: int
    number: int | None
    name: str
    category: str
    team: str | None = None
    withdrawn: bool = False
    rating: str = ""  # as shown (R1): "1620", "1620*" while provisional; "–" or "" unrated


@dataclass(frozen=True)
class BoardTable:
    """One table of one round: (entrant id, final score) in seat order; None = no score."""

    round: int
    seats: tuple[tuple[int, int | None], ...]
    double_forfeit: bool = False
    bye: bool = False


@dataclass
class Row:
    rank: int
    shared: bool
    entrant: BoardEntrant
    total: int = 0
    games: float = 0
    wins: float = 0
    spread: int = 0
    high: int = 0
    rounds: dict[int, int | None] = field(default_factory=dict)

    def key(self) -> tuple:
        """Larger is better (E3)."""
        return (self.total, self.wins, self.spread, self.high)


@dataclass
class TeamRow:
    rank: int
    shared: bool
    team: str
    total: int
    members: list[tuple[BoardEntrant, int]]
    filled: int = 0


@dataclass
class Leaderboard:
    rows: list[Row]
    categories: dict[str, list[Row]]
    # The champion category's first place (or places, when shared): its leaders while the
    # event runs, its champions once `decided` (the last round complete).
    leaders: list[Row]
    teams: list[TeamRow]
    decided: bool = False

    @property
    def champions(self) -> list[Row]:
        """Nobody is champion before the last round is complete: until then a bye still counts
        at the entrant's average (E3), and one who lost their only game may lead."""
        return self.leaders if self.decided else []


def half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded half up (never banker's rounding), for any signs."""
    if denominator <= 0:
        raise ValueError("A positive denominator is needed.")
    return (2 * numerator + denominator) // (2 * denominator)


def leaderboard(
    entrants: Sequence[BoardEntrant],
    tables: Sequence[BoardTable],
    *,
    categories: Sequence[str],
    champion_category: str | None,
    team_size: int | None = None,
    short_team: str = "sum",
    decided: bool = False,
) -> Leaderboard:
    if short_team not in SHORT_TEAM_RULES:
        raise ValueError(f"short_team: {short_team!r} is not one of {', '.join(SHORT_TEAM_RULES)}.")
    rows = {entrant.id: Row(rank=0, shared=False, entrant=entrant) for entrant in entrants}
    byes: list[tuple[Row, int]] = []
    for table in tables:
        for player, _ in table.seats:
            if player not in rows:
                raise ValueError(f"Round {table.round}: no entrant {player!r}.")
        if table.bye:
            (player, _), *rest = table.seats
            if rest:
                raise ValueError(f"Round {table.round}: a bye has one seat.")
            byes.append((rows[player], table.round))
            continue
        if table.double_forfeit:
            others = len(table.seats) - 1
            for player, _ in table.seats:
                row = rows[player]
                row.games += others
                row.rounds[table.round] = None
            continue
        scores = [score for _, score in table.seats]
        if any(score is None for score in scores):
            continue  # not played yet
        for index, (player, score) in enumerate(table.seats):
            row = rows[player]
            row.total += score
            row.rounds[table.round] = score
            for other_index, (_, other) in enumerate(table.seats):
                if other_index == index:
                    continue
                row.games += 1
                row.spread += score - other
                row.wins += 1 if score > other else 0.5 if score == other else 0
    played_by = {player: _played(row) for player, row in rows.items()}
    for player, row in rows.items():
        row.high = max(played_by[player], default=0)
    for row, round_number in byes:
        played = played_by[row.entrant.id]
        average = half_up(sum(played), len(played)) if played else 0
        row.total += average
        row.games += 1
        row.wins += 1
        row.rounds[round_number] = average
    ordered = _ranked(list(rows.values()))
    by_category = {}
    for name in categories:
        members = [row for row in ordered if row.entrant.category == name]
        by_category[name] = _top_three(members)
    leaders = []
    if champion_category is not None and by_category.get(champion_category):
        leaders = [row for row in by_category[champion_category] if row.rank == 1]
    return Leaderboard(
        rows=ordered,
        categories=by_category,
        leaders=leaders,
        teams=_teams(ordered, team_size, short_team),
        decided=decided,
    )


def _played(row: Row) -> list[int]:
    """The scores of games the entrant sat (read before any bye is added)."""
    return [score for score in row.rounds.values() if score is not None]


def _ranked(rows: list[Row]) -> list[Row]:
    """Best first; equal keys share the rank of the first of them (1, 2, 2, 4). Equal rows are
    listed by player number, then name, so the order is stable."""
    rows.sort(
        key=lambda row: (
            tuple(-value for value in row.key()),
            row.entrant.number if row.entrant.number is not None else 1 << 30,
            row.entrant.name,
            row.entrant.id,
        )
    )
    _assign_ranks(rows, Row.key)
    return rows


def _assign_ranks(rows, key) -> None:
    for index, row in enumerate(rows):
        if index and key(rows[index - 1]) == key(row):
            row.rank = rows[index - 1].rank
            row.shared = rows[index - 1].shared = True
        else:
            row.rank = index + 1


def _top_three(members: list[Row]) -> list[Row]:
    """The category's first three, everyone tied with the third included, ranked within it;
    only those who have played (a bye counts): before the first card nobody is on a podium,
    not every entrant tied at 0."""
    members = [row for row in members if row.games]
    top = []
    for index, row in enumerate(members):
        if index >= 3 and row.key() != members[2].key():
            break
        top.append(
            Row(
                rank=0,
                shared=False,
                entrant=row.entrant,
                total=row.total,
                games=row.games,
                wins=row.wins,
                spread=row.spread,
                high=row.high,
                rounds=dict(row.rounds),
            )
        )
    _assign_ranks(top, Row.key)
    return top


def _teams(rows: list[Row], team_size: int | None, short_team: str) -> list[TeamRow]:
    members: dict[str, list[Row]] = {}
    for row in rows:
        if row.entrant.team:
            members.setdefault(row.entrant.team, []).append(row)
    teams = []
    for name, team_rows in members.items():
        total = sum(row.total for row in team_rows)
        filled = 0
        if short_team == "average_fill" and team_size and len(team_rows) < team_size:
            filled = team_size - len(team_rows)
            total += filled * half_up(total, len(team_rows))
        teams.append(
            TeamRow(
                rank=0,
                shared=False,
                team=name,
                total=total,
                members=[(row.entrant, row.total) for row in team_rows],
                filled=filled,
            )
        )
    teams.sort(key=lambda team: (-team.total, team.team.casefold()))
    _assign_ranks(teams, lambda team: team.total)
    return teams

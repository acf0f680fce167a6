"""An event's leaderboard (E3, E5, G9): combined score, then games won, spread and the high
game; still tied, a shared place; each category's top three; team totals. Pure: checked against
a brute-force recomputation written apart from the module."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.leaderboard import BoardEntrant, BoardTable, leaderboard

CATEGORIES = ["Competitive", "Just for Fun"]


@st.composite
def events(draw):
    size = draw(st.integers(2, 14))
    entrants = [
        BoardEntrant(
            id=i,
            number=i,
            name=f"P{i}",
            category=draw(st.sampled_from(CATEGORIES)),
            team=draw(st.sampled_from([None, "Acme", "Bolt"])),
        )
        for i in range(1, size + 1)
    ]
    tables = []
    for round_number in range(1, draw(st.integers(1, 3)) + 1):
        players = draw(st.permutations([e.id for e in entrants]))
        start = 0
        while start < len(players):
            seats = draw(st.integers(1, 4))
            chunk = players[start : start + seats]
            start += seats
            if len(chunk) == 1:
                tables.append(BoardTable(round_number, ((chunk[0], None),), bye=True))
                continue
            kind = draw(st.sampled_from(["played", "played", "played", "forfeit"]))
            scores = [draw(st.integers(300, 310)) for _ in chunk]  # narrow: ties happen
            tables.append(
                BoardTable(
                    round_number,
                    tuple(
                        zip(
                            chunk, [None] * len(chunk) if kind == "forfeit" else scores, strict=True
                        )
                    ),
                    double_forfeit=kind == "forfeit",
                )
            )
    return entrants, tables


def _brute(entrants, tables):
    """Each entrant's (total, wins, spread, high), worked out table by table."""
    stats = {e.id: {"total": 0, "wins": 0.0, "spread": 0, "played": []} for e in entrants}
    for table in tables:
        if table.bye or table.double_forfeit:
            continue
        for (a, sa), (b, sb) in combinations(table.seats, 2):
            stats[a]["spread"] += sa - sb
            stats[b]["spread"] += sb - sa
            stats[a]["wins"] += 1 if sa > sb else 0.5 if sa == sb else 0
            stats[b]["wins"] += 1 if sb > sa else 0.5 if sa == sb else 0
        for player, score in table.seats:
            stats[player]["total"] += score
            stats[player]["played"].append(score)
    for table in tables:
        if table.bye:
            played = stats[table.seats[0][0]]["played"]
            average = int(sum(played) / len(played) + 0.5) if played else 0
            stats[table.seats[0][0]]["total"] += average
            stats[table.seats[0][0]]["wins"] += 1
    return {
        player: (s["total"], s["wins"], s["spread"], max(s["played"], default=0))
        for player, s in stats.items()
    }


@settings(max_examples=200, deadline=None)
@given(events())
def test_e3_g9_the_ranking_equals_a_brute_force_recomputation(event):
    entrants, tables = event
    board = leaderboard(entrants, tables, categories=CATEGORIES, champion_category="Competitive")
    keys = _brute(entrants, tables)
    assert sorted(row.entrant.id for row in board.rows) == sorted(keys)
    for row in board.rows:
        assert (row.total, row.wins, row.spread, row.high) == keys[row.entrant.id]
        better = sum(1 for other in keys.values() if other > keys[row.entrant.id])
        assert row.rank == better + 1
        tied = sum(1 for other in keys.values() if other == keys[row.entrant.id])
        assert row.shared == (tied > 1)
    for name in CATEGORIES:
        members = sorted((keys[e.id] for e in entrants if e.category == name), reverse=True)
        top = board.categories[name]
        if len(members) >= 3:
            assert len(top) == sum(1 for key in members if key >= members[2])
        else:
            assert len(top) == len(members)
        for row in top:
            assert row.rank == 1 + sum(1 for key in members if key > keys[row.entrant.id])
    assert [row.entrant.id for row in board.leaders] == [
        row.entrant.id for row in board.categories["Competitive"] if row.rank == 1
    ]
    for team in board.teams:
        assert team.total == sum(keys[e.id][0] for e in entrants if e.team == team.team)


def _people(*categories):
    return [
        BoardEntrant(id=i, number=i, name=f"P{i}", category=c) for i, c in enumerate(categories, 1)
    ]


def test_e3_equal_everything_is_a_shared_place_and_the_next_rank_skips():
    people = _people("C", "C", "C", "C")
    tables = [BoardTable(1, ((1, 400), (2, 300))), BoardTable(1, ((3, 400), (4, 300)))]
    board = leaderboard(people, tables, categories=["C"], champion_category="C")
    assert [(row.rank, row.shared) for row in board.rows] == [
        (1, True),
        (1, True),
        (3, True),
        (3, True),
    ]
    assert len(board.leaders) == 2  # a shared first place: the page says so


def test_e3_before_the_first_card_nobody_is_on_a_podium_or_leads():
    """Issue 30: before any game every entrant was "1= (shared)" in their category's top three."""
    board = leaderboard(_people("C", "C", "C"), [], categories=["C"], champion_category="C")

    assert board.categories == {"C": []} and board.leaders == [] and board.champions == []


def test_e3_nobody_is_champion_until_the_board_is_decided():
    people = _people("C", "C")
    tables = [BoardTable(1, ((1, 400), (2, 300)))]

    running = leaderboard(people, tables, categories=["C"], champion_category="C")
    final = leaderboard(people, tables, categories=["C"], champion_category="C", decided=True)

    assert [row.entrant.id for row in running.leaders] == [1] and running.champions == []
    assert [row.entrant.id for row in final.champions] == [1]


def test_e3_ties_on_total_go_to_wins_then_spread_then_the_high_game():
    people = _people("C", "C", "C", "C")
    tables = [
        BoardTable(1, ((1, 400), (3, 399))),  # 1 wins by 1
        BoardTable(1, ((2, 300), (4, 200))),
        BoardTable(2, ((1, 300), (4, 301))),
        BoardTable(2, ((2, 400), (3, 450))),
    ]
    board = leaderboard(people, tables, categories=["C"], champion_category="C")
    rows = {row.entrant.id: row for row in board.rows}
    assert rows[1].total == rows[2].total == 700 and rows[1].wins == rows[2].wins == 1
    assert rows[2].rank < rows[1].rank  # spread +50 beats 0


def test_e3_a_bye_scores_the_average_of_the_rounds_played_rounded_half_up():
    people = _people("C", "C")
    tables = [
        BoardTable(1, ((1, 301), (2, 300))),
        BoardTable(2, ((1, 400), (2, 250))),
        BoardTable(3, ((1, None),), bye=True),
    ]
    board = leaderboard(people, tables, categories=["C"], champion_category="C")
    first = board.rows[0]
    assert first.rounds[3] == 351 and first.total == 301 + 400 + 351  # (301 + 400) / 2 = 350.5
    assert first.wins == 3 and first.high == 400


def test_g9_a_table_of_three_counts_two_games_for_each_seat():
    people = _people("C", "C", "C")
    board = leaderboard(
        people,
        [BoardTable(1, ((1, 400), (2, 350), (3, 350)))],
        categories=["C"],
        champion_category=None,
    )
    rows = {row.entrant.id: row for row in board.rows}
    assert (rows[1].games, rows[1].wins, rows[1].spread) == (2, 2, 100)
    assert (rows[2].games, rows[2].wins, rows[2].spread) == (2, 0.5, -50)
    assert board.champions == []


def test_e3_an_entrant_who_left_keeps_their_scores_and_place():
    people = [
        BoardEntrant(1, 1, "Stays", "C"),
        BoardEntrant(2, 2, "Left early", "C", withdrawn=True),
    ]
    board = leaderboard(
        people, [BoardTable(1, ((1, 300), (2, 420)))], categories=["C"], champion_category="C"
    )
    assert board.rows[0].entrant.name == "Left early" and board.rows[0].entrant.withdrawn


def test_e5_a_short_team_sums_or_fills_each_empty_place_at_its_average():
    people = [
        BoardEntrant(1, 1, "A", "C", team="Acme"),
        BoardEntrant(2, 2, "B", "C", team="Acme"),
        BoardEntrant(3, 3, "C", "C", team="Bolt"),
    ]
    tables = [BoardTable(1, ((1, 301), (3, 200))), BoardTable(1, ((2, 300),), bye=False)]
    plain = leaderboard(people, tables[:1], categories=["C"], champion_category=None, team_size=4)
    assert {t.team: t.total for t in plain.teams} == {"Acme": 301, "Bolt": 200}
    filled = leaderboard(
        people,
        tables[:1],
        categories=["C"],
        champion_category=None,
        team_size=4,
        short_team="average_fill",
    )
    acme = next(t for t in filled.teams if t.team == "Acme")
    assert acme.filled == 2 and acme.total == 301 + 2 * 151  # (301 + 0) / 2 = 150.5 → 151
    with pytest.raises(ValueError, match="short_team"):
        leaderboard(people, [], categories=["C"], champion_category=None, short_team="max")
    with pytest.raises(ValueError, match="no entrant 9"):
        leaderboard(
            people, [BoardTable(1, ((9, 300), (1, 200)))], categories=["C"], champion_category=None
        )

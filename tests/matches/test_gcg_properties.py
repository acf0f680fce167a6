"""Property-based tests: random legal games survive write → parse → replay with the same
totals (G1, G4, G5, G6), and the reader never fails on arbitrary input except with GcgError."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.scrabble import (
    CHALLENGE_RULES,
    NORTH_AMERICAN,
    OUT_BONUS,
    STANDARD,
    GcgError,
    check_record,
    parse_gcg,
    write_gcg,
)
from matches.scrabble.gcg import END_RACK_POINTS
from tests.matches.scrabble_simulate import random_game


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    rule=st.sampled_from([NORTH_AMERICAN, STANDARD, OUT_BONUS]),
    challenge_rule=st.sampled_from(CHALLENGE_RULES),
)
def test_g4_random_legal_games_replay_to_the_same_totals(seed, players, rule, challenge_rule):
    """Games of two to four players (G9), under every end-of-game rule that writes lines (G1)
    and every challenge rule, checked against that challenge rule (G5)."""
    game = random_game(
        random.Random(seed), players=players, end_rule=rule, challenge_rule=challenge_rule
    )
    record = parse_gcg(write_gcg(game))
    assert record == game
    report = check_record(record, verify=True, challenge_rule=challenge_rule)
    assert [str(problem) for problem in report.problems] == []
    assert report.final_totals == game.final_totals()
    went_out = [e for e in game.events if e.kind == END_RACK_POINTS and e.change]
    if went_out:
        assert report.end_rule == rule  # G1: the rule can be told from the going-out line


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_reader_never_crashes_on_arbitrary_bytes(data):
    try:
        record = parse_gcg(data)
    except GcgError as error:
        assert error.line >= 1
        return
    report = check_record(record, verify=True)  # a readable record can always be checked
    assert set(report.final_totals) == set(record.nicknames)


_FRAGMENTS = st.sampled_from(
    [
        "#player1 a A", "#player2 b B", "#player3 c C", "#note", "#rack1 AB", "#incomplete",
        "#character-encoding UTF-8", ">a:", ">b:", ">c:", "AB", "?E", "8H", "h8", "8Z", "Q.Z",
        "aB.", "-", "--", "-AB", "-3", "-9", "(challenge)", "(time)", "(QZ)", "()", "+0",
        "+12", "-7", "12", "0", "-5", "99999999999999999999", "A1", "O15", "15O", "ÆØ", "\t",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    header=st.booleans(),
    lines=st.lists(st.lists(_FRAGMENTS, max_size=8).map(" ".join), max_size=12),
)
def test_reader_and_checker_never_crash_on_gcg_like_text(header, lines):
    text = "\n".join((["#player1 a A", "#player2 b B"] if header else []) + lines)
    try:
        record = parse_gcg(text)
    except GcgError as error:
        assert str(error).startswith(f"line {error.line}: ")
        return
    for verify in (False, True):
        report = check_record(record, verify=verify)
        assert all(problem.line >= 1 for problem in report.problems)

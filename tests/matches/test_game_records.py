"""Issue 6, in the app: a report may carry its GCG game record. The reported scores must agree
with the record's final totals under the league's end-of-game rule (G1), converting a record
kept under another rule; the match page replays the game move by move; a dispute can point at a
move. Tables of three and four are compared seat by seat (G9), and the league's challenge rule
reaches the replay (G5). Records here are written for these tests, inline or in
tests/fixtures/gcg/ (the corpus stays outside the project)."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from matches.game_records import (
    MAX_RECORD_BYTES,
    RecordError,
    SeatName,
    board_after,
    compare_with_report,
    moves,
    read_record,
)
from matches.models import Dispute, MatchStatus, ResultReport
from matches.scrabble.tiles import rack_value
from matches.services import MatchError, report_dispute, report_submit, rule
from tests.matches.scrabble_simulate import rows_game
from tests.support import GCG_FIXTURES, NORTH_AMERICAN_RECORD, STANDARD_RECORD, submitted_report

SEATS = [SeatName("Rowan Pemberton", "Rowan"), SeatName("Sage Okafor", "Sage")]


def compare(text, rule, reported, reporter=1, seats=SEATS):
    return compare_with_report(
        *read_record(text), league_rule=rule, seats=seats, reported=reported, reporter=reporter
    )


# --- Comparing a record with the report (G1) --------------------------------------------------


def test_g1_a_record_under_the_leagues_own_rule_is_taken_as_it_is():
    result = compare(STANDARD_RECORD, "standard", [36, 45])
    assert result.totals == [36, 45]
    assert result.conversion == ""
    assert result.differences == []
    assert result.pre_adjustment == [38, 43]
    assert result.tiles_left == ["EI", ""]


def test_g1_a_north_american_record_is_converted_to_the_standard_rule_and_says_so():
    """Going out earned +2 × 2 in the record; under the standard rule it earns +2 and Rowan
    loses 2."""
    result = compare(NORTH_AMERICAN_RECORD, "standard", [36, 45])
    assert result.totals == [36, 45]
    assert result.recorded_totals == [38, 47]
    assert "North-American rule" in result.conversion
    assert "sage 47 → 45" in result.conversion and "rowan 38 → 36" in result.conversion
    assert result.differences == []


def test_g1_a_standard_record_is_converted_to_the_north_american_rule():
    result = compare(STANDARD_RECORD, "north_american", [38, 47])
    assert result.totals == [38, 47]
    assert "standard rule" in result.conversion
    assert result.differences == []


def test_g1_a_league_without_adjustment_takes_the_scores_before_the_unplayed_tiles():
    result = compare(NORTH_AMERICAN_RECORD, "none", [38, 43])
    assert result.totals == [38, 43]
    assert result.differences == []


def test_the_players_are_seated_by_name_whatever_the_records_order():
    """The record lists Sage first; Rowan sits in seat 1."""
    assert compare(STANDARD_RECORD, "standard", [36, 45]).player_of_seat == [1, 0]


def test_without_matching_names_the_seating_follows_the_scores():
    strangers = [SeatName("Ira Vance", "Ira"), SeatName("Juno Marsh", "Juno")]
    result = compare(STANDARD_RECORD, "standard", [36, 45], seats=strangers)
    assert result.player_of_seat == [1, 0]
    assert result.differences == []


def test_the_winner_entering_the_records_own_rule_totals_is_told_about_the_right_seats():
    """The known bug: without names to go by and with neither score equal to the converted
    totals (Sage, seat 2, entered the North-American totals 38 and 47), the seating fell back
    to the record's order and the message gave Sage Rowan's total. The seating closest to the
    scores entered is taken instead."""
    strangers = [SeatName("Ira Vance", "Ira"), SeatName("Juno Marsh", "Juno")]
    result = compare(NORTH_AMERICAN_RECORD, "standard", [38, 47], reporter=1, seats=strangers)
    assert result.player_of_seat == [1, 0]
    assert result.differences == [
        "Your score differs from the game record: you entered 47, the record's final total "
        "for sage is 45.",
        "Your opponent's score differs from the game record: you entered 38, the record's "
        "final total for rowan is 36.",
    ]


def test_the_record_of_a_winner_under_a_handle_names_the_winners_own_total():
    """Issue 17's report: Emery, who won, attached a record that calls him by a handle (jvc)
    and his opponent by a name no seat has, and mistyped his own score; the message gave him
    the opponent's total ("the record's final total for Paula"). The winner reports (L7), so
    the record's winner sits in his seat whatever the distances say."""
    text = (
        STANDARD_RECORD.replace("#player1 sage Sage Okafor", "#player1 jvc jvc")
        .replace(">sage:", ">jvc:")
        .replace("#player2 rowan Rowan Pemberton", "#player2 paula Paula")
    )
    text = text.replace(">rowan:", ">paula:")
    seats = [SeatName("Emery Quill", "Emery"), SeatName("Tamsin Hale", "Tamsin")]
    # The record: jvc (Emery) 45, Paula 36. Emery typed 36 for himself and 35 for Tamsin: his
    # 36 equals Paula's total, which put Paula in his seat.
    result = compare(text, "standard", [36, 35], reporter=0, seats=seats)
    assert result.player_of_seat == [0, 1]
    assert result.differences[0] == (
        "Your score differs from the game record: you entered 36, the record's final total "
        "for jvc is 45."
    )


def test_a_name_that_fits_one_seat_places_the_other_player_too():
    """Rowan is named; the record calls Sage by a handle no seat has."""
    text = STANDARD_RECORD.replace("#player1 sage Sage Okafor", "#player1 qzx99 qzx99").replace(
        ">sage:", ">qzx99:"
    )
    result = compare(text, "standard", [100, 200])
    assert result.player_of_seat == [1, 0]
    assert result.differences[0].endswith("the record's final total for qzx99 is 45.")


def test_a_differing_score_is_named_from_the_reporters_side():
    result = compare(STANDARD_RECORD, "standard", [36, 47], reporter=1)
    assert result.differences == [
        "Your score differs from the game record: you entered 47, the record's final total "
        "for sage is 45."
    ]
    result = compare(STANDARD_RECORD, "standard", [30, 45], reporter=1)
    assert result.differences[0].startswith("Your opponent's score differs")
    assert "you entered 30" in result.differences[0]


def test_a_mis_scored_move_is_found_by_the_replay_and_named_by_its_line():
    """G4: WINDY at 8D is worth 32 (double word on D8); the record says 30."""
    text = STANDARD_RECORD.replace("WINDY +32 32", "WINDY +30 30").replace(
        ".OUTERS +11 43", ".OUTERS +11 41"
    )
    text = text.replace("- +0 43", "- +0 41").replace("(EI) +2 45", "(EI) +2 43")
    result = compare(text, "standard", [36, 43])
    assert result.differences == []
    assert [(problem.line, "scores 32" in problem.message) for problem in result.problems] == [
        (3, True)
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#player1 a A\n#player2 b B\n>a: XYZ 8H ZZ9 +1 1\n", "line 3"),
        ("#player1 a A\n#player2 b B\n", "no moves"),
        ("#" + "x" * MAX_RECORD_BYTES, "KB"),
    ],
)
def test_a_record_that_cannot_be_used_is_refused_with_its_reason(text, message):
    with pytest.raises(RecordError, match=message):
        read_record(text.encode())


def test_the_board_after_a_move_holds_exactly_the_tiles_played_so_far():
    _, record = read_record(STANDARD_RECORD)
    rows, new = board_after(record, 1)
    letters = "".join(square.letter for row in rows for square in row)
    assert letters == "WINDY"
    assert len(new) == 5
    rows, new = board_after(record, 6)  # the phony is on the board ...
    assert rows[11][4].letter == "D"
    rows, new = board_after(record, 7)  # ... until it is withdrawn
    assert rows[11][4].letter == ""
    assert new == set()
    listed = moves(record)
    assert [move.scoreline for move in listed][-1] == "sage 45, rowan 36"


# --- Tables of three and four (G9) -----------------------------------------------------------

FIXTURES = GCG_FIXTURES
# Sam, Ines and Theo (003 rules): Sam gains the club's 10 for a successful challenge; the game
# ends by passes and each loses their own tiles. Final 47, 12, 2.
CLUB_THREE = (FIXTURES / "club_night_three_players.gcg").read_text()
CLUB_THREE_SEATS = [
    SeatName("Sam Whitaker", "Sam"),
    SeatName("Ines Duarte", "Ines"),
    SeatName("Theo Marsh", "Theo"),
]
# Mara 36, Jo 12, Lev 5, Nia 9 when twelve passes end the game; then each loses their tiles.
CLUB_FOUR = (FIXTURES / "club_night_four_players_passes.gcg").read_text()
# Seated in another order than the record's.
FOUR_SEATS = [
    SeatName("Nia Brandt", "Nia"),
    SeatName("Lev Antal", "Lev"),
    SeatName("Mara Quist", "Mara"),
    SeatName("Jo Okonkwo", "Jo"),
]


def test_g9_a_table_of_four_is_compared_seat_by_seat():
    result = compare(CLUB_FOUR, "standard", [-20, -12, 28, 4], reporter=2, seats=FOUR_SEATS)
    assert result.differences == []
    assert result.player_of_seat == [3, 2, 0, 1]
    assert result.totals == [-20, -12, 28, 4]
    assert result.pre_adjustment == [9, 5, 36, 12]
    assert result.tiles_left == ["IKNPQUX", "EEFGUWY", "AGIOSTU", "AADELRT"]
    assert result.problems == []


def test_g9_a_differing_score_at_a_table_of_four_names_that_seat():
    result = compare(CLUB_FOUR, "standard", [-20, -10, 29, 4], reporter=2, seats=FOUR_SEATS)
    assert result.differences == [
        "Your score differs from the game record: you entered 29, the record's final total "
        "for mara is 28.",
        "Lev Antal's score differs from the game record: you entered -10, the record's final "
        "total for lev is -12.",
    ]


@pytest.mark.parametrize(
    ("text", "seats", "message"),
    [
        (CLUB_THREE, FOUR_SEATS, "The game record has 3 players; this match has 4 seats."),
        (CLUB_FOUR, SEATS, "The game record has 4 players; this match has 2 seats."),
        (
            STANDARD_RECORD,
            CLUB_THREE_SEATS,
            "The game record has 2 players; this match has 3 seats.",
        ),
    ],
)
def test_g9_a_record_of_another_number_of_players_than_seats_says_so(text, seats, message):
    result = compare(text, "standard", [0] * len(seats), reporter=0, seats=seats)
    assert result.differences == [message]
    assert result.totals == []


def test_g1_an_out_bonus_league_undoes_the_deductions_of_a_game_ended_by_passes():
    """Document 004 as read here: nobody loses their own tiles, and nobody went out."""
    result = compare(CLUB_FOUR, "out_bonus", [9, 5, 36, 12], reporter=2, seats=FOUR_SEATS)
    assert result.differences == []
    assert "deducting each player's own tiles" in result.conversion
    assert "mara 28 → 36" in result.conversion and "out-bonus rule" in result.conversion


def _brin_went_out(factor: int, deduct: bool) -> tuple[str, dict, str, str]:
    """Ada, Brin and Cy empty the bag (91 tiles placed); Brin goes out, gaining ``factor`` ×
    Ada's four tiles and Cy's five, each on its own line; with ``deduct`` they lose them."""
    text, left, totals, _ = rows_game(
        [7] * 13, "#player1 ada Ada Quill\n#player2 brin Brin Tamsworth\n#player3 cy Cy Osei\n"
    )
    ada, cy = "".join(left[:4]), "".join(left[4:])
    brin = totals["brin"]
    for tiles in (ada, cy):
        brin += factor * rack_value(tiles)
        text += f">brin: ({tiles}) +{factor * rack_value(tiles)} {brin}\n"
    if deduct:
        text += f">ada: {ada} ({ada}) -{rack_value(ada)} {totals['ada'] - rack_value(ada)}\n"
        text += f">cy: {cy} ({cy}) -{rack_value(cy)} {totals['cy'] - rack_value(cy)}\n"
    return text, totals, ada, cy


TABLE_OF_THREE = [
    SeatName("Cy Osei", "Cy"),
    SeatName("Ada Quill", "Ada"),
    SeatName("Brin Tamsworth"),
]


def test_g1_a_table_of_three_kept_under_the_standard_rule_is_put_under_the_north_american():
    text, totals, ada, cy = _brin_went_out(factor=1, deduct=True)
    gained = 2 * rack_value(ada + cy)
    reported = [totals["cy"], totals["ada"], totals["brin"] + gained]
    result = compare(text, "north_american", reported, reporter=2, seats=TABLE_OF_THREE)
    assert result.differences == []
    assert result.tiles_left == [cy, ada, ""]
    assert "standard rule" in result.conversion


def test_g1_a_north_american_table_of_three_is_put_under_the_out_bonus_rule():
    text, totals, ada, cy = _brin_went_out(factor=2, deduct=False)
    reported = [totals["cy"], totals["ada"], totals["brin"] + rack_value(ada + cy)]
    result = compare(text, "out_bonus", reported, reporter=2, seats=TABLE_OF_THREE)
    assert result.differences == []
    assert "North-American rule" in result.conversion
    assert result.tiles_left == ["", "", ""]  # the record does not say whose tiles were whose


def test_g1_a_table_of_three_without_deductions_cannot_be_put_under_the_standard_rule():
    """The going-out lines name the tiles but not who held them: under the standard rule each
    player loses their own, so the record cannot say the final scores."""
    text, totals, ada, cy = _brin_went_out(factor=2, deduct=False)
    result = compare(text, "standard", [0, 0, 0], reporter=2, seats=TABLE_OF_THREE)
    assert result.differences == [
        f"The game record does not say which player held which of the unplayed tiles {ada + cy}, "
        "so its totals cannot be put under the standard rule: attach a record that deducts "
        "each player's own tiles, or report without it."
    ]


@pytest.mark.parametrize(
    ("challenge_rule", "problems"), [("club_bonus_to_challenger", 0), ("lose_turn", 1)]
)
def test_g5_the_leagues_challenge_rule_is_held_to_by_the_replay(challenge_rule, problems):
    """A bonus kept under another rule is marked on the move, as a mis-scored move is; the
    scores still agree with the record."""
    result = compare_with_report(
        *read_record(CLUB_THREE),
        league_rule="standard",
        challenge_rule=challenge_rule,
        seats=CLUB_THREE_SEATS,
        reported=[47, 12, 2],
        reporter=0,
    )
    assert result.differences == []
    assert len(result.problems) == problems
    assert all("kept under another challenge rule" in p.message for p in result.problems)
    assert all(problem.line == 10 for problem in result.problems)


# --- Reporting with a record ----------------------------------------------------------------


def test_a_report_with_a_converted_record_stores_it_and_fills_the_scores_before_tiles(
    match, opponent
):
    """G1, G2: the record gives the scores before the unplayed tiles for the tie-break."""
    report = report_submit(
        actor=opponent.user,
        match=match,
        scores=[36, 45],
        unusual_confirmed=True,
        game_record=NORTH_AMERICAN_RECORD.encode("latin-1"),
    )
    report.refresh_from_db()
    assert report.game_record == NORTH_AMERICAN_RECORD
    assert "converted" in report.game_record_note
    lines = list(report.scores.order_by("order"))
    assert [line.pre_adjustment for line in lines] == [38, 43]
    assert [line.tiles_left for line in lines] == ["EI", ""]


def test_a_report_that_disagrees_with_its_record_changes_nothing(match, opponent):
    with pytest.raises(MatchError, match="Your opponent's score differs"):
        report_submit(
            actor=opponent.user,
            match=match,
            scores=[38, 45],  # the North-American total, not this league's
            unusual_confirmed=True,
            game_record=NORTH_AMERICAN_RECORD,
        )
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert not ResultReport.objects.exists()
    assert not match.audit_events.exclude(action="created").exists()


def test_a_score_before_tiles_that_disagrees_with_the_record_is_refused(match, opponent):
    with pytest.raises(MatchError, match="before unplayed tiles differs"):
        report_submit(
            actor=opponent.user,
            match=match,
            scores=[36, 45],
            pre_adjustment=[None, 44],
            unusual_confirmed=True,
            game_record=STANDARD_RECORD,
        )
    assert not ResultReport.objects.exists()


# --- Pages -------------------------------------------------------------------------------------


def _sage_reports_with_the_record(match, sage):
    """Sage (second seat) won 45-36 and reports it with STANDARD_RECORD."""
    return submitted_report(
        match,
        by=sage,
        scores=[36, 45],
        unusual_confirmed=True,
        game_record=STANDARD_RECORD,
    )


def _upload(text, name="game.gcg"):
    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def _post_report(client, match, my_score: int, opponent_score: int = 36, **fields):
    """The report form posted by the logged-in player; ``fields`` add to or drop (None) the
    usual ones."""
    mine = match.seats.get(player__user_id=client.session["_auth_user_id"]).order
    scores = (my_score, opponent_score) if mine == 1 else (opponent_score, my_score)
    data = {
        "score_1": scores[0],
        "score_2": scores[1],
        "ended_by": "went_out",
        "unusual_confirmed": "on",
        **fields,
    }
    return client.post(
        reverse("match_report", args=[match.pk]),
        {key: value for key, value in data.items() if value is not None},
    )


def _report_with_record(client, match, record: str, my_score: int, opponent_score: int = 36):
    """The report form with a game record attached."""
    return _post_report(client, match, my_score, opponent_score, game_record=_upload(record))


def test_the_report_form_takes_a_gcg_file_and_the_match_page_replays_it(client, match, opponent):
    client.force_login(opponent.user)
    response = _report_with_record(client, match, STANDARD_RECORD, 45)
    assert response.status_code == 302
    page = client.get(reverse("match_detail", args=[match.pk]), {"move": 3})
    html = page.content.decode()
    assert 'id="game"' in html
    assert "After move 3" in html and "H8 .OUTERS +11" in html
    assert '<li aria-current="step" data-move="3">' in html
    assert 'class="problem"' not in html  # the replay found nothing wrong
    assert html.count("filled new") == 6  # OUTERS, through the Y already there
    final = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "After move 9" in final and "sage 45, rowan 36" in final


def test_a_mismatched_record_re_renders_the_form_saying_which_score(client, match, opponent):
    client.force_login(opponent.user)
    response = _report_with_record(client, match, NORTH_AMERICAN_RECORD, 47)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your score differs from the game record: you entered 47" in html
    assert "North-American rule" in html
    assert not ResultReport.objects.exists()


def test_an_unreadable_file_names_its_line(client, match, opponent):
    client.force_login(opponent.user)
    response = _report_with_record(
        client, match, STANDARD_RECORD.replace("8D WINDY", "8D W1NDY"), 45
    )
    assert response.status_code == 200
    assert "line 3" in response.content.decode()
    assert not ResultReport.objects.exists()


def test_l9_a_dispute_points_at_a_move_and_the_director_sees_it(
    client, match, player, opponent, director
):
    report = _sage_reports_with_the_record(match, opponent)
    client.force_login(player.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'name="move"' in page and "4. rowan: I9 AX +22" in page
    response = client.post(
        reverse("match_dispute", args=[match.pk, report.pk]),
        {"score_1": 40, "score_2": 45, "move": 4, "note": "AX was on a triple."},
    )
    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert dispute.move == 4
    html = client.get(reverse("match_detail", args=[match.pk]), {"move": 4}).content.decode()
    assert "status-disputed" in html

    client.force_login(director.user)
    ruling = client.get(reverse("admin:matches_dispute_resolve", args=[dispute.pk]))
    assert "points at move 4" in ruling.content.decode()
    queue = client.get(reverse("admin:matches_dispute_changelist"), {"state": "open"})
    assert "move 4 of the game record" in queue.content.decode()


@pytest.mark.parametrize(
    ("resolution", "shown"), [(Dispute.Resolution.UPHELD, True), (Dispute.Resolution.REPLAY, False)]
)
def test_l9_the_record_stays_on_the_match_page_after_a_ruling_but_not_after_a_replay(
    client, match, player, opponent, director, resolution, shown
):
    """A ruling supersedes the reports it decides; their game record is still the game played,
    unless the director ordered the match replayed."""
    report = _sage_reports_with_the_record(match, opponent)
    dispute = report_dispute(actor=player.user, report=report, scores=[40, 45], note="AX?", move=4)
    rule(
        actor=director.user,
        match=match,
        dispute=dispute,
        ruling=resolution,
        reason="Checked.",
        new_deadline=match.deadline + timedelta(days=7),
    )
    client.force_login(player.user)
    html = client.get(reverse("match_detail", args=[match.pk]), {"move": 4}).content.decode()
    assert ('id="game"' in html) is shown
    assert ("After move 4" in html) is shown


def test_a_dispute_cannot_point_past_the_records_last_move(match, player, opponent):
    report = _sage_reports_with_the_record(match, opponent)
    with pytest.raises(MatchError, match="moves 1 to 9"):
        report_dispute(actor=player.user, report=report, scores=[40, 45], note="x", move=12)
    assert not Dispute.objects.exists()


@pytest.mark.parametrize("move", ["0", "5", "abc", "999"])
def test_the_match_page_with_a_record_runs_a_constant_number_of_queries(
    client, match, opponent, move, django_assert_num_queries
):
    _sage_reports_with_the_record(match, opponent)
    client.force_login(opponent.user)
    # The match page's queries (test_match_pages), with the report's scores and disputes.
    with django_assert_num_queries(10):
        response = client.get(reverse("match_detail", args=[match.pk]), {"move": move})
    assert response.status_code == 200


def test_a_refused_report_keeps_its_game_record_for_the_next_try(client, match, opponent):
    """A browser never fills a file input in again; the form carries the record instead."""
    client.force_login(opponent.user)
    first = _post_report(
        client, match, 45, unusual_confirmed=None, game_record=_upload(STANDARD_RECORD)
    )
    assert first.status_code == 200  # scores under 100 need "yes, really"
    form = first.context["report_form"]
    kept = form["game_record_kept"].value()
    assert kept and "kept with this form" in first.content.decode()
    second = _post_report(client, match, 45, game_record_kept=kept)
    assert second.status_code == 302
    assert ResultReport.objects.get().game_record == STANDARD_RECORD


def test_a_damaged_kept_record_is_refused_with_a_message(client, match, opponent):
    client.force_login(opponent.user)
    response = _post_report(client, match, 45, game_record_kept="not base64!")
    assert response.status_code == 200
    assert "was damaged: attach the file again" in response.content.decode()
    assert not ResultReport.objects.exists()

"""Issue 6, in the app: a report may carry its GCG game record. The reported scores must agree
with the record's final totals under the league's end-of-game rule (G1), converting a record
kept under another rule; the match page replays the game move by move; a dispute can point at a
move. Records here are written for these tests (the corpus stays outside the project)."""

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
from matches.services import MatchError, report_dispute, report_submit, rule
from tests.factories import submitted_report

# Sage (the opponent fixture, seat 2) moves first and goes out; Rowan (seat 1) is left with EI.
# Move 6 is a phony Rowan takes back; move 8 scores the unplayed tiles.
MOVES = """\
#player1 sage Sage Okafor
#player2 rowan Rowan Pemberton
>sage: DINNVWY 8D WINDY +32 32
>rowan: ADEEGIL 7C GALE +16 16
>sage: ENORSTU H8 .OUTERS +11 43
>rowan: ADEIIXZ I9 AX +22 38
>sage: ABCNU?E - +0 43
>rowan: DEIIZ?? 12E DIZ. +14 52
>rowan: DEIIZ?? -- -14 38
"""
# North-American rule: the player who went out gains twice the other's tiles (E + I = 2).
NORTH_AMERICAN_RECORD = MOVES + ">sage: (EI) +4 47\n"
# Standard rule: she gains them once, he loses them.
STANDARD_RECORD = MOVES + ">sage: (EI) +2 45\n>rowan: EI (EI) -2 36\n"

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
        ("#player1 a A\n#player2 b B\n#player3 c C\n>a: ABC 8H CAB +14 14\n", "3 players"),
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
    client, match, opponent, move, django_assert_max_num_queries
):
    _sage_reports_with_the_record(match, opponent)
    client.force_login(opponent.user)
    with django_assert_max_num_queries(11):
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

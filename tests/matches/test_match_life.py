"""The life of a match through its services: scheduling (L1, L2, L4), can't reach (L5),
reporting (L6, L7, G2, G3), confirming and disputing (L9). The director's rulings are in
test_rulings.py."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.errors import NotEligible
from accounts.services import eligibility_rule
from core.errors import NotAllowed
from matches.models import (
    AuditEvent,
    Dispute,
    GameEnd,
    MatchStatus,
    ReportStatus,
    ResultReport,
)
from matches.services import (
    MatchError,
    UnusualScores,
    confirm_stale_reports,
    equipment_agree,
    proposal_accept,
    proposal_create,
    report_confirm,
    report_dispute,
)
from tests.support import (
    confirmed_game,
    eligible_student,
    match_between,
    open_dispute,
    submitted_report,
)


def soon(hours=24):
    return (timezone.now() + timedelta(hours=hours)).replace(second=0, microsecond=0)


def seats(match):
    return {seat.order: seat for seat in match.seats.all()}


# --- Scheduling ----------------------------------------------------------------------------------


def test_l1_a_player_proposes_times_and_the_opponent_accepts_one(
    match, player, opponent, league, django_capture_on_commit_callbacks
):
    # Taken once: soon() read again after a minute turns over would name other times.
    tomorrow, later, day_after = soon(24), soon(30), soon(48)
    with django_capture_on_commit_callbacks(execute=True):
        proposal = proposal_create(
            actor=player.user, match=match, times=[later, tomorrow, day_after]
        )
    assert [t.starts_at for t in proposal.times.all()] == [tomorrow, later, day_after]
    assert mail.outbox[-1].to == [opponent.user.email]

    with django_capture_on_commit_callbacks(execute=True):
        proposal_accept(actor=opponent.user, proposal=proposal, starts_at=later)

    match.refresh_from_db()
    assert (match.status, match.scheduled_at) == (MatchStatus.SCHEDULED, later)
    assert match.venue == league.venue  # L2: always the league's venue
    assert mail.outbox[-1].to == [player.user.email]


def test_l1_a_counter_proposal_replaces_the_open_one(match, player, opponent):
    first = proposal_create(actor=player.user, match=match, times=[soon(24)])
    proposal_create(actor=opponent.user, match=match, times=[soon(50)])
    first.refresh_from_db()
    assert first.status == "superseded"
    with pytest.raises(MatchError, match="no longer open"):
        proposal_accept(actor=opponent.user, proposal=first, starts_at=soon(24))


def test_l1_nobody_accepts_their_own_proposal_and_only_listed_times(match, player, opponent):
    proposal = proposal_create(actor=player.user, match=match, times=[soon(24)])
    with pytest.raises(MatchError, match="Your opponent accepts"):
        proposal_accept(actor=player.user, proposal=proposal, starts_at=soon(24))
    with pytest.raises(MatchError, match="Pick one of the proposed times"):
        proposal_accept(actor=opponent.user, proposal=proposal, starts_at=soon(25))


@pytest.mark.parametrize(
    ("times", "message"),
    [
        (lambda: [soon(-1)], "in the past"),
        (lambda: [soon(24 * 30)], "after the match's deadline"),
        (lambda: [soon(1), soon(2), soon(3), soon(4)], "at most 3"),
        (lambda: [], "at least one"),
    ],
)
def test_bad_proposals_are_refused_and_change_nothing(match, player, times, message):
    with pytest.raises(MatchError, match=message):
        proposal_create(actor=player.user, match=match, times=times())
    assert not match.proposals.exists()


def test_a_time_outside_the_season_is_refused(match, player, season):
    season.ends_on = timezone.localdate() + timedelta(days=1)
    season.save()
    with pytest.raises(MatchError, match="outside the season"):
        proposal_create(actor=player.user, match=match, times=[soon(24 * 4)])


def test_l10_an_ineligible_entrant_cannot_be_scheduled(match, player, opponent, director, season):
    # Ruled back to pending: a ruling of ineligible would settle the match as a forfeit at once.
    eligibility_rule(
        actor=director.user, profile=opponent, season=season, status="pending", reason="Re-check"
    )
    with pytest.raises(NotEligible):
        proposal_create(actor=player.user, match=match, times=[soon(24)])


def test_only_the_players_schedule_their_match(match, staff, director, outsider):
    for actor in (staff.user, director.user, outsider.user):
        with pytest.raises(NotAllowed):
            proposal_create(actor=actor, match=match, times=[soon(24)])


def test_no_proposals_on_a_finished_match(match, player, opponent):
    confirmed_game(match, winner=player, loser=opponent)
    with pytest.raises(MatchError, match="no longer propose"):
        proposal_create(actor=player.user, match=match, times=[soon(24)])


def test_l4_another_dictionary_holds_only_once_both_players_agree(match, player, opponent):
    """L4: both must agree; one player alone only proposes."""
    equipment_agree(actor=opponent.user, match=match, description="Opponent's deluxe board, OSPD6")
    match.refresh_from_db()
    assert match.agreed_equipment == "" and match.equipment_proposed.startswith("Opponent's")
    assert AuditEvent.objects.filter(match=match, action="equipment_proposed").exists()
    equipment_agree(actor=opponent.user, match=match)  # agreeing with oneself changes nothing
    match.refresh_from_db()
    assert match.agreed_equipment == ""
    equipment_agree(actor=player.user, match=match)  # the other player agrees to it as written
    match.refresh_from_db()
    assert match.agreed_equipment == "Opponent's deluxe board, OSPD6"
    assert match.equipment_proposed == "" and match.equipment_agreed_by == []
    assert AuditEvent.objects.filter(match=match, action="equipment_agreed").exists()


def test_l4_a_different_proposal_replaces_the_one_waiting(match, player, opponent):
    equipment_agree(actor=opponent.user, match=match, description="A travel board")
    equipment_agree(actor=player.user, match=match, description="Collins 2024")
    match.refresh_from_db()
    assert match.equipment_proposed == "Collins 2024" and match.agreed_equipment == ""
    equipment_agree(actor=opponent.user, match=match)
    match.refresh_from_db()
    assert match.agreed_equipment == "Collins 2024"


# --- Reporting ------------------------------------------------------------------------------------


def test_l7_the_winner_reports_and_the_opponent_is_asked_to_confirm(
    match, player, opponent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submitted = submitted_report(match, by=player, scores=[420, 380], ended_by="went_out")
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    assert submitted.confirm_by == submitted.submitted_at + timedelta(hours=48)
    assert mail.outbox[-1].to == [opponent.user.email]
    assert "Confirm" in mail.outbox[-1].subject


def test_l7_a_submitter_whose_scores_say_they_lost_is_told_to_let_the_winner_report(
    match, opponent
):
    with pytest.raises(MatchError, match="the winner reports"):
        submitted_report(match, by=opponent, scores=[420, 380])
    assert not ResultReport.objects.exists()


def test_g2_a_tie_on_final_score_goes_to_the_higher_score_before_adjustment(
    match, player, opponent
):
    tied = {"scores": [400, 400]}
    before_tiles = {"pre_adjustment": [390, 395]}
    with pytest.raises(MatchError, match="the winner reports"):
        submitted_report(match, by=player, **tied, **before_tiles)
    submitted_report(match, by=opponent, **tied, **before_tiles)
    report_confirm(actor=player.user, report=ResultReport.objects.get())
    s = seats(match)
    assert (s[1].outcome, s[2].outcome) == ("loss", "win")


def test_g2_only_an_exact_tie_on_both_is_a_tie_and_either_may_report_it(match, player, opponent):
    submitted_report(match, by=opponent, scores=[400, 400])
    report_confirm(actor=player.user, report=ResultReport.objects.get())
    assert {s.outcome for s in seats(match).values()} == {"tie"}


def test_g2_g3_a_tie_reported_with_the_ending_and_the_tiles_left_goes_to_the_score_before_them(
    match, player, opponent
):
    """400-400, the opponent went out (no tiles left) and the player held Q and I: under the
    standard rule the player had 400 + 11 = 411 before the tiles and the opponent 400 - 11 =
    389, so the player won (G2). It was recorded as a tie when the report gave no scores before
    the tiles."""
    assert match.league.end_of_game_rule == "standard"
    submitted_report(match, by=player, scores=[400, 400], tiles_left=["QI", ""])
    report_confirm(actor=opponent.user, report=ResultReport.objects.get())

    s = seats(match)
    assert (s[1].outcome, s[2].outcome) == ("win", "loss")
    assert (s[1].pre_adjustment_score, s[2].pre_adjustment_score) == (411, 389)


def test_g2_g3_the_loser_of_the_derived_tie_break_may_not_report(match, player, opponent):
    with pytest.raises(MatchError, match="the winner reports"):
        submitted_report(match, by=opponent, scores=[400, 400], tiles_left=["QI", ""])


def test_g2_g3_a_tie_ended_by_passes_uses_each_seats_tiles(match, player, opponent):
    """Nobody went out: each seat lost its own tiles, so the one who held more had more before."""
    submitted_report(
        match,
        by=player,
        scores=[350, 350],
        tiles_left=["QZ", "E"],
        ended_by="scoreless_turns",
    )
    report_confirm(actor=opponent.user, report=ResultReport.objects.get())
    s = seats(match)
    assert (s[1].pre_adjustment_score, s[2].pre_adjustment_score) == (370, 351)
    assert (s[1].outcome, s[2].outcome) == ("win", "loss")


def test_g2_g3_too_little_said_about_the_tiles_leaves_an_exact_tie(match, player, opponent):
    """Went out, but both seats left blank: who went out is unknown, so it stays a tie."""
    submitted_report(match, by=opponent, scores=[400, 400], tiles_left=["", ""])
    report_confirm(actor=player.user, report=ResultReport.objects.get())
    assert {s.outcome for s in seats(match).values()} == {"tie"}


def test_g3_tiles_left_are_letters_and_blanks(match, player):
    with pytest.raises(MatchError, match="letters, and \\? for a blank"):
        submitted_report(match, by=player, scores=[420, 380], tiles_left=["", "Q1"])
    assert not ResultReport.objects.exists()


def test_g3_an_unknown_ending_is_refused(match, player):
    with pytest.raises(MatchError, match="Say how the game ended"):
        submitted_report(match, by=player, scores=[420, 380], ended_by="resigned")
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert not ResultReport.objects.exists()
    assert not match.audit_events.exclude(action="created").exists()


@pytest.mark.parametrize("ending", GameEnd.values)
def test_g3_every_known_ending_is_kept_with_the_report(match, player, opponent, ending):
    report_confirm(
        actor=opponent.user,
        report=submitted_report(match, by=player, scores=[420, 380], ended_by=ending),
    )
    assert ResultReport.objects.get().ended_by == ending
    reported = AuditEvent.objects.get(match=match, action="reported")
    assert reported.after["report"]["ended_by"] == ending


@pytest.mark.parametrize(("first", "second"), [(-5, 300), (1501, 300), (400, -1)])
def test_impossible_scores_are_refused(match, player, first, second):
    with pytest.raises(MatchError):
        submitted_report(match, by=player, scores=[first, second])
    assert not ResultReport.objects.exists()


@pytest.mark.parametrize(("first", "second"), [(99, 80), (700, 250)])
def test_unusual_scores_need_an_explicit_yes_really(match, player, first, second):
    with pytest.raises(UnusualScores, match="yes, really"):
        submitted_report(match, by=player, scores=[first, second])
    submitted_report(match, by=player, scores=[first, second], unusual_confirmed=True)
    assert ResultReport.objects.count() == 1


def test_a_report_after_the_deadline_is_refused(match, player):
    with pytest.raises(MatchError, match="deadline for this match has passed"):
        submitted_report(match, by=player, now=match.deadline + timedelta(seconds=1))


def test_one_live_report_per_match_a_second_submission_is_refused(match, player):
    submitted_report(match, by=player)
    with pytest.raises(MatchError, match="already been reported"):
        submitted_report(match, by=player)
    assert ResultReport.objects.count() == 1


def test_one_live_report_per_match_is_a_database_constraint(match, player):
    from django.db import IntegrityError, transaction

    first = submitted_report(match, by=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultReport.objects.create(
            match=match,
            submitted_by=player,
            confirm_by=first.confirm_by,
        )


def test_l6_an_unconfirmed_report_is_not_yet_a_win(match, player):
    submitted_report(match, by=player)
    assert {s.outcome for s in seats(match).values()} == {""}


def test_l6_confirming_makes_the_result_count(match, player, opponent):
    submitted = submitted_report(match, by=player, scores=[420, 380])
    report_confirm(actor=opponent.user, report=submitted)
    match.refresh_from_db()
    s = seats(match)
    assert match.status == MatchStatus.CONFIRMED
    assert (s[1].score, s[1].outcome, s[2].score, s[2].outcome) == (420, "win", 380, "loss")


def test_the_submitter_cannot_confirm_their_own_report(match, player):
    with pytest.raises(MatchError, match="The other players confirm your report"):
        report_confirm(actor=player.user, report=submitted_report(match, by=player))


# --- Disputes (L9) -----------------------------------------------------------------------------------


def test_l9_the_opponent_disputes_with_their_version_and_the_point_of_discrepancy(
    match, player, opponent, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        raised = open_dispute(match, turn=12, scores_at_turn=[250, 262])
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    assert (raised.turn, raised.scores_at_turn) == (12, [250, 262])
    assert ResultReport.objects.get().status == ReportStatus.DISPUTED
    recipients = {address for message in mail.outbox for address in message.to}
    assert {player.user.email, director.user.email} <= recipients


def test_a_dispute_after_the_confirmation_window_is_refused(match, player, opponent):
    submitted = submitted_report(match, by=player)
    with pytest.raises(MatchError, match="window to dispute closed"):
        report_dispute(
            actor=opponent.user,
            report=submitted,
            scores=[1, 2],
            note="late",
            now=submitted.confirm_by + timedelta(minutes=1),
        )
    assert not Dispute.objects.exists()


# --- The nightly service ---------------------------------------------------------------------------


def test_reports_past_the_confirmation_window_are_confirmed_set_based(
    match, player, opponent, league, season, django_assert_max_num_queries
):
    others = [eligible_student(season) for _ in range(4)]
    second = match_between(league, others[0], others[1])
    tie = match_between(league, others[2], others[3])
    submitted_report(match, by=player)
    submitted_report(second, by=others[1], scores=[300, 350])
    submitted_report(tie, by=others[2], scores=[333, 333])
    later = timezone.now() + timedelta(hours=49)

    with django_assert_max_num_queries(10):
        assert len(confirm_stale_reports(now=later)) == 3

    assert confirm_stale_reports(now=later) == []  # idempotent
    assert [(s.score, s.outcome) for s in second.seats.order_by("order")] == [
        (300, "loss"),
        (350, "win"),
    ]
    assert {s.outcome for s in tie.seats.all()} == {"tie"}
    assert AuditEvent.objects.filter(action="auto_confirmed", actor=None).count() == 3


def test_a_report_still_in_its_window_is_not_auto_confirmed(match, player):
    submitted_report(match, by=player)
    assert confirm_stale_reports(now=timezone.now() + timedelta(hours=47)) == []


def test_l10_a_player_no_longer_eligible_cannot_report_a_win(
    match, player, opponent, director, season
):
    """Reporting asks what proposing and accepting ask: every seat eligible. The director ruled
    the winner back to pending (a ruling of ineligible would have forfeited the match)."""
    eligibility_rule(
        actor=director.user, profile=player, season=season, status="pending", reason="Re-check ID"
    )

    with pytest.raises(NotEligible, match="not yet eligible"):
        submitted_report(match, by=player, scores=[420, 300])
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert not ResultReport.objects.filter(match=match).exists()


def test_l10_a_winner_cannot_report_over_an_opponent_no_longer_eligible(
    match, player, opponent, director, season
):
    eligibility_rule(
        actor=director.user, profile=opponent, season=season, status="pending", reason="Re-check"
    )

    with pytest.raises(NotEligible):
        submitted_report(match, by=player, scores=[420, 300])
    assert not ResultReport.objects.filter(match=match).exists()

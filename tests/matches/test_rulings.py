"""The director's rulings through their one entry point, `rule` (L5, L8, L9): on a dispute, on a
can't-reach-opponent report, on any match; each with a reason, in the audit trail, told to both
players. Two rulings racing each other are in test_match_races.py."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from core.errors import NotAllowed
from matches.models import AuditEvent, ContactIssue, MatchStatus
from matches.services import MatchError, Ruling, contact_issue_report, rule
from tests.support import confirmed_game, open_dispute, submitted_report


def seats(match):
    return {seat.order: seat for seat in match.seats.all()}


@pytest.mark.parametrize(
    ("resolution", "extra", "status", "outcomes"),
    [
        ("upheld", {}, "resolved", ("win", "loss")),
        ("amended", {"scores": [400, 410]}, "resolved", ("loss", "win")),
        ("forfeit", {"forfeiting": [1]}, "forfeit", ("forfeit_loss", "forfeit_win")),
        ("double_forfeit", {}, "double_forfeit", ("double_forfeit", "double_forfeit")),
        ("replay", {"new_deadline": timezone.now() + timedelta(days=5)}, "unscheduled", ("", "")),
    ],
)
def test_l9_the_director_resolves_a_dispute_with_a_reason_and_both_players_are_told(
    match,
    player,
    opponent,
    director,
    resolution,
    extra,
    status,
    outcomes,
    django_capture_on_commit_callbacks,
):
    raised = open_dispute(match)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rule(
            actor=director.user,
            match=match,
            dispute=raised,
            ruling=resolution,
            reason="Score sheets compared",
            **extra,
        )
    match.refresh_from_db()
    raised.refresh_from_db()
    s = seats(match)
    assert match.status == status
    assert (s[1].outcome, s[2].outcome) == outcomes
    assert raised.resolved_by == director.user
    assert {m.to[0] for m in mail.outbox} == {player.user.email, opponent.user.email}
    event = AuditEvent.objects.filter(match=match).last()
    assert (event.actor, event.reason) == (director.user, "Score sheets compared")


def test_resolving_needs_a_reason_and_the_director(match, player, opponent, other_director):
    raised = open_dispute(match)
    with pytest.raises(MatchError, match="reason is required"):
        rule(actor=other_director.user, match=match, dispute=raised, ruling="upheld", reason=" ")
    with pytest.raises(NotAllowed):
        rule(actor=other_director.user, match=match, dispute=raised, ruling="upheld", reason="x")
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED


def test_a_confirmed_result_changes_only_through_the_director(match, player, opponent, director):
    confirmed_game(match, winner=player, loser=opponent, scores=(420, 380))
    with pytest.raises(MatchError):
        submitted_report(match, by=opponent, scores=[300, 420])
    rule(
        actor=director.user,
        match=match,
        ruling=Ruling.AMEND,
        scores=[380, 420],
        reason="Sheet error",
    )
    s = seats(match)
    assert (s[1].outcome, s[2].outcome) == ("loss", "win")
    events = list(AuditEvent.objects.filter(match=match).values_list("action", flat=True))
    assert events == ["created", "reported", "confirmed", "result_recorded"]


# --- Can't reach (L5) --------------------------------------------------------------------------------


def test_l5_cant_reach_goes_to_the_director_who_decides(
    match, player, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        issue = contact_issue_report(
            actor=player.user, match=match, attempts="Emailed Mon and Wed, texted Thu."
        )
    assert director.user.email in {m.to[0] for m in mail.outbox}
    with pytest.raises(MatchError, match="already has"):
        contact_issue_report(actor=player.user, match=match, attempts="Emailed again on Friday.")

    rule(
        actor=director.user,
        match=match,
        contact_issue=issue,
        ruling=Ruling.FORFEIT,
        forfeiting=[2],
        reason="Opponent never replied",
    )

    match.refresh_from_db()
    issue.refresh_from_db()
    assert match.status == MatchStatus.FORFEIT
    assert issue.resolved_at is not None and issue.resolved_by == director.user


def test_l5_the_director_can_extend_the_deadline_instead(match, player, director):
    issue = contact_issue_report(
        actor=player.user, match=match, attempts="Two emails, no answer yet."
    )
    later = match.deadline + timedelta(days=7)
    rule(
        actor=director.user,
        match=match,
        contact_issue=issue,
        ruling=Ruling.EXTEND,
        new_deadline=later,
        reason="Exam week",
    )
    match.refresh_from_db()
    assert match.deadline == later
    assert not ContactIssue.objects.filter(resolved_at__isnull=True).exists()


@pytest.mark.parametrize(
    ("on", "ruling", "message"),
    [
        ("dispute", Ruling.EXTEND, "not a ruling on a dispute"),
        ("contact_issue", Ruling.UPHOLD, "not a ruling on a can't-reach-opponent report"),
        ("match", Ruling.UPHOLD, "not a ruling on a match"),
    ],
)
def test_each_kind_of_ruling_offers_only_its_own_decisions(
    match, player, director, on, ruling, message
):
    """A dispute is upheld, amended, replayed or forfeited (L9); a can't-reach report extended,
    forfeited or replayed (L5); the list is `RULINGS_ON`, which the admin's forms offer."""
    subject = {}
    if on == "dispute":
        subject["dispute"] = open_dispute(match)
    elif on == "contact_issue":
        subject["contact_issue"] = contact_issue_report(
            actor=player.user, match=match, attempts="Texted twice, no reply."
        )
    with pytest.raises(MatchError, match=message):
        rule(actor=director.user, match=match, ruling=ruling, reason="x", **subject)
    assert not AuditEvent.objects.filter(match=match, actor=director.user).exists()


@pytest.mark.parametrize(
    ("ruling", "details", "message"),
    [
        (Ruling.FORFEIT, {}, "Pick the seats that forfeit"),
        (Ruling.FORFEIT, {"forfeiting": [3]}, "This match has seats 1, 2"),
        (Ruling.FORFEIT, {"forfeiting": [1, 2]}, "rule that instead"),
        (Ruling.AMEND, {"scores": [400]}, "give a score for each"),
        (Ruling.AMEND, {"scores": [400, None]}, "missing: seat 2"),
        (Ruling.AMEND, {"scores": [1600, 300]}, "above 1500"),
        (Ruling.REPLAY, {}, "Give the new deadline"),
        (Ruling.EXTEND, {"new_deadline": timezone.now() - timedelta(days=1)}, "in the future"),
    ],
)
def test_a_ruling_missing_what_it_needs_is_refused_and_changes_nothing(
    match, director, ruling, details, message
):
    with pytest.raises(MatchError, match=message):
        rule(actor=director.user, match=match, ruling=ruling, reason="Checked.", **details)
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert not AuditEvent.objects.filter(match=match).exclude(action="created").exists()


def test_l5_a_decided_cant_reach_report_is_not_decided_again(match, player, director):
    issue = contact_issue_report(actor=player.user, match=match, attempts="Called, no answer.")
    rule(
        actor=director.user,
        match=match,
        contact_issue=issue,
        ruling=Ruling.DOUBLE_FORFEIT,
        reason="Neither could meet.",
    )
    with pytest.raises(MatchError, match="already been decided"):
        rule(
            actor=director.user,
            match=match,
            contact_issue=issue,
            ruling=Ruling.FORFEIT,
            forfeiting=[2],
            reason="Changed my mind.",
        )
    issue.refresh_from_db()
    assert issue.resolution.startswith("double_forfeit")


def test_the_history_names_the_director_once(client, match, player, opponent, institution):
    """It read "Result recorded by the director by Dana Director"."""
    from tests.support import staff_member

    director = staff_member(institution, "Directors")
    rule(
        actor=director.user,
        match=match,
        ruling=Ruling.AMEND,
        reason="Card handed in at the desk",
        scores=[400, 350],
    )
    client.force_login(player.user)
    page = client.get(match.get_absolute_url()).content.decode()
    name = director.user.get_full_name()
    assert f"Result recorded by {name}: Card handed in at the desk" in page
    assert "by the director by" not in page

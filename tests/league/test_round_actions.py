"""The director's bulk actions on a round (L5, L8): extend the deadlines of its open matches, rule
its unplayed ones as double forfeits or named forfeits. Each match goes through `rule`, so each
has its audit event and its e-mail; a match reported or final since the director looked is left
alone and counted. The extension racing the nightly job is in test_nightly_races.py."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from core.errors import NotAllowed
from matches.models import AuditEvent, Match, MatchStatus
from matches.services import (
    MatchError,
    round_deadlines_extend,
    round_open_matches,
    round_unplayed_rule,
)
from tests.support import confirmed_game, open_dispute, round_of, submitted_report


def players_of(match):
    return [seat.player for seat in match.seats.order_by("order")]


@pytest.fixture
def busy_round(league):
    """A round of five: unscheduled, unscheduled, reported, disputed, confirmed."""
    round_, matches = round_of(league, 5)
    submitted_report(matches[2], by=players_of(matches[2])[0])
    open_dispute(matches[3])
    winner, loser = players_of(matches[4])
    confirmed_game(matches[4], winner=winner, loser=loser)
    return round_, matches


def test_only_unscheduled_and_scheduled_matches_without_a_report_are_open(busy_round):
    round_, matches = busy_round
    assert list(round_open_matches(round_)) == matches[:2]


def test_l8_the_director_rules_a_rounds_unplayed_matches_double_forfeits_and_leaves_the_rest(
    busy_round, director, django_capture_on_commit_callbacks
):
    round_, matches = busy_round
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result = round_unplayed_rule(
            actor=director.user,
            round=round_,
            match_ids=[m.pk for m in matches],
            reason="Round 1 closed: nobody played by the deadline.",
        )

    assert result.changed == [matches[0].pk, matches[1].pk]
    assert result.skipped == [m.pk for m in matches[2:]]
    statuses = [Match.objects.get(pk=m.pk).status for m in matches]
    assert statuses == ["double_forfeit", "double_forfeit", "reported", "disputed", "confirmed"]
    for match in matches[:2]:
        event = AuditEvent.objects.get(match=match, action="double_forfeit")
        assert event.actor == director.user
        assert event.reason == "Round 1 closed: nobody played by the deadline."
        assert {seat.outcome for seat in match.seats.all()} == {"double_forfeit"}
    told = {m.to[0] for m in mail.outbox}
    assert told == {p.user.email for m in matches[:2] for p in players_of(m)}
    assert "2 matches: ruled." in result.sentence("ruled")
    assert "3 matches left as they were" in result.sentence("ruled")


def test_l5_l8_the_director_names_who_forfeits_and_the_others_are_double_forfeits(league, director):
    round_, matches = round_of(league, 3)
    result = round_unplayed_rule(
        actor=director.user,
        round=round_,
        match_ids=[m.pk for m in matches],
        forfeiting={matches[1].pk: [2]},
        reason="Seat 2 told the director they could not play.",
    )
    assert result.changed == [m.pk for m in matches] and result.skipped == []
    second = Match.objects.get(pk=matches[1].pk)
    assert second.status == MatchStatus.FORFEIT
    assert [s.outcome for s in second.seats.order_by("order")] == ["forfeit_win", "forfeit_loss"]
    assert Match.objects.get(pk=matches[0].pk).status == MatchStatus.DOUBLE_FORFEIT


def test_a_wrong_forfeit_for_one_match_changes_nothing_in_the_round_and_names_the_match(
    league, director
):
    round_, matches = round_of(league, 3)
    with pytest.raises(MatchError, match=f"Match {matches[2].pk}: This match has seats 1, 2"):
        round_unplayed_rule(
            actor=director.user,
            round=round_,
            match_ids=[m.pk for m in matches],
            forfeiting={matches[2].pk: [3]},
            reason="Closing the round.",
        )
    assert not Match.objects.filter(round=round_).exclude(status="unscheduled").exists()


def test_l8_a_match_that_became_final_since_the_director_looked_is_skipped(league, director):
    round_, matches = round_of(league, 2)
    shown = [m.pk for m in round_open_matches(round_)]
    winner, loser = players_of(matches[0])
    confirmed_game(matches[0], winner=winner, loser=loser)  # after the confirm page was shown

    result = round_unplayed_rule(
        actor=director.user, round=round_, match_ids=shown, reason="Closing the round."
    )

    assert result.changed == [matches[1].pk] and result.skipped == [matches[0].pk]
    assert Match.objects.get(pk=matches[0].pk).status == MatchStatus.CONFIRMED
    assert not AuditEvent.objects.filter(match=matches[0], action="double_forfeit").exists()


def test_a_match_not_confirmed_by_the_director_is_not_ruled(league, director):
    round_, matches = round_of(league, 2)
    round_unplayed_rule(
        actor=director.user, round=round_, match_ids=[matches[0].pk], reason="Closing."
    )
    assert Match.objects.get(pk=matches[1].pk).status == MatchStatus.UNSCHEDULED


def end_of(day: date, tz) -> datetime:
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=tz)


def test_l5_the_director_extends_a_rounds_deadlines_by_days_each_in_its_history(
    busy_round, director, institution, django_capture_on_commit_callbacks
):
    round_, matches = busy_round
    before = matches[0].deadline
    overdue = matches[1]
    Match.objects.filter(pk=overdue.pk).update(deadline=timezone.now() - timedelta(days=2))
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        result = round_deadlines_extend(
            actor=director.user,
            round=round_,
            match_ids=[m.pk for m in matches],
            days=3,
            reason="The Games Room was closed for a week.",
        )

    assert result.changed == [matches[0].pk, overdue.pk]
    assert result.skipped == [m.pk for m in matches[2:]]
    assert Match.objects.get(pk=matches[0].pk).deadline == before + timedelta(days=3)
    # Already past its deadline: three days from tonight, not from a day already gone.
    today = timezone.localtime(timezone.now(), institution.tz).date()
    assert Match.objects.get(pk=overdue.pk).deadline == end_of(
        today + timedelta(days=3), institution.tz
    )
    event = AuditEvent.objects.get(match=matches[0], action="deadline_extended")
    assert event.actor == director.user and event.reason == "The Games Room was closed for a week."
    assert datetime.fromisoformat(event.before["deadline"]) == before
    assert not AuditEvent.objects.filter(match=matches[2], action="deadline_extended").exists()
    assert len(mail.outbox) == 4  # both players of the two extended matches


def test_l5_extending_to_a_date_skips_a_match_already_due_later(league, director, institution):
    round_, matches = round_of(league, 2)
    later = matches[1].deadline + timedelta(days=20)
    Match.objects.filter(pk=matches[1].pk).update(deadline=later)
    until = timezone.localtime(matches[0].deadline, institution.tz).date() + timedelta(days=5)

    result = round_deadlines_extend(
        actor=director.user,
        round=round_,
        match_ids=[m.pk for m in matches],
        until=until,
        reason="Snow days.",
    )

    assert result.changed == [matches[0].pk] and result.skipped == [matches[1].pk]
    assert Match.objects.get(pk=matches[0].pk).deadline == end_of(until, institution.tz)
    assert Match.objects.get(pk=matches[1].pk).deadline == later


@pytest.mark.parametrize(
    ("details", "message"),
    [
        ({"days": 3, "reason": " "}, "A reason is required"),
        ({"reason": "Snow"}, "either a number of days or a date"),
        ({"days": 3, "until": date(2030, 1, 1), "reason": "Snow"}, "not both"),
        ({"days": 0, "reason": "Snow"}, "1 to 60 days"),
        ({"until": date(2000, 1, 1), "reason": "Snow"}, "today or later"),
    ],
)
def test_an_extension_missing_what_it_needs_is_refused_and_changes_nothing(
    league, director, details, message
):
    round_, matches = round_of(league, 1)
    with pytest.raises(MatchError, match=message):
        round_deadlines_extend(
            actor=director.user, round=round_, match_ids=[matches[0].pk], **details
        )
    assert Match.objects.get(pk=matches[0].pk).deadline == matches[0].deadline


@pytest.mark.parametrize("persona", ["player", "staff", "other_director"])
def test_only_the_leagues_director_acts_on_a_round(request, league, persona):
    round_, matches = round_of(league, 1)
    actor = request.getfixturevalue(persona).user
    with pytest.raises(NotAllowed):
        round_unplayed_rule(actor=actor, round=round_, match_ids=[matches[0].pk], reason="No")
    with pytest.raises(NotAllowed):
        round_deadlines_extend(
            actor=actor, round=round_, match_ids=[matches[0].pk], days=2, reason="No"
        )
    assert Match.objects.get(pk=matches[0].pk).status == MatchStatus.UNSCHEDULED
    assert not AuditEvent.objects.filter(match=matches[0]).exclude(action="created").exists()


def test_days_are_counted_on_the_institutions_clock_across_daylight_saving(institution):
    from matches.services.rounds import extended_deadline

    tz = institution.tz  # America/Chicago: clocks go back on Sunday, November 1, 2026
    deadline = datetime(2026, 10, 31, tzinfo=tz).astimezone(UTC)  # as the database gives it
    now = datetime(2026, 10, 20, 12, tzinfo=tz)
    extended = extended_deadline(deadline, days=3, until=None, tz=tz, now=now)
    assert extended == datetime(2026, 11, 3, tzinfo=tz)
    assert (extended.hour, extended.minute) == (0, 0)

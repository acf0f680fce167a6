"""Joining leagues (L10), the director's enrolments and withdrawals, drawing the round robin."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.errors import NotEligible, PermissionDenied
from league.models import Entry
from league.services import LeagueError, entry_enrol, entry_withdraw, league_join, rounds_generate
from matches.models import Match, MatchStatus
from tests.factories import eligible, eligible_student, entrant, match_between, submitted_report


def test_l10_an_eligible_student_joins_an_open_league(league, player, season):
    eligible(player, season)
    entry = league_join(actor=player.user, league=league)
    assert entry.league == league and entry.active


def test_l10_a_pending_student_cannot_join(league, player):
    with pytest.raises(NotEligible):
        league_join(actor=player.user, league=league)
    assert not Entry.objects.exists()


def test_joining_after_the_registration_deadline_is_refused(league, player, season):
    eligible(player, season)
    with pytest.raises(LeagueError, match="Registration for Tuesday League closed"):
        league_join(
            actor=player.user, league=league, today=season.registration_deadline + timedelta(days=1)
        )


def test_a_full_league_refuses_the_next_player(league, player, opponent, season):
    league.capacity = 2
    league.save()
    for profile in (player, opponent):
        league_join(actor=eligible(profile, season).user, league=league)
    late = eligible_student(season)
    with pytest.raises(LeagueError, match="full"):
        league_join(actor=late.user, league=league)


def test_joining_twice_is_refused(league, player, season):
    league_join(actor=eligible(player, season).user, league=league)
    with pytest.raises(LeagueError, match="already in"):
        league_join(actor=player.user, league=league)


def test_students_of_another_institution_cannot_join(league, outsider):
    with pytest.raises(PermissionDenied):
        league_join(actor=outsider.user, league=league)


def test_the_director_enrols_a_player_after_the_deadline(league, player, director, season):
    eligible(player, season)
    assert entry_enrol(actor=director.user, league=league, player=player).active
    with pytest.raises(PermissionDenied):
        entry_enrol(actor=player.user, league=league, player=player)


def test_withdrawing_turns_remaining_matches_into_forfeits_to_the_opponents(
    league, match, player, opponent, director, season
):
    entry = Entry.objects.create(league=league, player=player)
    done = match_between(league, player, opponent)
    submitted_report(done, by=player, first_score=400, second_score=300)

    forfeits = entry_withdraw(actor=director.user, entry=entry, reason="Transferred")

    assert forfeits == 2  # the unplayed match and the reported-but-unconfirmed one
    for m in (match, done):
        m.refresh_from_db()
        assert m.status == MatchStatus.FORFEIT
        assert {s.player_id: s.outcome for s in m.seats.all()} == {
            player.pk: "forfeit_loss",
            opponent.pk: "forfeit_win",
        }
    entry.refresh_from_db()
    assert entry.withdrawn_reason == "Transferred"


def test_withdrawal_needs_a_reason(league, player, director):
    entry = Entry.objects.create(league=league, player=player)
    with pytest.raises(LeagueError, match="reason"):
        entry_withdraw(actor=director.user, entry=entry, reason="")


@pytest.mark.parametrize("players", [4, 5])
def test_the_round_robin_is_drawn_with_deadlines_and_byes(league, director, season, players):
    for _ in range(players):
        entrant(league)
    first = timezone.localdate() + timedelta(days=7)

    rounds = rounds_generate(actor=director.user, league=league, first_play_by=first)

    expected_rounds = players if players % 2 else players - 1
    assert [r.play_by for r in rounds] == [
        first + timedelta(days=7 * i) for i in range(expected_rounds)
    ]
    byes = Match.objects.filter(league=league, status=MatchStatus.BYE).count()
    assert byes == (players if players % 2 else 0)
    games = Match.objects.filter(league=league).exclude(status=MatchStatus.BYE).count()
    assert games == players * (players - 1) // 2
    deadline = Match.objects.filter(round=rounds[0]).first().deadline
    assert deadline.astimezone(season.institution.tz).date() == first + timedelta(days=1)


def test_the_round_robin_must_fit_the_season(league, director, season):
    for _ in range(4):
        entrant(league)
    with pytest.raises(LeagueError, match="after Fall 2026 ends"):
        rounds_generate(
            actor=director.user, league=league, first_play_by=season.ends_on - timedelta(days=3)
        )
    assert not league.rounds.exists()


def test_l10_the_draw_refuses_an_ineligible_entrant(league, director, season, player):
    entrant(league)
    Entry.objects.create(league=league, player=player)  # still pending
    with pytest.raises(NotEligible):
        rounds_generate(
            actor=director.user,
            league=league,
            first_play_by=timezone.localdate() + timedelta(days=7),
        )

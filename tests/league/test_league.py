"""Joining leagues (L10), the director's enrolments and withdrawals, drawing the round robin."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.errors import NotEligible
from accounts.models import Eligibility
from accounts.services import eligibility_rule
from core.errors import DomainError, NotAllowed
from league.models import Entry, Round
from league.services import LeagueError, entry_enrol, entry_withdraw, league_join, rounds_generate
from matches.models import AuditEvent, Match, MatchStatus, Outcome, Seat
from tests.support import (
    ProfileFactory,
    eligible,
    eligible_student,
    entrant,
    match_between,
    submitted_report,
)


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
    with pytest.raises(NotAllowed):
        league_join(actor=outsider.user, league=league)


# --- One answer to "may this student join?" for the leagues page and the service -------------


def _join_setups():
    """Each way a student may be refused, set up on the `league` fixture's world."""

    def pending(league, player, season):
        pass

    def ruled_ineligible(league, player, season):
        Eligibility.objects.create(profile=player, season=season, status="ineligible")

    def full_and_pending(league, player, season):
        league.capacity = 2
        league.save()
        for _ in range(2):
            Entry.objects.create(
                league=league,
                player=eligible(ProfileFactory(institution=season.institution), season),
            )

    def started(league, player, season):
        eligible(player, season)
        Round.objects.create(league=league, number=1, play_by=season.ends_on)

    def closed_and_pending(league, player, season):
        season.registration_deadline = timezone.localdate() - timedelta(days=3)
        season.save()

    def already_in_after_closing(league, player, season):
        eligible(player, season)
        Entry.objects.create(league=league, player=player)
        closed_and_pending(league, player, season)

    return {
        "pending": (pending, NotEligible, "You are not eligible yet for Fall 2026"),
        "ruled_ineligible": (
            ruled_ineligible,
            NotEligible,
            "You are not eligible to play in Fall 2026: see your home page.",
        ),
        "full_and_pending": (full_and_pending, LeagueError, "Tuesday League is full (2 players)."),
        "started": (started, LeagueError, "Tuesday League has started"),
        "closed_and_pending": (closed_and_pending, LeagueError, "Registration for Tuesday League"),
        "already_in_after_closing": (
            already_in_after_closing,
            LeagueError,
            "You are already in Tuesday League.",
        ),
    }


@pytest.mark.parametrize("case", list(_join_setups()))
def test_l10_the_leagues_page_gives_the_reason_the_join_service_raises(
    client, league, player, season, case
):
    """Full and pending: full, not "get your ID checked" (the page said so, the service asked
    for eligibility). Rounds drawn: the page offered Join, the service refused it. Ruled
    ineligible: not "yet". Already in after closing: "already in", not "closed"."""
    set_up, error_class, expected = _join_setups()[case]
    set_up(league, player, season)
    client.force_login(player.user)
    rows = client.get(reverse("league_list")).context["rows"]
    shown = next(row["why_not"] for row in rows if row["league"] == league)

    with pytest.raises(DomainError) as refused:
        league_join(actor=player.user, league=league)

    assert expected in shown
    assert refused.value.message == shown
    assert type(refused.value) is error_class


def test_the_director_is_told_whom_a_refusal_is_about(league, player, director, season):
    eligible(player, season)
    entry_enrol(actor=director.user, league=league, player=player)
    with pytest.raises(LeagueError, match="Rowan Pemberton is already in Tuesday League."):
        entry_enrol(actor=director.user, league=league, player=player)
    with pytest.raises(NotEligible, match="Sage Okafor is not eligible yet for Fall 2026.$"):
        entry_enrol(
            actor=director.user,
            league=league,
            player=ProfileFactory(
                institution=season.institution, user__first_name="Sage", user__last_name="Okafor"
            ),
        )


def test_the_director_enrols_a_player_after_the_deadline(league, player, director, season):
    eligible(player, season)
    assert entry_enrol(actor=director.user, league=league, player=player).active
    with pytest.raises(NotAllowed):
        entry_enrol(actor=player.user, league=league, player=player)


def test_withdrawing_turns_remaining_matches_into_forfeits_to_the_opponents(
    league, match, player, opponent, director, season
):
    entry = Entry.objects.create(league=league, player=player)
    done = match_between(league, player, opponent)
    submitted_report(done, by=player, scores=[400, 300])

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
    # Every match was made by the one creation service, which records who drew it.
    drawn = AuditEvent.objects.filter(match__league=league, action="created")
    assert drawn.count() == Match.objects.filter(league=league).count()
    assert set(drawn.values_list("actor", flat=True)) == {director.user.pk}
    bye_seats = Seat.objects.filter(match__league=league, match__status=MatchStatus.BYE)
    assert set(bye_seats.values_list("outcome", flat=True)) <= {Outcome.BYE}


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


# --- A league's rule settings are the rules engine's names (G1, G5) -------------------------------


def test_g1_every_end_of_game_rule_a_league_offers_is_one_the_engine_applies():
    from league.models import EndOfGameRule
    from matches.game_records import RULE_NAMES
    from matches.scrabble import END_OF_GAME_RULES, end_of_game_adjustments

    assert set(EndOfGameRule.values) == set(END_OF_GAME_RULES)
    for rule in EndOfGameRule.values:
        assert len(end_of_game_adjustments(rule, ["", "QZ"], went_out=0)) == 2
        assert rule in RULE_NAMES  # a game record can be put under the league's rule


def test_g5_every_challenge_rule_a_league_offers_is_one_the_engine_applies():
    from league.models import ChallengeRule
    from matches.scrabble import CHALLENGE_RULES, resolve_challenge

    assert set(ChallengeRule.values) == set(CHALLENGE_RULES)
    for rule in ChallengeRule.values:
        assert (
            resolve_challenge(rule, play_is_acceptable=False, tiles_in_bag=10).play_stands is False
        )


def test_l10_a_player_ruled_ineligible_mid_season_forfeits_their_remaining_matches(
    league, match, player, opponent, director, season
):
    """As a withdrawal does: the unplayed and the reported-but-unconfirmed match go to the
    opponent, a final result stays, and a league of another season is not touched."""
    from tests.support import LeagueFactory, SeasonFactory, confirmed_game

    Entry.objects.create(league=league, player=player)
    reported = match_between(league, player, opponent)
    submitted_report(reported, by=player, scores=[400, 300])
    played = match_between(league, player, opponent)
    confirmed_game(played, winner=player, loser=opponent)
    next_term = SeasonFactory(institution=season.institution, name="Spring 2027")
    eligible(player, next_term)
    eligible(opponent, next_term)
    later = match_between(LeagueFactory(season=next_term), player, opponent)

    eligibility_rule(
        actor=director.user, profile=player, season=season, status="ineligible", reason="Suspended"
    )

    for m in (match, reported):
        m.refresh_from_db()
        assert m.status == MatchStatus.FORFEIT
        assert {s.player_id: s.outcome for s in m.seats.all()} == {
            player.pk: "forfeit_loss",
            opponent.pk: "forfeit_win",
        }
        event = AuditEvent.objects.get(match=m, action="forfeit")
        assert event.actor == director.user
        assert event.reason == f"{player.user} was ruled ineligible for Fall 2026."
    played.refresh_from_db()
    later.refresh_from_db()
    assert played.status == MatchStatus.CONFIRMED
    assert later.status == MatchStatus.UNSCHEDULED
    assert Entry.objects.get(league=league, player=player).active  # not withdrawn: it may be lifted


def test_l10_an_ineligibility_ruling_and_its_forfeits_stand_or_fall_together(
    league, match, player, director, season, monkeypatch
):
    """The forfeits are settled in the ruling's transaction: if they fail, nothing is ruled."""
    from league.services import leaving as league_services

    def broken(**kwargs):
        raise RuntimeError("the forfeits failed")

    monkeypatch.setattr(league_services, "withdrawal_forfeits", broken)
    with pytest.raises(RuntimeError):
        eligibility_rule(
            actor=director.user, profile=player, season=season, status="ineligible", reason="X"
        )

    assert Eligibility.objects.get(profile=player, season=season).status == "eligible"
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED


def test_l8_drawing_rounds_refuses_a_first_play_by_date_already_past(league, director, season):
    """Round 1 would be overdue at once, and the night would forfeit every match of it."""
    for _ in range(4):
        entrant(league)
    yesterday = season.institution.today() - timedelta(days=1)
    with pytest.raises(LeagueError, match="has passed"):
        rounds_generate(actor=director.user, league=league, first_play_by=yesterday)
    assert not league.rounds.exists()

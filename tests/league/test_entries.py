"""A student's own entry (E1): withdrawing themself, the waitlist of a full league, and the
director's late entry after the draw."""

from datetime import timedelta

import pytest
from django.utils import timezone
from post_office.models import Email

from accounts.errors import NotEligible
from accounts.models import Eligibility
from core.errors import NotAllowed
from league.models import Entry, LeagueFormat, Round, Standing, WaitlistEntry
from league.policies import join_refusal
from league.services import (
    LeagueError,
    entry_enrol,
    entry_leave,
    entry_withdraw,
    league_join,
    rounds_generate,
    waitlist_join,
    waitlist_leave,
)
from matches.models import AuditEvent, Match, MatchStatus, Outcome, Seat
from tests.support import LeagueFactory, eligible, eligible_student, entrant


def mail_to(profile, subject: str) -> list[Email]:
    return [
        email
        for email in Email.objects.filter(subject__contains=subject)
        if profile.user.email in email.to
    ]


@pytest.fixture
def full_league(league):
    """Tuesday League with its two places taken."""
    league.capacity = 2
    league.save()
    return league, [entrant(league, first_name=name) for name in ("Ada", "Bo")]


def draw(league, director, first_play_by=None, **kwargs):
    first_play_by = first_play_by or timezone.localdate() + timedelta(days=7)
    return rounds_generate(
        actor=director.user, league=league, first_play_by=first_play_by, **kwargs
    )


# --- A student withdraws themself -----------------------------------------------------------------


def test_e1_before_the_draw_a_student_withdraws_at_once_and_the_first_waiting_gets_the_place(
    full_league, season
):
    league, (ada, bo) = full_league
    first, second = eligible_student(season), eligible_student(season)
    waitlist_join(actor=first.user, league=league)
    waitlist_join(actor=second.user, league=league)

    forfeits = entry_leave(actor=ada.user, entry=Entry.objects.get(league=league, player=ada))

    assert forfeits == 0
    active = set(
        Entry.objects.filter(league=league, withdrawn_at__isnull=True).values_list(
            "player", flat=True
        )
    )
    assert active == {bo.pk, first.pk}
    assert Entry.objects.get(player=ada).withdrawn_reason == "Withdrew themself"
    assert list(WaitlistEntry.objects.values_list("player", flat=True)) == [second.pk]
    assert mail_to(first, "A place in Tuesday League is yours")
    assert not mail_to(second, "A place in Tuesday League is yours")


def test_e1_after_the_draw_withdrawing_warns_of_the_forfeits_and_makes_them_once_accepted(
    league, director, season
):
    ada, bo, cy, di = (entrant(league, first_name=name) for name in ("Ada", "Bo", "Cy", "Di"))
    draw(league, director)
    entry = Entry.objects.get(league=league, player=ada)

    with pytest.raises(LeagueError) as warned:
        entry_leave(actor=ada.user, entry=entry)
    assert warned.value.message == (
        "Withdrawing from Tuesday League now is for good: your remaining 3 games become "
        "forfeits to your opponents."
    )
    assert Entry.objects.get(pk=entry.pk).active

    assert entry_leave(actor=ada.user, entry=entry, accept_forfeits=True) == 3
    seats = Seat.objects.filter(match__league=league, match__seats__player=ada)
    assert {(s.player_id == ada.pk, s.outcome) for s in seats} == {
        (True, Outcome.FORFEIT_LOSS),
        (False, Outcome.FORFEIT_WIN),
    }
    event = AuditEvent.objects.filter(match__league=league, action="forfeit").first()
    assert event.actor == ada.user and event.reason == f"{ada.name} withdrew from Tuesday League."
    told = mail_to(bo, "Match decided by forfeit")
    assert told and "withdrew from Tuesday League" in told[0].message
    assert "The director ruled" not in told[0].message
    with pytest.raises(LeagueError, match="already withdrawn"):
        entry_leave(actor=ada.user, entry=entry, accept_forfeits=True)


def test_e1_only_the_player_withdraws_themself(league, player, opponent, director, season):
    eligible(player, season)
    entry = league_join(actor=player.user, league=league)
    for someone in (opponent, director):
        with pytest.raises(NotAllowed):
            entry_leave(actor=someone.user, entry=entry)
    assert Entry.objects.get(pk=entry.pk).active


@pytest.mark.parametrize("format", [LeagueFormat.CLUB, LeagueFormat.EVENT])
def test_e3_e4_at_a_club_or_an_event_the_desk_marks_who_leaves_not_the_student(
    league, player, season, format
):
    league.format = format
    league.save()
    entry = Entry.objects.create(league=league, player=eligible(player, season))
    with pytest.raises(LeagueError, match="the front desk or the director marks who leaves"):
        entry_leave(actor=player.user, entry=entry)
    assert Entry.objects.get(pk=entry.pk).active


# --- The waitlist ---------------------------------------------------------------------------------


def test_l10_a_full_league_offers_its_waitlist_to_eligible_students_only(
    full_league, player, season
):
    league, _ = full_league
    with pytest.raises(LeagueError, match=r"^Tuesday League is full \(2 players\)\.$"):
        waitlist_join(actor=player.user, league=league)  # pending: nothing to wait for yet
    eligible(player, season)
    with pytest.raises(LeagueError, match="join the waitlist"):
        league_join(actor=player.user, league=league)

    waiting = waitlist_join(actor=player.user, league=league)

    assert isinstance(waiting, WaitlistEntry)
    assert not Entry.objects.filter(player=player).exists()  # never counted as a player
    with pytest.raises(LeagueError, match="You are on the waitlist for Tuesday League"):
        waitlist_join(actor=player.user, league=league)


def test_e1_joining_the_waitlist_when_a_place_has_freed_takes_the_place(full_league, season):
    league, (ada, _) = full_league
    Entry.objects.filter(player=ada).update(withdrawn_at=timezone.now())  # freed meanwhile
    late = eligible_student(season)
    assert isinstance(waitlist_join(actor=late.user, league=league), Entry)
    assert not WaitlistEntry.objects.exists()


def test_e1_a_student_leaves_the_waitlist_and_the_next_moves_up(full_league, season):
    league, (ada, _) = full_league
    first, second = eligible_student(season), eligible_student(season)
    waitlist_join(actor=first.user, league=league)
    waitlist_join(actor=second.user, league=league)

    waitlist_leave(actor=first.user, league=league)
    with pytest.raises(LeagueError, match="not on the waitlist"):
        waitlist_leave(actor=first.user, league=league)
    entry_leave(actor=ada.user, entry=Entry.objects.get(player=ada))

    assert Entry.objects.get(player=second).active
    assert not Entry.objects.filter(player=first).exists()


def test_e1_the_directors_withdrawal_before_the_draw_also_gives_the_place(
    full_league, director, season
):
    league, (ada, _) = full_league
    waiting = eligible_student(season)
    waitlist_join(actor=waiting.user, league=league)
    entry_withdraw(actor=director.user, entry=Entry.objects.get(player=ada), reason="Moved away")
    assert Entry.objects.get(player=waiting).active


def test_l10_a_waiting_student_no_longer_eligible_is_passed_over_and_keeps_their_place(
    full_league, season
):
    league, (ada, _) = full_league
    first, second = eligible_student(season), eligible_student(season)
    waitlist_join(actor=first.user, league=league)
    waitlist_join(actor=second.user, league=league)
    Eligibility.objects.filter(profile=first, season=season).update(status="ineligible")

    entry_leave(actor=ada.user, entry=Entry.objects.get(player=ada))

    assert Entry.objects.get(player=second).active
    assert WaitlistEntry.objects.filter(player=first).exists()


def test_e1_the_draw_closes_the_waitlist_and_tells_those_waiting(full_league, director, season):
    league, _ = full_league
    waiting = eligible_student(season)
    waitlist_join(actor=waiting.user, league=league)

    draw(league, director)

    assert mail_to(waiting, "Tuesday League started without you")
    with pytest.raises(LeagueError, match="Tuesday League started without you"):
        waitlist_join(actor=waiting.user, league=league)
    # No place frees after the draw: a withdrawal then is forfeits, the waitlist stays closed.
    ada = Entry.objects.filter(league=league).first()
    entry_leave(actor=ada.player.user, entry=ada, accept_forfeits=True)
    assert not Entry.objects.filter(player=waiting).exists()


def test_e3_e4_clubs_and_events_keep_no_waitlist(league, player, season):
    league.format = LeagueFormat.CLUB
    league.capacity = 2
    league.save()
    entrant(league), entrant(league)
    with pytest.raises(LeagueError, match=r"full \(2 players\)\.$"):
        waitlist_join(actor=eligible(player, season).user, league=league)


def test_l10_the_waitlist_answer_is_the_policys_for_page_and_service(league, season):
    """The page asks the policy with facts it already holds; no query in it."""
    league.capacity = 2
    refusal = join_refusal(league, joined=False, players=2, started=False, eligibility="eligible")
    assert refusal.waitlist
    assert not join_refusal(
        league, joined=False, players=2, started=True, eligibility="eligible"
    ).waitlist
    assert not join_refusal(
        league, joined=False, players=2, started=False, eligibility="pending"
    ).waitlist


# --- The director's late entry ----------------------------------------------------------------------


@pytest.fixture
def drawn_five(league, director, season):
    """Five players drawn on a round robin whose first round was last week: round 1 is past,
    rounds 2 to 5 are still to play, each with one bye."""
    players = [entrant(league, first_name=name) for name in ("Ada", "Bo", "Cy", "Di", "Ed")]
    draw(
        league,
        director,
        first_play_by=season.institution.today() - timedelta(days=1),
        allow_past=True,
    )
    return players


def test_e1_a_late_entry_takes_the_bye_of_each_round_still_to_play(
    league, drawn_five, director, season
):
    late = eligible_student(season, first_name="Fay")
    byes_before = {
        m.round.number: m.seats.get().player_id
        for m in Match.objects.filter(league=league, status=MatchStatus.BYE)
    }

    entry = entry_enrol(actor=director.user, league=league, player=late)

    assert entry.active
    games = Match.objects.filter(league=league, seats__player=late).order_by("round__number")
    assert [m.round.number for m in games] == [2, 3, 4, 5]
    for game in games:
        assert game.status == MatchStatus.UNSCHEDULED
        holder = game.seats.get(order=1)
        assert holder.player_id == byes_before[game.round.number] and holder.outcome == ""
        assert AuditEvent.objects.get(match=game, action="bye_filled").actor == director.user
    # Round 1's bye is past and stays a bye; nobody plays twice in a round.
    assert Match.objects.filter(league=league, status=MatchStatus.BYE).count() == 1
    for round_ in Round.objects.filter(league=league):
        seated = list(Seat.objects.filter(match__round=round_).values_list("player", flat=True))
        assert len(seated) == len(set(seated))
    holder = league.entries.get(player_id=byes_before[3]).player
    assert mail_to(holder, "Round 3: a game instead of the bye")
    assert mail_to(late, "Round 3: a game instead of the bye")
    # The standings follow: the late entrant has a row, and a filled bye is no longer a win.
    assert Standing.objects.filter(league=league, player=late).exists()
    assert Standing.objects.get(league=league, player=holder).byes == 0


def test_e1_a_late_entry_without_a_bye_to_take_is_refused_with_a_sentence(
    league, drawn_five, director, season
):
    entry_enrol(actor=director.user, league=league, player=eligible_student(season))
    with pytest.raises(LeagueError) as refused:
        entry_enrol(actor=director.user, league=league, player=eligible_student(season))
    assert refused.value.message == (
        "Tuesday League's remaining rounds have no bye for a late entrant to take: every "
        "player already has a game each round (an even number of players)."
    )


def test_e1_a_late_entry_is_refused_once_no_round_is_left_to_play(
    league, drawn_five, director, season
):
    Round.objects.filter(league=league).update(
        play_by=season.institution.today() - timedelta(days=1)
    )
    with pytest.raises(LeagueError, match="has no round left to play"):
        entry_enrol(actor=director.user, league=league, player=eligible_student(season))


def test_e1_a_player_withdrawn_after_the_draw_is_not_entered_late_again(
    league, drawn_five, director, season
):
    ada = drawn_five[0]
    entry_leave(actor=ada.user, entry=Entry.objects.get(player=ada), accept_forfeits=True)
    with pytest.raises(LeagueError, match="already has matches in Tuesday League"):
        entry_enrol(actor=director.user, league=league, player=ada)


def test_l10_a_late_entry_still_needs_an_eligible_player_and_students_cannot_join_late(
    league, drawn_five, director, season, player
):
    with pytest.raises(NotEligible):
        entry_enrol(actor=director.user, league=league, player=player)
    with pytest.raises(LeagueError, match="has started"):
        league_join(actor=eligible(player, season).user, league=league)


def test_l11_a_drawn_tournament_takes_no_late_entry(season, director):
    tournament = LeagueFactory(
        season=season, name="Cup", slug="cup", format=LeagueFormat.SINGLE_ELIMINATION
    )
    entrant(tournament), entrant(tournament)
    Round.objects.create(league=tournament, number=1, play_by=season.ends_on, playoff=True)
    with pytest.raises(LeagueError, match="Cup's bracket is drawn"):
        entry_enrol(actor=director.user, league=tournament, player=eligible_student(season))

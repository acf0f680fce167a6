"""Concurrency at a full league's door (E1): withdrawals, joins and the waitlist on separate
database connections at the same moment. The league row's lock makes them take turns, so the
league is never over capacity and a freed place goes to the first waiting, once."""

import pytest

from core.errors import DomainError
from league.models import Entry, WaitlistEntry
from league.services import entry_leave, league_join, waitlist_join
from tests.support import eligible_student, entrant, run_together


@pytest.fixture
def full_league(transactional_db, league, season):
    """Tuesday League committed for real: its two places taken by Ada and Bo, Cy then Di on
    its waitlist."""
    league.capacity = 2
    league.save()
    ada, bo = entrant(league, first_name="Ada"), entrant(league, first_name="Bo")
    cy, di = eligible_student(season, first_name="Cy"), eligible_student(season, first_name="Di")
    waitlist_join(actor=cy.user, league=league)
    waitlist_join(actor=di.user, league=league)
    return league, ada, bo, cy, di


def active_players(league) -> set[int]:
    return set(
        Entry.objects.filter(league=league, withdrawn_at__isnull=True).values_list(
            "player", flat=True
        )
    )


def leave(profile):
    return lambda: entry_leave(actor=profile.user, entry=Entry.objects.get(player=profile))


@pytest.mark.parametrize("attempt", range(3))
def test_e1_two_withdrawals_at_once_give_the_two_places_to_the_two_waiting_in_order(
    full_league, attempt
):
    league, ada, bo, cy, di = full_league
    outcomes = run_together(leave(ada), leave(bo))
    assert outcomes == [0, 0], outcomes
    assert active_players(league) == {cy.pk, di.pk}
    assert not WaitlistEntry.objects.exists()


@pytest.mark.parametrize("attempt", range(3))
def test_e1_a_withdrawal_racing_a_join_never_overfills_and_the_waitlist_goes_first(
    full_league, season, attempt
):
    league, ada, bo, cy, di = full_league
    newcomer = eligible_student(season, first_name="Eve")
    left, joined = run_together(leave(ada), lambda: league_join(actor=newcomer.user, league=league))
    assert left == 0, left
    # Whichever ran first, the newcomer finds the league full: the freed place was Cy's.
    assert isinstance(joined, DomainError) and "is full" in joined.message, joined
    assert active_players(league) == {bo.pk, cy.pk}
    assert list(WaitlistEntry.objects.values_list("player", flat=True)) == [di.pk]


@pytest.mark.parametrize("attempt", range(3))
def test_e1_a_withdrawal_racing_a_waitlist_join_keeps_the_order(full_league, season, attempt):
    league, ada, bo, cy, di = full_league
    newcomer = eligible_student(season, first_name="Eve")
    run_together(leave(ada), lambda: waitlist_join(actor=newcomer.user, league=league))
    assert active_players(league) == {bo.pk, cy.pk}
    assert list(WaitlistEntry.objects.values_list("player", flat=True)) == [di.pk, newcomer.pk]

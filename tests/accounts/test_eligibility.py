"""Eligibility per season (L10): roster, picture-ID check, director's ruling, and the one gate."""

import pytest

from accounts.errors import NotEligible
from accounts.models import EligibilityEvent, EligibilitySource, EligibilityStatus
from accounts.selectors import current_season, eligibility_of, next_step_for
from accounts.services import eligibility_rule, id_check_record, require_eligible, student_register
from core.errors import DomainError, NotAllowed
from tests.support import SeasonFactory, UserFactory, roster_entry, ruled_ineligible


def test_l10_a_new_student_is_pending_and_cannot_play(player, season):
    assert eligibility_of(player, season).status == EligibilityStatus.PENDING
    with pytest.raises(NotEligible, match="not yet eligible"):
        require_eligible(profile=player, season=season)


def test_l10_a_picture_id_check_makes_the_student_eligible_for_that_season(player, staff, season):
    eligibility = id_check_record(
        actor=staff.user, profile=player, season=season, note="card valid to 2027"
    )

    assert eligibility.status == EligibilityStatus.ELIGIBLE
    assert eligibility.source == EligibilitySource.ID_CHECK
    require_eligible(profile=player, season=season)  # does not raise
    event = EligibilityEvent.objects.get(profile=player)
    assert (event.old_status, event.new_status, event.actor) == ("pending", "eligible", staff.user)
    assert "card valid to 2027" in event.reason


def test_l10_eligibility_is_per_season_a_new_season_starts_pending(
    player, staff, season, institution
):
    id_check_record(actor=staff.user, profile=player, season=season)
    spring = SeasonFactory(institution=institution, name="Spring", slug="spring")

    with pytest.raises(NotEligible):
        require_eligible(profile=player, season=spring)


def test_l10_the_directors_ruling_outranks_a_later_id_check(player, staff, director, season):
    ruled_ineligible(player, season, director=director, reason="Not enrolled")
    after_check = id_check_record(actor=staff.user, profile=player, season=season)

    assert after_check.status == EligibilityStatus.INELIGIBLE
    with pytest.raises(NotEligible, match="Not enrolled"):
        require_eligible(profile=player, season=season)


def test_l10_the_director_can_rule_a_student_eligible_with_a_reason(player, director, season):
    eligibility_rule(
        actor=director.user,
        profile=player,
        season=season,
        status="eligible",
        reason="Transfer papers seen",
    )
    require_eligible(profile=player, season=season)
    event = EligibilityEvent.objects.get(profile=player)
    assert (event.source, event.actor, event.reason) == (
        "director",
        director.user,
        "Transfer papers seen",
    )


def test_a_ruling_without_a_reason_is_refused_and_changes_nothing(player, director, season):
    with pytest.raises(DomainError, match="reason is required"):
        eligibility_rule(
            actor=director.user, profile=player, season=season, status="eligible", reason="  "
        )
    assert not EligibilityEvent.objects.exists()


def test_only_directors_of_the_institution_rule_on_eligibility(
    player, staff, other_director, season
):
    for actor in (player.user, staff.user, other_director.user):
        with pytest.raises(NotAllowed):
            eligibility_rule(
                actor=actor, profile=player, season=season, status="eligible", reason="x"
            )
    assert eligibility_of(player, season).status == EligibilityStatus.PENDING


def test_only_front_desk_staff_of_the_institution_record_id_checks(
    player, opponent, other_staff, season
):
    for actor in (opponent.user, other_staff.user):
        with pytest.raises(NotAllowed):
            id_check_record(actor=actor, profile=player, season=season)
    assert not player.id_checks.exists()


def test_directors_and_site_admins_may_do_the_front_desks_work(
    player, director, site_admin, season
):
    id_check_record(actor=director.user, profile=player, season=season)
    id_check_record(actor=site_admin, profile=player, season=season)
    assert player.id_checks.count() == 2
    assert (
        EligibilityEvent.objects.filter(profile=player).count() == 1
    )  # the second changed nothing


def test_l10_a_student_of_another_institution_is_never_eligible_here(outsider, season):
    with pytest.raises(NotEligible, match="not a student"):
        require_eligible(profile=outsider, season=season)


def test_l10_signing_up_with_a_campus_id_on_the_roster_makes_the_student_eligible(
    institution, season
):
    roster_entry(season, "7654321")
    user = UserFactory(email="newcomer@example.edu")

    profile = student_register(user=user, institution=institution, campus_id="7654321")

    require_eligible(profile=profile, season=season)
    assert eligibility_of(profile, season).source == EligibilitySource.ROSTER
    assert user.groups.filter(name="Students").exists()


def test_each_status_tells_the_student_what_to_do(player, director, season):
    assert "picture ID" in next_step_for(eligibility_of(player, season))
    eligibility_rule(
        actor=director.user, profile=player, season=season, status="eligible", reason="ok"
    )
    assert "join leagues" in next_step_for(eligibility_of(player, season))
    eligibility_rule(
        actor=director.user, profile=player, season=season, status="ineligible", reason="no"
    )
    assert "director" in next_step_for(eligibility_of(player, season))


def test_the_current_season_is_the_running_one_else_the_next(institution, season):
    from datetime import timedelta

    assert current_season(institution) == season
    later = season.ends_on + timedelta(days=10)
    nxt = SeasonFactory(
        institution=institution, slug="next", starts_on=later, ends_on=later + timedelta(days=60)
    )
    assert current_season(institution, today=season.ends_on + timedelta(days=1)) == nxt
    assert current_season(institution, today=later + timedelta(days=61)) is None

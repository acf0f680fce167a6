"""Eligibility (L10): the one gate before a student joins a league or is scheduled, the front
desk's ID checks and the director's rulings; every change logged (who, when, why)."""

from django.db import transaction
from django.utils import timezone

from core.errors import DomainError, NotAllowed

from .. import roles
from ..errors import NotEligible
from ..models import (
    Eligibility,
    EligibilityEvent,
    EligibilitySource,
    EligibilityStatus,
    IdCheck,
    PlayerProfile,
    Season,
    User,
)
from ..selectors import eligibility_of
from ..signals import ruled_ineligible

MESSAGE_REASON_REQUIRED = "A reason is required."


def require_eligible(
    *, profile: PlayerProfile, season: Season, campus_only: bool = True, drawn: bool = False
) -> None:
    """The one gate on every way into a game (L10): joining, enrolment, the round-robin and
    bracket draws, check-in, scheduling and reporting. Callers pass their league's
    `campus_only`: a league open to visitors (E3, E4) admits guests, who have no campus ID and
    so no eligibility; students are held to it everywhere. `drawn`: the game is a match already
    drawn (scheduling, reporting), which goes on for a student sent back to pending because
    the campus's sign-in stopped calling them a student; only new entries wait."""
    if profile.is_guest:
        if campus_only:
            raise NotEligible(f"{profile.name} is a guest: this league is for students only.")
        if profile.institution_id != season.institution_id:
            raise NotEligible(f"{profile.name} is a guest of another institution.")
        return
    if profile.institution_id != season.institution_id:
        raise NotEligible(f"{profile.user} is not a student of {season.institution}.")
    eligibility = eligibility_of(profile, season)
    if eligibility.status == EligibilityStatus.ELIGIBLE:
        return
    if (
        drawn
        and eligibility.status == EligibilityStatus.PENDING
        and eligibility.source == EligibilitySource.CAMPUS
    ):
        return
    if eligibility.status == EligibilityStatus.INELIGIBLE:
        why = f": {eligibility.reason}" if eligibility.reason else ""
        raise NotEligible(f"{profile.user} is not eligible to play in {season.name}{why}.")
    raise NotEligible(
        f"{profile.user} is not yet eligible for {season.name}: the registrar's roster or a "
        "picture-ID check at the front desk must confirm their enrolment first."
    )


def set_eligibility(
    *,
    profile: PlayerProfile,
    season: Season,
    status: str,
    source: str,
    reason: str,
    actor: User | None,
    overrule_director: bool,
) -> Eligibility:
    """Lock the student's row for the season, change it, and log the change."""
    eligibility, _ = Eligibility.objects.select_for_update().get_or_create(
        profile=profile, season=season
    )
    if eligibility.source == EligibilitySource.DIRECTOR and not overrule_director:
        return eligibility  # A director's ruling outranks the roster and ID checks.
    if (eligibility.status, eligibility.source, eligibility.reason) == (status, source, reason):
        return eligibility
    old_status = eligibility.status
    eligibility.status = status
    eligibility.source = source
    eligibility.reason = reason
    eligibility.decided_by = actor
    eligibility.decided_at = timezone.now()
    eligibility.save()
    EligibilityEvent.objects.create(
        profile=profile,
        season=season,
        old_status=old_status,
        new_status=status,
        source=source,
        reason=reason,
        actor=actor,
    )
    return eligibility


def id_check_record(
    *, actor: User, profile: PlayerProfile, season: Season, note: str = ""
) -> Eligibility:
    """Front-desk staff saw the student's current campus picture ID this season (L10)."""
    if not roles.is_front_desk_of(actor, profile.institution):
        raise NotAllowed("Only front-desk staff or the director can record an ID check.")
    if season.institution_id != profile.institution_id:
        raise DomainError("That season belongs to another institution.")
    if not profile.campus_id:
        raise DomainError("This person has no campus ID on file.")
    with transaction.atomic():
        IdCheck.objects.create(profile=profile, season=season, checked_by=actor, note=note)
        return set_eligibility(
            profile=profile,
            season=season,
            status=EligibilityStatus.ELIGIBLE,
            source=EligibilitySource.ID_CHECK,
            reason="Picture ID checked at the front desk" + (f" ({note})" if note else ""),
            actor=actor,
            overrule_director=False,
        )


def eligibility_rule(
    *, actor: User, profile: PlayerProfile, season: Season, status: str, reason: str
) -> Eligibility:
    """The director decides a student's eligibility for a season, with a reason."""
    if not roles.is_director_of(actor, profile.institution):
        raise NotAllowed("Only the institution's director can rule on eligibility.")
    if season.institution_id != profile.institution_id:
        raise DomainError("That season belongs to another institution.")
    if status not in EligibilityStatus.values:
        raise DomainError(f"{status!r} is not an eligibility status.")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(MESSAGE_REASON_REQUIRED)
    with transaction.atomic():
        eligibility = set_eligibility(
            profile=profile,
            season=season,
            status=status,
            source=EligibilitySource.DIRECTOR,
            reason=reason,
            actor=actor,
            overrule_director=True,
        )
        if status == EligibilityStatus.INELIGIBLE:
            # Their matches still open this season are settled in this same transaction.
            ruled_ineligible.send(
                sender=Eligibility, profile=profile, season=season, actor=actor, reason=reason
            )
        return eligibility

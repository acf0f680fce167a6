"""Students and staff: signing up with a campus ID, the front-desk and director roles, each
person's e-mail preferences and calendar link."""

import uuid

from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from core.errors import DomainError, NotAllowed

from .. import roles
from ..errors import CampusIdTaken
from ..models import (
    EligibilitySource,
    EligibilityStatus,
    Institution,
    PlayerProfile,
    Season,
    User,
)
from .eligibility import set_eligibility


def student_register(*, user: User, institution: Institution, campus_id: str) -> PlayerProfile:
    """A newly signed-up student: their profile, the student role, and eligibility from any
    roster already imported for a season that has not ended. A campus ID already registered at
    the institution raises CampusIdTaken, also when another signup took it a moment ago (the
    signup form checked before, but two forms can pass that check at once: the database's
    unique constraint decides)."""
    campus_id = institution.clean_campus_id(campus_id)
    with transaction.atomic():
        try:
            with transaction.atomic():
                profile = PlayerProfile.objects.create(
                    user=user, institution=institution, campus_id=campus_id
                )
        except IntegrityError:
            if PlayerProfile.objects.filter(institution=institution, campus_id=campus_id).exists():
                raise CampusIdTaken(institution.campus_id_label) from None
            raise
        user.groups.add(Group.objects.get_or_create(name=roles.STUDENTS)[0])
        on_rosters = Season.objects.filter(
            institution=institution,
            ends_on__gte=institution.today(),
            roster_entries__campus_id=campus_id,
        )
        for season in on_rosters:
            set_eligibility(
                profile=profile,
                season=season,
                status=EligibilityStatus.ELIGIBLE,
                source=EligibilitySource.ROSTER,
                reason="On the registrar's roster",
                actor=None,
                overrule_director=False,
            )
    return profile


ROLE_GROUPS = {"front_desk": roles.FRONT_DESK, "director": roles.DIRECTORS}


def _may_change_role(actor: User, role: str, institution) -> bool:
    """Directors appoint and remove front-desk staff; only site admins appoint directors."""
    if role == "director":
        return roles.is_site_admin(actor)
    return roles.is_director_of(actor, institution)


def role_grant(*, actor: User, user: User, role: str) -> None:
    """Give a user the front-desk or director role at their institution. Directors appoint
    front-desk staff; only site admins appoint directors. Admin access follows the director role."""
    if role not in ROLE_GROUPS:
        raise DomainError(f"{role!r} is not a role (front_desk or director).")
    institution = roles.institution_of(user)
    if institution is None:
        raise DomainError(f"{user} has no institution profile.")
    if not _may_change_role(actor, role, institution):
        raise NotAllowed("You may not grant that role.")
    with transaction.atomic():
        user.groups.add(Group.objects.get_or_create(name=ROLE_GROUPS[role])[0])
        if role == "director" and not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])


def role_revoke(*, actor: User, user: User, role: str) -> None:
    if role not in ROLE_GROUPS:
        raise DomainError(f"{role!r} is not a role (front_desk or director).")
    if not _may_change_role(actor, role, roles.institution_of(user)):
        raise NotAllowed("You may not revoke that role.")
    with transaction.atomic():
        user.groups.remove(*Group.objects.filter(name=ROLE_GROUPS[role]))
        if role == "director" and user.is_staff and not user.is_superuser:
            user.is_staff = False
            user.save(update_fields=["is_staff"])


def preferences_update(*, actor: User, profile: PlayerProfile, **choices: bool) -> PlayerProfile:
    """A person's own e-mail preferences."""
    if profile.user_id != actor.pk:
        raise NotAllowed("You can only change your own preferences.")
    allowed = {"email_match_activity", "email_reminders", "email_digest"}
    unknown = set(choices) - allowed
    if unknown:
        raise DomainError(f"Unknown preferences: {', '.join(sorted(unknown))}.")
    for name, value in choices.items():
        setattr(profile, name, bool(value))
    profile.save(update_fields=list(choices))
    return profile


def calendar_token_rotate(*, actor: User, profile: PlayerProfile) -> PlayerProfile:
    """A new secret calendar URL; the old one stops working at once."""
    if profile.user_id != actor.pk:
        raise NotAllowed("You can only change your own calendar link.")
    profile.calendar_token = uuid.uuid4()
    profile.save(update_fields=["calendar_token"])
    return profile

"""Students and staff: signing up with a campus ID, the front-desk and director roles, each
person's name, e-mail address, e-mail preferences and calendar link."""

import uuid

from allauth.account.internal.flows.email_verification import verify_email
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from core.errors import DomainError, NotAllowed

from .. import roles
from ..errors import CampusIdTaken
from ..models import (
    EligibilitySource,
    EligibilityStatus,
    Institution,
    PlayerProfile,
    RosterEntry,
    Season,
    User,
)
from ..signals import names_changed
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
                raise CampusIdTaken() from None
            raise
        user.groups.add(Group.objects.get_or_create(name=roles.STUDENTS)[0])
        # The registrar's latest word on this campus ID's directory information (P2).
        latest = (
            RosterEntry.objects.filter(season__institution=institution, campus_id=campus_id)
            .order_by("-season__starts_on", "-imported_at")
            .values_list("withholds_name", flat=True)
            .first()
        )
        if latest:
            profile.registrar_withholds = True
            profile.save(update_fields=["registrar_withholds"])
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


NAME_MAX = 150  # User.first_name and last_name; the signup refuses longer names the same way.


def name_withhold(*, actor: User, profile: PlayerProfile, withhold: bool) -> PlayerProfile:
    """A student's own choice to withhold their name (P2): everywhere but their own matches and
    staff pages they are "Player N". The registrar's opt-out stands whatever they choose here.
    Their leagues' pages are rendered again after the commit (``signals.names_changed``)."""
    if profile.user_id != actor.pk:
        raise NotAllowed("You can only choose for yourself whether your name is shown.")
    with transaction.atomic():
        locked = PlayerProfile.objects.select_for_update().get(pk=profile.pk)
        if locked.withholds_name != withhold:
            locked.withholds_name = withhold
            locked.save(update_fields=["withholds_name"])
            names_changed.send(sender=PlayerProfile, profile_ids=[locked.pk])
    profile.withholds_name = withhold
    return profile


def name_change(*, actor: User, user: User, first_name: str, last_name: str) -> User:
    """A person's own name, as the signup takes it: both parts, at most 150 characters each.
    Eligibility does not follow the name (L10: the roster and the front desk match the campus
    ID, which only the director changes); the stored pages of their leagues are rendered again
    after the commit (`league/receivers.py` · `render_the_pages_of_a_renamed_player`)."""
    if user.pk != actor.pk:
        raise NotAllowed("You can only change your own name.")
    first_name, last_name = first_name.strip(), last_name.strip()
    for label, value in (("First name", first_name), ("Last name", last_name)):
        if not value:
            raise DomainError(f"{label} cannot be empty.")
        if len(value) > NAME_MAX:
            raise DomainError(f"{label} can be at most {NAME_MAX} characters long.")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if (locked.first_name, locked.last_name) == (first_name, last_name):
            return locked
        locked.first_name, locked.last_name = first_name, last_name
        locked.save(update_fields=["first_name", "last_name"])
    user.first_name, user.last_name = first_name, last_name
    return user


def email_refusal(*, user: User, email: str) -> str | None:
    """Why `user` may not move to `email`, or None. A person with a profile keeps to their own
    institution's e-mail domains: the domain decided the institution at signup, and an address
    elsewhere would leave it (L10). Asked when a change is requested and again when it is
    confirmed, since a domain may be dropped in between."""
    profile = PlayerProfile.objects.filter(user_id=user.pk).select_related("institution").first()
    if profile is not None and not profile.institution.accepts_email(email):
        domains = " or ".join(profile.institution.domains)
        return (
            f"Use your campus e-mail address: {profile.institution} accepts addresses at {domains}."
        )
    return None


def email_change_request(
    *, actor: User, user: User, email: str, request: HttpRequest | None = None
) -> EmailAddress:
    """Ask to move `user` to `email`: allauth keeps it as their pending address and mails a
    verification link there (ACCOUNT_CHANGE_EMAIL). Nothing else changes until the link is
    followed: the old address stays the login, the one mail goes to and the one opponents
    see; a second request replaces the first. An address of another account is not refused
    here, as allauth's signup does not say so either (enumeration): its confirmation is."""
    if user.pk != actor.pk:
        raise NotAllowed("You can only change your own e-mail address.")
    email = email.strip().lower()
    if email == user.email.lower():
        raise DomainError(f"{email} is already your e-mail address.")
    refusal = email_refusal(user=user, email=email)
    if refusal:
        raise DomainError(refusal)
    with transaction.atomic():
        return EmailAddress.objects.add_new_email(request, user, email)


def email_change_confirm(*, request: HttpRequest | None, email_address: EmailAddress) -> bool:
    """The link sent to an address was followed (at signup or for a change): allauth marks it
    verified and, for a change, makes it the user's address (`User.email`, the login, where
    mail goes, what opponents see) and removes the old one, all in one transaction. Refused
    when the institution no longer accepts the address or another account has it (a
    DomainError; nothing changes). False when allauth refused it (it says why itself: another
    account verified the address first)."""
    user = email_address.user
    refusal = email_refusal(user=user, email=email_address.email)
    if refusal:
        raise DomainError(refusal)
    taken = DomainError(f"{email_address.email} belongs to another account: it was not added.")
    if User.objects.filter(email__iexact=email_address.email).exclude(pk=user.pk).exists():
        raise taken
    try:
        with transaction.atomic():
            User.objects.select_for_update().filter(pk=user.pk).first()
            return verify_email(request, email_address)
    except IntegrityError:
        raise taken from None  # another account took it a moment ago: User.email is unique


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

"""Read queries about people, seasons and eligibility."""

from datetime import date

from django.db.models import Exists, OuterRef, QuerySet

from core.compiled import CompiledQuery, counted

from . import roles
from .models import (
    CampusSignIn,
    Checkout,
    Eligibility,
    EligibilitySource,
    EligibilityStatus,
    EquipmentItem,
    Institution,
    PlayerProfile,
    Season,
)

# The season, the eligibility and the profile are read on every student page: compiled once
# (core.compiled), since writing their SQL took the ORM longer than running it.
SEASON_RUNNING = CompiledQuery(
    lambda institution_id, today: Season.objects.filter(
        institution_id=institution_id, starts_on__lte=today, ends_on__gte=today
    ).order_by("-starts_on")[:1],
    institution_id=int,
    today=date,
)
SEASON_NEXT = CompiledQuery(
    lambda institution_id, today: Season.objects.filter(
        institution_id=institution_id, starts_on__gt=today
    ).order_by("starts_on")[:1],
    institution_id=int,
    today=date,
)
ELIGIBILITY = CompiledQuery(
    lambda profile_id, season_id: Eligibility.objects.filter(
        profile_id=profile_id, season_id=season_id
    ).select_related("decided_by")[:1],
    profile_id=int,
    season_id=int,
)


def institution_counts(institution_id: int, **counts):
    """The institution (its id alone) with each queryset's rows counted (or each expression
    given), named as given, in one statement: the form a compiled query can read counts in
    (``core.compiled.counted``)."""
    return (
        Institution.objects.filter(pk=institution_id)
        .annotate(
            **{
                name: counted(each) if isinstance(each, QuerySet) else each
                for name, each in counts.items()
            }
        )
        .only("pk")
    )


def current_season(institution: Institution, today=None) -> Season | None:
    """The season running today in the institution's time zone, else the next one to start."""
    today = today or institution.today()
    return SEASON_RUNNING.first(institution_id=institution.pk, today=today) or SEASON_NEXT.first(
        institution_id=institution.pk, today=today
    )


def eligibility_of(profile: PlayerProfile, season: Season) -> Eligibility:
    """The decision for this student and season; an unsaved `pending` one when none exists."""
    found = ELIGIBILITY.first(profile_id=profile.pk, season_id=season.pk)
    if found:
        found.profile, found.season = profile, season  # already loaded: no query to reach them
    return found or Eligibility(
        profile=profile,
        season=season,
        status=EligibilityStatus.PENDING,
        source=EligibilitySource.NONE,
    )


def next_step_for(eligibility: Eligibility) -> str:
    """What a student should do about their status, in one sentence."""
    institution = eligibility.profile.institution
    if eligibility.status == EligibilityStatus.ELIGIBLE:
        return "You can join leagues and be scheduled this season."
    if eligibility.status == EligibilityStatus.INELIGIBLE:
        return "Talk to the intramural director if you think this is wrong."
    where = institution.front_desk_location or "the recreation center front desk"
    return (
        f"Show your current campus picture ID at {where}, or wait until the registrar's roster for "
        f"{eligibility.season.name} is imported."
    )


def institution_for_email(email: str) -> Institution | None:
    """The institution whose e-mail domains accept this address (there are only a handful)."""
    for institution in Institution.objects.all():
        if institution.accepts_email(email):
            return institution
    return None


def open_checkouts(institution: Institution | int):
    return (
        Checkout.objects.filter(item__institution=institution, checked_in_at__isnull=True)
        .select_related("item", "profile__user")
        .order_by("due_at")
    )


def available_items(institution: Institution):
    out = Checkout.objects.filter(checked_in_at__isnull=True).values("item_id")
    return (
        EquipmentItem.objects.filter(institution=institution, active=True)
        .exclude(pk__in=out)
        .order_by("kind", "label")
    )


def pending_students(institution: Institution | int, season: Season | int | None):
    """Students with a campus ID on whom nothing is decided for the season (L10); the
    institution and the season may be given by their ids."""
    if season is None:
        return PlayerProfile.objects.none()
    decided = Eligibility.objects.filter(profile=OuterRef("pk"), season=season).exclude(
        status=EligibilityStatus.PENDING
    )
    return (
        PlayerProfile.objects.filter(
            institution=institution, user__groups__name=roles.STUDENTS, user__is_active=True
        )
        .exclude(campus_id="")
        .exclude(Exists(decided))
        .select_related("user")
        .order_by("user__last_name", "user__first_name")
    )


def overdue_checkouts(institution: Institution | int, now):
    return open_checkouts(institution).filter(due_at__lt=now)


def password_refused_for(user):
    """The campus sign-in a student must use instead of their password, or None: their
    institution requires it of its students and their account is joined to the campus identity.
    Staff, volunteers and guests keep their passwords."""
    from allauth.socialaccount.models import SocialAccount

    profile = PlayerProfile.objects.filter(user_id=user.pk).first()
    if profile is None or not roles.in_group(user, roles.STUDENTS):
        return None
    sign_in = (
        CampusSignIn.objects.select_related("institution")
        .filter(institution_id=profile.institution_id, enabled=True, require_for_students=True)
        .first()
    )
    if sign_in is None or not SocialAccount.objects.filter(user_id=user.pk).exists():
        return None
    return sign_in

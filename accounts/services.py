"""Every change to people, roles and eligibility. Keyword-only functions taking model instances
and the acting user; each runs in one transaction and raises a DomainError on a broken rule."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from core.errors import DomainError, NotAllowed

from . import roles
from .errors import NotEligible
from .models import (
    Checkout,
    Eligibility,
    EligibilityEvent,
    EligibilitySource,
    EligibilityStatus,
    EquipmentItem,
    IdCheck,
    Institution,
    PlayerProfile,
    RosterEntry,
    Season,
    User,
)
from .roster import decode_roster, parse_roster
from .selectors import eligibility_of

MESSAGE_REASON_REQUIRED = "A reason is required."


# --- Eligibility (L10) -----------------------------------------------------------------------


def require_eligible(*, profile: PlayerProfile, season: Season) -> None:
    """The one gate later code calls before a student joins a league or is scheduled (L10)."""
    if profile.institution_id != season.institution_id:
        raise NotEligible(f"{profile.user} is not a student of {season.institution}.")
    eligibility = eligibility_of(profile, season)
    if eligibility.status == EligibilityStatus.ELIGIBLE:
        return
    if eligibility.status == EligibilityStatus.INELIGIBLE:
        why = f": {eligibility.reason}" if eligibility.reason else ""
        raise NotEligible(f"{profile.user} is not eligible to play in {season.name}{why}.")
    raise NotEligible(
        f"{profile.user} is not yet eligible for {season.name}: the registrar's roster or a "
        "picture-ID check at the front desk must confirm their enrolment first."
    )


def _set_status(
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
        return _set_status(
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
        return _set_status(
            profile=profile,
            season=season,
            status=status,
            source=EligibilitySource.DIRECTOR,
            reason=reason,
            actor=actor,
            overrule_director=True,
        )


# --- Students and roles ----------------------------------------------------------------------


def student_register(*, user: User, institution: Institution, campus_id: str) -> PlayerProfile:
    """A newly signed-up student: their profile, the student role, and eligibility from any
    roster already imported for a season that has not ended."""
    campus_id = institution.clean_campus_id(campus_id)
    with transaction.atomic():
        profile = PlayerProfile.objects.create(
            user=user, institution=institution, campus_id=campus_id
        )
        user.groups.add(Group.objects.get_or_create(name=roles.STUDENTS)[0])
        on_rosters = Season.objects.filter(
            institution=institution,
            ends_on__gte=institution.today(),
            roster_entries__campus_id=campus_id,
        )
        for season in on_rosters:
            _set_status(
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


def role_grant(*, actor: User, user: User, role: str) -> None:
    """Give a user the front-desk or director role at their institution. Directors appoint
    front-desk staff; only site admins appoint directors. Admin access follows the director role."""
    if role not in ROLE_GROUPS:
        raise DomainError(f"{role!r} is not a role (front_desk or director).")
    institution = roles.institution_of(user)
    if institution is None:
        raise DomainError(f"{user} has no institution profile.")
    allowed = (
        roles.is_site_admin(actor)
        if role == "director"
        else roles.is_director_of(actor, institution)
    )
    if not allowed:
        raise NotAllowed("You may not grant that role.")
    with transaction.atomic():
        user.groups.add(Group.objects.get_or_create(name=ROLE_GROUPS[role])[0])
        if role == "director" and not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])


def role_revoke(*, actor: User, user: User, role: str) -> None:
    if role not in ROLE_GROUPS:
        raise DomainError(f"{role!r} is not a role (front_desk or director).")
    institution = roles.institution_of(user)
    allowed = (
        roles.is_site_admin(actor)
        if role == "director"
        else roles.is_director_of(actor, institution)
    )
    if not allowed:
        raise NotAllowed("You may not revoke that role.")
    with transaction.atomic():
        user.groups.remove(*Group.objects.filter(name=ROLE_GROUPS[role]))
        if role == "director" and user.is_staff and not user.is_superuser:
            user.is_staff = False
            user.save(update_fields=["is_staff"])


# --- Roster import ---------------------------------------------------------------------------


@dataclass
class RosterImportResult:
    rows_read: int = 0
    added: int = 0
    already_on_roster: int = 0
    newly_eligible: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.rows_read} rows read: {self.added} added, {self.already_on_roster} already on the "
            f"roster, {len(self.rejected)} rejected; {self.newly_eligible} registered students became eligible."
        )


class RosterRejected(DomainError):
    """Strict import: some rows were bad, so nothing was imported."""

    def __init__(self, rejected: list[tuple[int, str]]):
        super().__init__(f"{len(rejected)} rows rejected, nothing imported.")
        self.rejected = rejected


BATCH = 2000


def roster_import(
    *,
    actor: User | None,
    season: Season,
    data: bytes,
    encoding: str = "utf-8",
    strict: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> RosterImportResult:
    """Import the registrar's roster CSV for a season and make the listed students eligible.

    The file is read whole before anything is written: a file-level problem raises
    RosterFileError and imports nothing. Bad rows are skipped and reported by line (or, with
    `strict`, refuse the whole import). Importing the same file again changes nothing.
    `actor` None means the command line (a site operator)."""
    institution = season.institution
    if actor is not None and not roles.is_director_of(actor, institution):
        raise NotAllowed("Only the institution's director can import its roster.")
    parsed = parse_roster(
        decode_roster(data, encoding), institution.campus_id_pattern, institution.campus_id_hint
    )
    if strict and parsed.rejected:
        raise RosterRejected(parsed.rejected)
    result = RosterImportResult(
        rows_read=len(parsed.rows) + len(parsed.rejected), rejected=parsed.rejected
    )
    total = len(parsed.rows)
    with transaction.atomic():
        existing = set(
            RosterEntry.objects.filter(
                season=season, campus_id__in=[r.campus_id for r in parsed.rows]
            ).values_list("campus_id", flat=True)
        )
        new_rows = [r for r in parsed.rows if r.campus_id not in existing]
        result.already_on_roster = total - len(new_rows)
        now = timezone.now()
        for start in range(0, len(new_rows), BATCH):
            batch = new_rows[start : start + BATCH]
            RosterEntry.objects.bulk_create(
                [
                    RosterEntry(
                        season=season,
                        campus_id=r.campus_id,
                        first_name=r.first_name,
                        last_name=r.last_name,
                        email=r.email,
                        imported_at=now,
                        imported_by=actor,
                    )
                    for r in batch
                ],
                ignore_conflicts=True,
            )
            if progress:
                progress(result.already_on_roster + start + len(batch), total)
        result.added = len(new_rows)
        result.newly_eligible = _make_roster_students_eligible(season=season, actor=actor)
    if progress and not new_rows:
        progress(total, total)
    return result


def _make_roster_students_eligible(*, season: Season, actor: User | None) -> int:
    """Set-based: every registered student on the season's roster who is not yet eligible and
    has no director's ruling becomes eligible. A constant number of queries, whatever the size."""
    on_roster = PlayerProfile.objects.filter(
        institution_id=season.institution_id,
        campus_id__in=RosterEntry.objects.filter(season=season).values("campus_id"),
    )
    decided = {
        e.profile_id: e
        for e in Eligibility.objects.select_for_update().filter(
            season=season, profile__in=on_roster
        )
    }
    reason = "On the registrar's roster"
    now = timezone.now()
    to_create, to_update, events = [], [], []
    for profile_id in on_roster.values_list("id", flat=True):
        current = decided.get(profile_id)
        if current is None:
            to_create.append(
                Eligibility(
                    profile_id=profile_id,
                    season=season,
                    status=EligibilityStatus.ELIGIBLE,
                    source=EligibilitySource.ROSTER,
                    reason=reason,
                    decided_by=actor,
                    decided_at=now,
                )
            )
            old = EligibilityStatus.PENDING
        elif (
            current.source == EligibilitySource.DIRECTOR
            or current.status == EligibilityStatus.ELIGIBLE
        ):
            continue
        else:
            old = current.status
            current.status, current.source, current.reason = (
                EligibilityStatus.ELIGIBLE,
                EligibilitySource.ROSTER,
                reason,
            )
            current.decided_by, current.decided_at = actor, now
            to_update.append(current)
        events.append(
            EligibilityEvent(
                profile_id=profile_id,
                season=season,
                old_status=old,
                new_status=EligibilityStatus.ELIGIBLE,
                source=EligibilitySource.ROSTER,
                reason=reason,
                actor=actor,
                created_at=now,
            )
        )
    Eligibility.objects.bulk_create(to_create, batch_size=BATCH)
    Eligibility.objects.bulk_update(
        to_update, ["status", "source", "reason", "decided_by", "decided_at"], batch_size=BATCH
    )
    EligibilityEvent.objects.bulk_create(events, batch_size=BATCH)
    return len(events)


# --- Equipment at the front desk (L3) -------------------------------------------------------------


def equipment_check_out(
    *, actor: User, item: EquipmentItem, profile: PlayerProfile, now=None
) -> Checkout:
    """Lend a board, dictionary or clock against the student's campus ID, due back after the
    institution's loan time."""
    now = now or timezone.now()
    institution = item.institution
    if not roles.is_front_desk_of(actor, institution):
        raise NotAllowed("Only front-desk staff can lend equipment.")
    if profile.institution_id != institution.pk:
        raise DomainError("That student belongs to another institution.")
    if not profile.campus_id:
        raise DomainError(
            "Equipment is lent against a campus ID, and this person has none on file."
        )
    with transaction.atomic():
        item = EquipmentItem.objects.select_for_update().get(pk=item.pk)
        if not item.active:
            raise DomainError(f"{item} is retired and cannot be lent.")
        open_checkout = (
            Checkout.objects.filter(item=item, checked_in_at__isnull=True)
            .select_related("profile__user")
            .first()
        )
        if open_checkout:
            raise DomainError(
                f"{item} is already out with {open_checkout.profile.user}: check it in first."
            )
        return Checkout.objects.create(
            item=item,
            profile=profile,
            checked_out_by=actor,
            checked_out_at=now,
            due_at=now + timedelta(hours=institution.loan_hours),
        )


def equipment_check_in(*, actor: User, checkout: Checkout, now=None) -> Checkout:
    now = now or timezone.now()
    if not roles.is_front_desk_of(actor, checkout.item.institution):
        raise NotAllowed("Only front-desk staff can check equipment in.")
    with transaction.atomic():
        checkout = Checkout.objects.select_for_update().select_related("item").get(pk=checkout.pk)
        if checkout.checked_in_at is not None:
            raise DomainError(f"{checkout.item} was already checked in.")
        checkout.checked_in_at = now
        checkout.checked_in_by = actor
        checkout.save(update_fields=["checked_in_at", "checked_in_by"])
        return checkout


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

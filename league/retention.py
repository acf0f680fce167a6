"""Retention (P5): the nightly erases personal data an institution no longer needs, as its
settings say, each kind in a fixed number of statements whatever the number of rows:

- a guest's e-mail address, `guest_data_days` after the last day of the events and club nights
  they entered (a guest entered in one still to come keeps theirs);
- an event volunteer's account, as long after their last event (the format's `forget_helpers`);
- a season's roster, ID checks and equipment loans, `personal_data_years` after it ended, and
  the students whose last season that was: forgotten as P4 forgets, their results kept.

Run twice, the second run finds nothing to do."""

from dataclasses import asdict, dataclass
from datetime import date, datetime, time

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q

from accounts import roles
from accounts.models import Checkout, Eligibility, IdCheck, Institution, PlayerProfile, RosterEntry
from accounts.services import profiles_forget
from core.tasks import drop_mail_to

from . import formats
from .models import Entry


@dataclass
class Erased:
    guest_addresses: int = 0
    volunteer_accounts: int = 0
    past_students: int = 0
    season_records: int = 0  # roster lines, ID checks and loans of long-past seasons

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def any(self) -> bool:
        return any(asdict(self).values())


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def retention_apply(*, institution: Institution, today: date, now) -> Erased:
    """Erase what the institution's retention settings say is due on `today` (P5)."""
    erased = Erased()
    guest_cutoff = date.fromordinal(today.toordinal() - institution.guest_data_days)
    season_cutoff = _years_before(today, institution.personal_data_years)
    with transaction.atomic():
        erased.guest_addresses = _erase_guest_addresses(institution, guest_cutoff)
        for spec in formats.registered():
            if spec.forget_helpers is not None:
                erased.volunteer_accounts += spec.forget_helpers(institution, guest_cutoff, now)
        erased.past_students = _forget_past_students(institution, season_cutoff, now)
        erased.season_records = _erase_season_records(institution, season_cutoff)
    return erased


def _erase_guest_addresses(institution, cutoff: date) -> int:
    guests = (
        PlayerProfile.objects.filter(
            institution=institution, user__isnull=True, erased_at__isnull=True
        )
        .exclude(email="")
        .annotate(last_day=Max("entries__league__rounds__play_by"))
        .filter(last_day__lt=cutoff)
    )
    due = list(guests.values_list("pk", "email"))
    drop_mail_to([address for _, address in due])
    return PlayerProfile.objects.filter(pk__in=[pk for pk, _ in due]).update(email="")


def _forget_past_students(institution, cutoff: date, now) -> int:
    """Students (never staff) whose every season, by eligibility or by entry, ended before the
    cutoff; one who never had a season is left alone (they may have signed up yesterday), and so
    is one who signed up or logged in since the cutoff (they are still about)."""
    since = datetime.combine(cutoff, time.min, tzinfo=institution.tz)
    staff = Q(user__is_staff=True) | Q(user__groups__name__in=[roles.DIRECTORS, roles.FRONT_DESK])
    later_entry = Entry.objects.filter(player=OuterRef("pk"), league__season__ends_on__gte=cutoff)
    later_season = Eligibility.objects.filter(profile=OuterRef("pk"), season__ends_on__gte=cutoff)
    some_season = Eligibility.objects.filter(profile=OuterRef("pk"))
    some_entry = Entry.objects.filter(player=OuterRef("pk"))
    students = (
        PlayerProfile.objects.filter(
            institution=institution, user__isnull=False, erased_at__isnull=True
        )
        .exclude(campus_id="")
        .exclude(staff)
        .filter(Exists(some_season) | Exists(some_entry))
        .exclude(Exists(later_entry))
        .exclude(Exists(later_season))
        .exclude(Q(user__last_login__gte=since) | Q(user__date_joined__gte=since))
    )
    return profiles_forget(students.values_list("pk", flat=True), now=now)


def _erase_season_records(institution, cutoff: date) -> int:
    seasons = institution.seasons.filter(ends_on__lt=cutoff)
    roster, _ = RosterEntry.objects.filter(season__in=seasons).delete()
    checks, _ = IdCheck.objects.filter(season__in=seasons).delete()
    # A loan belongs to no season: one returned before the cutoff is as old as those seasons.
    returned_before = datetime.combine(cutoff, time.min, tzinfo=institution.tz)
    loans, _ = Checkout.objects.filter(
        profile__institution=institution, checked_in_at__lt=returned_before
    ).delete()
    return roster + checks + loans

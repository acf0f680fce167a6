"""Seasons and who may play in each (L10): the registrar's roster, the front desk's picture-ID
checks, the decision per student and season, and its history."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from .institutions import Institution
from .people import PlayerProfile


class Season(models.Model):
    institution = models.ForeignKey(Institution, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=100, help_text="e.g. Fall 2026")
    slug = models.SlugField()
    starts_on = models.DateField()
    ends_on = models.DateField()
    registration_deadline = models.DateField()

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "slug"], name="season_slug_unique_per_institution"
            ),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.institution.slug})"

    def clean(self):
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": "A season cannot end before it starts."})
        if (
            self.registration_deadline
            and self.ends_on
            and self.registration_deadline > self.ends_on
        ):
            raise ValidationError(
                {"registration_deadline": "Registration must close before the season ends."}
            )


class RosterEntry(models.Model):
    """One line of the registrar's roster for a season: this campus ID is enrolled."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="roster_entries")
    campus_id = models.CharField(max_length=40)
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    email = models.EmailField(blank=True)
    withholds_name = models.BooleanField(
        default=False, help_text="The registrar's directory-information opt-out."
    )
    imported_at = models.DateTimeField(default=timezone.now)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name_plural = "roster entries"
        ordering = ["season", "campus_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "campus_id"], name="roster_campus_id_once_per_season"
            ),
        ]

    def __str__(self):
        return f"{self.campus_id} on the {self.season.name} roster"


class IdCheck(models.Model):
    """Front-desk staff saw this student's current campus picture ID (L10)."""

    profile = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="id_checks")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="id_checks")
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    checked_at = models.DateTimeField(default=timezone.now)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = "picture-ID check"
        ordering = ["-checked_at"]

    def __str__(self):
        return f"ID check of {self.profile} on {self.checked_at:%Y-%m-%d}"


class EligibilityStatus(models.TextChoices):
    ELIGIBLE = "eligible", "Eligible"
    PENDING = "pending", "Pending"
    INELIGIBLE = "ineligible", "Ineligible"


class EligibilitySource(models.TextChoices):
    NONE = "none", "Not decided yet"
    ROSTER = "roster", "Registrar roster"
    ID_CHECK = "id_check", "Picture-ID check at the front desk"
    DIRECTOR = "director", "Director's ruling"
    CAMPUS = "campus", "The campus's sign-in"


class Eligibility(models.Model):
    """The current decision for one student in one season; no row means `pending`."""

    profile = models.ForeignKey(
        PlayerProfile, on_delete=models.CASCADE, related_name="eligibilities"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="eligibilities")
    status = models.CharField(
        max_length=12, choices=EligibilityStatus.choices, default=EligibilityStatus.PENDING
    )
    source = models.CharField(
        max_length=12, choices=EligibilitySource.choices, default=EligibilitySource.NONE
    )
    reason = models.CharField(max_length=300, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "eligibility"
        ordering = ["season", "profile"]
        constraints = [
            models.UniqueConstraint(
                fields=["profile", "season"], name="one_eligibility_per_student_and_season"
            ),
        ]

    def __str__(self):
        return f"{self.profile}: {self.get_status_display()} for {self.season.name}"


class EligibilityEvent(models.Model):
    """Append-only: every change of a student's eligibility, who made it, when and why."""

    profile = models.ForeignKey(
        PlayerProfile, on_delete=models.CASCADE, related_name="eligibility_events"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="eligibility_events")
    old_status = models.CharField(max_length=12, choices=EligibilityStatus.choices)
    new_status = models.CharField(max_length=12, choices=EligibilityStatus.choices)
    source = models.CharField(max_length=12, choices=EligibilitySource.choices)
    reason = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.profile}: {self.old_status} → {self.new_status} ({self.created_at:%Y-%m-%d %H:%M})"

    def get_absolute_url(self):
        return reverse("admin:accounts_eligibilityevent_change", args=[self.pk])


class PendingStudentsChange(models.Model):
    """A change in how many of a season's students wait for an eligibility decision (L10): the
    director dashboard's count is the sum of the season's rows. PostgreSQL's triggers (migration
    ``0009_pending_students_count``) add a row in the transaction of every change that moves the
    count, whichever code makes it (a roster import, a registration, a ruling, the admin);
    the nightly job folds each season's rows into one (``accounts.pending.pending_fold``).
    Rows are only added, never updated, so an import and a registration never wait for each
    other on the count. No database constraint on the season: its rows go with it by trigger."""

    season = models.ForeignKey(
        Season, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    change = models.IntegerField()

    def __str__(self):
        return f"{self.change:+d} pending in season {self.season_id}"

"""Institutions, seasons, people and eligibility (rule L10).

Words used here:
- campus ID: the number on a student's campus card, unique within an institution; its shape is
  the institution's `campus_id_pattern` (for example seven digits).
- season: a term (fall, spring); eligibility is decided per season.
- roster: the registrar's list of enrolled campus IDs for a season, imported as CSV.
- ID check: front-desk staff saw a current campus picture ID during that season.
- eligibility: `eligible`, `pending` (nothing decided yet: the default) or `ineligible`, per
  student and season, with where it came from. A director's ruling outranks roster and ID checks.
"""

import re
import uuid
import zoneinfo
from importlib import import_module

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from core.errors import DomainError

from .campus_ids import campus_id_fits, normalize_campus_id


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a time zone name such as America/Chicago.")


def validate_regex(value: str) -> None:
    try:
        re.compile(value)
    except re.error as error:
        raise ValidationError(f"Not a valid regular expression: {error}.") from None


def _within(domain: str, parent: str) -> bool:
    """`domain` is `parent` or one of its subdomains."""
    return domain == parent or domain.endswith("." + parent)


class Institution(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    email_domains = models.TextField(
        help_text="E-mail domains students sign up with, one per line or comma-separated "
        "(subdomains are accepted too).",
    )
    campus_id_pattern = models.CharField(
        max_length=200,
        default=r"\d{7}",
        validators=[validate_regex],
        help_text="A regular expression the whole campus ID must match, e.g. \\d{7}.",
    )
    campus_id_hint = models.CharField(
        max_length=100, default="seven digits", help_text="How the ID looks, in words."
    )
    timezone = models.CharField(
        max_length=64, default="America/Chicago", validators=[validate_timezone]
    )
    default_venue = models.CharField(max_length=200, blank=True)
    front_desk_location = models.CharField(
        max_length=200,
        blank=True,
        help_text="Where students show their picture ID (shown to pending students).",
    )
    loan_hours = models.PositiveSmallIntegerField(
        default=3, help_text="How long a board or dictionary may be out before it is overdue (L3)."
    )

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def domains(self) -> list[str]:
        return [
            d.strip().lower().lstrip("@")
            for d in re.split(r"[,\s]+", self.email_domains)
            if d.strip()
        ]

    def accepts_email(self, email: str) -> bool:
        domain = email.rsplit("@", 1)[-1].lower()
        return any(_within(domain, d) for d in self.domains)

    def clean(self):
        """An address's domain decides the institution a student signs up to, so no two
        institutions may accept the same address: a domain that equals, contains or sits under
        another institution's would capture its signups."""
        super().clean()
        for domain in self.domains:
            if "." not in domain:
                raise ValidationError(
                    {"email_domains": f"{domain} is not a domain such as example.edu."}
                )
        for other in Institution.objects.exclude(pk=self.pk):
            for domain in self.domains:
                for theirs in other.domains:
                    if _within(domain, theirs) or _within(theirs, domain):
                        same = domain if domain == theirs else f"{domain} overlaps {theirs}, which"
                        raise ValidationError(
                            {"email_domains": f"{same} already belongs to {other}."}
                        )

    def clean_campus_id(self, raw: str) -> str:
        """The campus ID as stored (tidied), or a DomainError saying how this institution's IDs
        look (L10). Signup, registration and the admin call this; the roster import words its
        per-line refusal itself, with the same two functions."""
        campus_id = normalize_campus_id(raw)
        if not campus_id_fits(campus_id, self.campus_id_pattern):
            raise DomainError(f"Campus ID must be {self.campus_id_hint}.")
        return campus_id

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    def today(self):
        return timezone.now().astimezone(self.tz).date()


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra):
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.update(is_staff=True, is_superuser=True)
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    """A person who logs in with their e-mail address (django-allauth)."""

    username = None
    email = models.EmailField("e-mail address", unique=True)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []

    objects = UserManager()

    class Meta:
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_email_unique_ignoring_case"),
        ]

    def __str__(self):
        return self.get_full_name() or self.email

    @property
    def institution(self):
        """Their profile's institution; None for a site admin without one. Core's admin asks this."""
        profile = getattr(self, "profile", None)
        return profile.institution if profile else None


GUEST_NAME_MAX = 150


def player_name(first_name, last_name, email, display_name) -> str:
    """``PlayerProfile.name`` from plain values, for pages that read names without building a
    profile and a user (issue 18): a guest, who has no user (and so no e-mail), goes by their
    display name."""
    if email is None:
        return display_name
    return f"{first_name} {last_name}".strip() or email


class PlayerProfile(models.Model):
    """Who a user is at their institution: students, front-desk staff and directors alike; or a
    guest (E3, E4): a visitor with no user, who never logs in, has no campus ID and gets mail only
    at the address they gave (`email`). A guest plays only where the league is not campus-only."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        null=True,
        blank=True,
        help_text="Empty for a guest.",
    )
    display_name = models.CharField(
        max_length=GUEST_NAME_MAX, blank=True, help_text="A guest's name, as they gave it."
    )
    email = models.EmailField(
        blank=True, help_text="A guest's own address, if they gave one (a user's is on the user)."
    )
    institution = models.ForeignKey(Institution, on_delete=models.PROTECT, related_name="profiles")
    campus_id = models.CharField(max_length=40, blank=True)
    email_reminders = models.BooleanField(
        default=True, help_text="E-mail a reminder 48 hours before a match's deadline."
    )
    email_digest = models.BooleanField(
        default=True,
        help_text="Directors and front-desk staff: the morning digest of what needs a human.",
    )
    email_match_activity = models.BooleanField(
        default=True,
        help_text="E-mail when an opponent proposes, accepts, reports, confirms or disputes.",
    )
    calendar_token = models.UUIDField(
        default=uuid.uuid4, unique=True, help_text="The secret in the player's calendar feed URL."
    )

    class Meta:
        ordering = ["user__last_name", "user__first_name", "display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "campus_id"],
                condition=~Q(campus_id=""),
                name="campus_id_unique_per_institution",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(display_name=""),
                name="profile_has_user_or_display_name",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | Q(campus_id=""),
                name="guest_has_no_campus_id",
            ),
        ]

    def __str__(self):
        if self.is_guest:
            return f"{self.display_name} (guest)"
        return f"{self.user} ({self.campus_id or 'no campus ID'})"

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    @property
    def name(self) -> str:
        """The name shown wherever a player appears: a user's full name, else their e-mail;
        a guest's display name."""
        if self.user is not None:
            return player_name(self.user.first_name, self.user.last_name, self.user.email, "")
        return self.display_name

    @property
    def first_name(self) -> str:
        """How a table names them in short: a user's first name (maybe empty), a guest's name."""
        return self.user.first_name if self.user is not None else self.display_name

    @property
    def address(self) -> str:
        """Where their mail goes: a user's login address, a guest's own (maybe none)."""
        return self.user.email if self.user is not None else self.email


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


class EquipmentKind(models.TextChoices):
    BOARD = "board", "Board"
    DICTIONARY = "dictionary", "Dictionary"
    CLOCK = "clock", "Game clock"
    TILES = "tiles", "Tile set"


class EquipmentItem(models.Model):
    """A board, dictionary or clock the front desk lends against a campus ID (L3)."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="equipment")
    kind = models.CharField(max_length=12, choices=EquipmentKind.choices)
    label = models.CharField(
        max_length=60, help_text="What is written on it, e.g. Board 3 or OSPD6 #2."
    )
    active = models.BooleanField(default=True, help_text="Untick when lost or retired.")

    class Meta:
        verbose_name = "equipment item"
        ordering = ["kind", "label"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "label"], name="equipment_label_unique_per_institution"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.label}"


class Checkout(models.Model):
    """An item lent to a student; open until checked in. One open checkout per item."""

    item = models.ForeignKey(EquipmentItem, on_delete=models.PROTECT, related_name="checkouts")
    profile = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="checkouts")
    checked_out_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    checked_out_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField()
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-checked_out_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["item"],
                condition=Q(checked_in_at__isnull=True),
                name="one_open_checkout_per_item",
            ),
        ]
        indexes = [models.Index(fields=["checked_in_at", "due_at"], name="checkout_open_due")]

    def __str__(self):
        return f"{self.item} to {self.profile.name}"

    @property
    def overdue(self) -> bool:
        return self.checked_in_at is None and self.due_at < timezone.now()


class UserSession(AbstractBaseSession):
    """A session with its user as a column (accounts/sessions.py): reading the session reads the
    signed-in user, their profile and institution in the same query, one round trip where
    Django's sessions take two. Revoking stays server-side: delete the row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls):
        """The configured engine's store (what `get_decoded` decodes with), found as Django's
        SessionMiddleware finds it: the store reads this model, so the model names no store."""
        return import_module(settings.SESSION_ENGINE).SessionStore


class SignInLink(models.Model):
    """A one-time sign-in link (a volunteer's invitation): whoever follows it is signed in as
    `user` once, before `expires_at`, and their address counts as verified (the link reached
    it, or the director handed it to them on a slip). Only a hash of the secret is kept."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_links"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    next_path = models.CharField(
        max_length=200, blank=True, help_text="Where the link leads once signed in."
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "used_at"], name="sign_in_link_user_unused")]

    def __str__(self):
        return f"Sign-in link for {self.user} until {self.expires_at:%Y-%m-%d %H:%M}"

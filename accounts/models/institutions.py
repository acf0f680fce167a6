"""An institution: its e-mail domains, how its campus IDs look, its time zone and front desk."""

import re
import zoneinfo

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from core.errors import DomainError

from .. import privacy
from ..campus_ids import campus_id_fits, normalize_campus_id


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a time zone name such as America/Chicago.")


def validate_regex(value: str) -> None:
    try:
        re.compile(value)
    except re.error as error:
        raise ValidationError(f"Not a valid regular expression: {error}.") from None


# The first part of the site's own addresses (config/urls.py): a campus's leagues live at
# /<campus>/leagues/, so a campus named one of these would be hidden by the site's page.
RESERVED_CAMPUS_SLUGS = frozenset(
    {
        "about", "accounts", "admin", "api", "bench", "campus-sign-in", "desk", "director",
        "favicon.ico", "health", "help", "home", "leagues", "log-in", "login", "logout",
        "matches", "media", "privacy", "profile", "ratings", "signup", "slip", "static",
    }
)  # fmt: skip


def validate_campus_slug(value: str) -> None:
    if value.lower() in RESERVED_CAMPUS_SLUGS:
        raise ValidationError(
            "“%(value)s” is a word the site's own addresses use: choose another, such as "
            "“%(value)s-campus”.",
            params={"value": value},
            code="reserved",
        )


def _within(domain: str, parent: str) -> bool:
    """`domain` is `parent` or one of its subdomains."""
    return domain == parent or domain.endswith("." + parent)


class PublicNames(models.TextChoices):
    FULL = privacy.FULL, "Full name"
    SHORT = privacy.SHORT, "First name and last initial"
    NUMBER = privacy.NUMBER, "Player number only"


class Institution(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(
        unique=True,
        validators=[validate_campus_slug],
        help_text="Begins its leagues' addresses: /<slug>/leagues/.",
    )
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
        default=3, help_text="How long a board or dictionary may be out before it is overdue."
    )
    public_names = models.CharField(
        "names in public",
        max_length=10,
        choices=PublicNames.choices,
        default=PublicNames.FULL,
        help_text="How players are named to anyone not signed in here; a league may be "
        "stricter. Students who withhold their name are a number everywhere.",
    )
    guest_data_days = models.PositiveSmallIntegerField(
        "keep guests' addresses and volunteer accounts (days)",
        default=30,
        help_text="Days after an event before its guests' e-mail addresses and its volunteers' "
        "accounts are erased.",
    )
    personal_data_years = models.PositiveSmallIntegerField(
        "keep a past season's personal data (years)",
        default=3,
        help_text="Years after a season ends before its roster, ID checks and loans are erased, "
        "and students who played no later season are forgotten.",
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

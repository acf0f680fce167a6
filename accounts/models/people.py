"""People: users, who log in with their e-mail address, and player profiles, who a person is at
their institution (a guest's profile has no user)."""

import uuid

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from .. import privacy
from .institutions import Institution


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
        return privacy.former_name_of_address(self.email) or self.get_full_name() or self.email

    @property
    def institution(self):
        """Their profile's institution; None for a site admin without one. Core's admin asks this."""
        profile = getattr(self, "profile", None)
        return profile.institution if profile else None


GUEST_NAME_MAX = 150


def player_name(first_name, last_name, email, display_name) -> str:
    """``PlayerProfile.name`` from plain values, for pages that read names without building a
    profile and a user: a guest, who has no user (and so no e-mail), goes by their
    display name."""
    if email is None:
        return display_name
    return (
        f"{first_name} {last_name}".strip()
        or privacy.former_name_of_address(email)  # forgotten (P4): their names are blank
        or email
    )


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
    withholds_name = models.BooleanField(
        "withhold my name",
        default=False,
        help_text="Their own choice: shown as a number to everyone but their opponents and staff.",
    )
    registrar_withholds = models.BooleanField(
        default=False,
        help_text="The registrar's roster says this student withholds their directory "
        "information; only a new roster changes it.",
    )
    erased_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When this player was forgotten: their name, e-mail, campus ID and "
        "calendar token are gone; their results stay.",
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
    def withheld(self) -> bool:
        """Named only to their opponents and staff (P2)."""
        return self.withholds_name or self.registrar_withholds

    @property
    def anonymous_number(self) -> int:
        return privacy.anonymous_number(self.pk)

    def name_in(self, style: str, number: int | None = None) -> str:
        """Their name on a page others read, under a privacy style (``accounts.privacy``); no
        style: the name as given (staff pages). `number`: their player number at the club or
        event the page is about, which they go by there when shown by number (P2)."""
        if not style:
            erased = self.erased_at is not None
            return privacy.former_name(self.pk, number) if erased else self.name
        return privacy.shown_name(
            self.pk,
            self.name,
            style=style,
            withheld=self.withheld,
            erased=self.erased_at is not None,
            number=number,
        )

    @property
    def name(self) -> str:
        """The name staff and the player's opponents see: a user's full name, else their e-mail;
        a guest's display name; "Former player N" once forgotten (P4)."""
        if self.erased_at is not None:
            return privacy.former_name(self.pk)
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

"""Forgetting a person (P4): their name, e-mail address, campus ID and calendar token are erased
and they become "Former player N"; every game they played stays as it was (results are the
league's record), and the leagues they were still to play in learn of it through
``signals.forgotten``. One person on their own or the director's word (``profile_forget``), or
many at once for the nightly's retention (``profiles_forget``), by the same set-based
statements."""

import logging
import uuid

from allauth.account.models import EmailAddress
from django.db import transaction
from django.db.models import CharField, Func, OuterRef, Subquery, UUIDField, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone

from core.errors import DomainError, NotAllowed
from core.tasks import drop_mail_to

from .. import privacy, roles
from ..models import PlayerProfile, RosterEntry, SignInLink, User, UserSession
from ..signals import forgotten, names_changed

log = logging.getLogger(__name__)


class NewUUID(Func):
    """A fresh random UUID per row, as each database stores one: the old calendar link dies."""

    output_field = UUIDField()

    def as_postgresql(self, compiler, connection, **extra):
        return "gen_random_uuid()", []

    def as_sqlite(self, compiler, connection, **extra):
        return "lower(hex(randomblob(16)))", []  # Django keeps a UUID as 32 hex digits there


def forget_refusal(*, actor: User, profile: PlayerProfile) -> str | None:
    """Why `actor` may not forget `profile`, or None: a person themself, or on their request
    the director of their institution or a site admin."""
    if profile.erased_at is not None:
        day = timezone.localtime(profile.erased_at, profile.institution.tz)
        return f"{profile.name} was forgotten on {day:%b %-d, %Y}."
    if profile.user_id is not None and profile.user_id == actor.pk:
        return None
    if profile.user is not None and profile.user.is_staff and not roles.is_site_admin(actor):
        return "Only a site admin can forget someone with access to the admin."
    if roles.is_director_of(actor, profile.institution):
        return None
    return "Only the person themself or their institution's director can do that."


def profile_forget(*, actor: User, profile: PlayerProfile, reason: str = "") -> PlayerProfile:
    """Forget one person, the student themself or the director on their request (P4)."""
    with transaction.atomic():
        locked = (
            PlayerProfile.objects.select_for_update(of=("self",))
            .select_related("institution", "user")
            .get(pk=profile.pk)
        )
        refusal = forget_refusal(actor=actor, profile=locked)
        if refusal:
            raise (NotAllowed if locked.erased_at is None else DomainError)(refusal)
        profiles_forget([locked.pk], actor=actor)
    log.info(
        "profile %s forgotten by user %s%s", locked.pk, actor.pk, f": {reason}" if reason else ""
    )
    profile.refresh_from_db()
    return profile


def profiles_forget(profile_ids, *, now=None, actor: User | None = None) -> int:
    """Forget these people in a fixed number of statements, whatever their number; those
    forgotten already are left alone. `actor` is who asked (none for the nightly's retention).
    Returns how many were forgotten now. Call inside a transaction."""
    now = now or timezone.now()
    profiles = PlayerProfile.objects.filter(pk__in=list(profile_ids), erased_at__isnull=True)
    people = list(profiles.values_list("pk", "user_id", "user__email", "email", "campus_id"))
    if not people:
        return 0
    ids = [pk for pk, *_ in people]
    user_ids = [user_id for _, user_id, *_ in people if user_id]
    campus_ids = [campus_id for *_, campus_id in people if campus_id]
    addresses = {address for _, _, user_mail, own, _ in people for address in (user_mail, own)}
    # An address still being confirmed has its link in the outbox.
    addresses |= set(
        EmailAddress.objects.filter(user_id__in=user_ids).values_list("email", flat=True)
    )
    RosterEntry.objects.filter(
        season__institution__profiles__pk__in=ids, campus_id__in=campus_ids
    ).delete()
    EmailAddress.objects.filter(user_id__in=user_ids).delete()
    UserSession.objects.filter(user_id__in=user_ids).delete()
    SignInLink.objects.filter(user_id__in=user_ids).delete()
    User.groups.through.objects.filter(user_id__in=user_ids).delete()  # no role left to act in
    profile_of_user = PlayerProfile.objects.filter(user=OuterRef("pk")).values("pk")[:1]
    User.objects.filter(pk__in=user_ids).update(
        first_name="",
        last_name="",
        email=Concat(
            Value("former-"),
            Cast(Subquery(profile_of_user), CharField()),
            Value(f"@{privacy.ERASED_DOMAIN}"),
        ),
        password=f"!{uuid.uuid4().hex}",  # unusable: no password opens it
        is_active=False,
    )
    # Conditional, as the read above: a forgetting that raced this one and won is left alone.
    PlayerProfile.objects.filter(pk__in=ids, erased_at__isnull=True).update(
        campus_id="",
        email="",
        # A guest's row must keep a name (the table's check); pages read ``name``, "Former
        # player N", from ``erased_at``.
        display_name="Former player",
        calendar_token=NewUUID(),
        email_reminders=False,
        email_digest=False,
        email_match_activity=False,
        erased_at=now,
    )
    # Once they are forgotten: what other apps keep of them goes, and what their leaving
    # writes (to opponents, to the first waiting) names them as former players; the outbox
    # takes no mail to their new address (core.tasks.deliverable).
    forgotten.send(sender=PlayerProfile, profile_ids=ids, user_ids=user_ids, actor=actor)
    drop_mail_to(addresses)  # what was written to them before, sent or still waiting
    names_changed.send(sender=PlayerProfile, profile_ids=ids)
    return len(ids)

"""One-time sign-in links and the accounts of volunteers.

A director's volunteer (an event's scorer) gets an account of the director's institution and
a link that signs them in once: no password to hand over, and following it proves they hold the
address (or were handed the slip), so the address counts as verified. The secret is shown once
(in the e-mail, on the slip); only its SHA-256 is stored, and a link is spent by a conditional
update, so two clicks at once sign in once."""

import hashlib
import secrets
from datetime import datetime

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from core.errors import DomainError

from ..models import Institution, PlayerProfile, SignInLink, User

LINK_SPENT = (
    "This log-in link was used already or has expired: ask the event's director for a new one."
)


class SignInLinkError(DomainError):
    pass


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def sign_in_link_create(*, user: User, expires_at: datetime, next_path: str = "", now=None) -> str:
    """A new one-time link for `user`; returns its secret (put it in the link's URL)."""
    now = now or timezone.now()
    # Hex, not base64: a printed link a person may type has no '-' or '_' to misread at a line's end.
    token = secrets.token_hex(20)
    SignInLink.objects.create(
        user=user,
        token_hash=_hash(token),
        next_path=next_path[:200],
        created_at=now,
        expires_at=expires_at,
    )
    return token


def sign_in_link_find(token: str, *, now=None) -> SignInLink | None:
    """The link still usable for this secret, or None (unknown, used or expired)."""
    now = now or timezone.now()
    if not token or len(token) > 100:
        return None
    return (
        SignInLink.objects.filter(token_hash=_hash(token), used_at__isnull=True, expires_at__gt=now)
        .select_related("user")
        .first()
    )


def sign_in_link_redeem(*, token: str, now=None) -> SignInLink:
    """Spend the link: once only, before it expires. The user's address becomes their verified
    primary address. Raises SignInLinkError otherwise."""
    now = now or timezone.now()
    link = sign_in_link_find(token, now=now)
    if link is None or not link.user.is_active:
        raise SignInLinkError(LINK_SPENT)
    with transaction.atomic():
        spent = SignInLink.objects.filter(pk=link.pk, used_at__isnull=True).update(used_at=now)
        if spent != 1:  # another click got there first
            raise SignInLinkError(LINK_SPENT)
        user = link.user
        EmailAddress.objects.filter(user=user).exclude(email__iexact=user.email).update(
            primary=False
        )
        address = EmailAddress.objects.filter(user=user, email__iexact=user.email).first()
        if address is None:
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        elif not (address.verified and address.primary):
            address.verified = address.primary = True
            address.save(update_fields=["verified", "primary"])
    return link


def volunteer_account_create(*, institution: Institution, name: str, email: str) -> User:
    """An account of `institution` for a volunteer the director names: no password (they sign in
    with their link), no campus ID, no role of its own (the event's scorer row gives its rights).
    Call inside the caller's transaction."""
    first, _, last = " ".join(name.split()).partition(" ")
    user = User.objects.create(
        email=email.lower(),
        first_name=first[:150],
        last_name=last[:150],
        password=make_password(None),  # unusable: the link signs them in
    )
    PlayerProfile.objects.create(user=user, institution=institution)
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    return user

"""`events` follows what accounts announces: a forgotten volunteer's invitations (P4)."""

from django.db.models import CharField, Value
from django.db.models.functions import Cast, Concat
from django.dispatch import receiver

from accounts import privacy
from accounts.signals import forgotten

from .models import EventScorer


@receiver(forgotten)
def erase_the_invitations_of_forgotten_volunteers(sender, user_ids, **kwargs):
    """An invitation keeps the name and address the director typed: both go, the row stays
    (it says an event had a volunteer, and the account it gave rights to is closed)."""
    EventScorer.objects.filter(user_id__in=list(user_ids)).update(
        name="Former volunteer",
        email=Concat(
            Value("former-volunteer-"),
            Cast("pk", CharField()),
            Value(f"@{privacy.ERASED_DOMAIN}"),
        ),
    )

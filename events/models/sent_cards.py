"""Cards a scoring table sent from a device (issue 52): each typed card carries a key the page
made when it was typed, so a card sent again (the Wi-Fi came back halfway through an answer, two
tabs sending the same queue) lands once. The row keeps what the server said about it, for a
resend to hear the same answer and for the director to see which cards came late."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from league.models import Round


class SentCard(models.Model):
    """One card typed at a scoring table and sent by the page's script: counted, the same as the
    table already had, or refused with the reason said to the volunteer. A table's own page
    sends its players' cards and confirmations the same way (``kind``; ``sent_by`` is empty for
    a player known by their slip), saved until the other seats confirm, or counted. ``typed_at`` is the
    device's own clock (it may be wrong); ``arrived_at`` the server's."""

    class Outcome(models.TextChoices):
        COUNTED = "counted", "Counted"
        SAME = "same", "Already counted: the same scores"
        SAVED = "saved", "Saved: waiting for the other seats"
        REFUSED = "refused", "Refused"

    class Kind(models.TextChoices):
        SCORING = "scoring", "A card typed at the scoring table"
        TABLE_CARD = "card", "A card a player entered at their table"
        TABLE_CONFIRM = "confirm", "A player's confirmation of their table's card"

    key = models.UUIDField(unique=True, help_text="Made by the page when the card was typed.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SCORING)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sent_cards")
    table = models.PositiveIntegerField()
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    device = models.CharField(max_length=40, help_text="The page's name for its device.")
    scores = models.JSONField(default=list)
    typed_at = models.DateTimeField(help_text="By the device's clock.")
    arrived_at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    reason = models.CharField(max_length=600, blank=True)

    class Meta:
        indexes = [models.Index(fields=["round", "arrived_at"])]

    def __str__(self):
        return f"{self.round} table {self.table}: {self.outcome or 'arriving'}"

    @property
    def late(self) -> bool:
        """Sent more than a minute after it was typed: the device was offline meanwhile."""
        return (self.arrived_at - self.typed_at).total_seconds() > 60

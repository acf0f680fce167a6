"""A club night's own records (E4): when the director closed it, when its table cards were last
printed. The night itself is league's `Round`; its tables are matches."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from league.models import Round


class NightClosing(models.Model):
    """The director closed the night (``clubs.services.close_night``): its tables still without
    scores became double forfeits, and nobody is checked in or seated at it any more."""

    night = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="closing")
    closed_at = models.DateTimeField(default=timezone.now)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=300)

    def __str__(self):
        return f"{self.night} closed"


class CardsPrinted(models.Model):
    """When the night's table cards (``cards.pdf``) were last downloaded
    (``clubs.services.cards_printed``): a table seated or joined after it has a card that is
    out of date, and the night's page says to reprint it."""

    night = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="cards_printed")
    printed_at = models.DateTimeField(default=timezone.now)
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self):
        return f"{self.night} cards printed"

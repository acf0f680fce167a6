"""A club night's own record (E4): when the director closed it. The night itself is league's
`Round`; its tables are matches."""

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

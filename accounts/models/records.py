"""What the site keeps about its own handling of personal data: every export of a roster or of
a person's data is recorded (P6), so a director can answer "who took this list, and when"."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .institutions import Institution


class DataExport(models.Model):
    """One download of personal data: a roster, a league's standings or results, an event's
    entrants, or a student's own data."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="exports")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who downloaded it (empty once their account is gone).",
    )
    what = models.CharField(max_length=40, help_text="The kind of file, e.g. roster.csv.")
    subject = models.CharField(
        max_length=200, blank=True, help_text="Whose data: a league, a season or a person."
    )
    rows = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["institution", "-created_at"])]

    def __str__(self):
        return f"{self.what} {self.subject} at {self.created_at:%Y-%m-%d %H:%M}"

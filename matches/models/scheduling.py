"""Agreeing when to play (L1, L2) and reporting an opponent who cannot be reached (L5)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from accounts.models import PlayerProfile

from .match import Match


class ScheduleProposal(models.Model):
    """Up to three times at the league's venue (L1, L2); the other player accepts one or counters."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        SUPERSEDED = "superseded", "Superseded"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="proposals")
    proposed_by = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    accepted_time = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(status="open"), name="one_open_proposal_per_match"
            ),
        ]

    def __str__(self):
        return f"Proposal by {self.proposed_by.user} ({self.status})"


class ProposedTime(models.Model):
    proposal = models.ForeignKey(ScheduleProposal, on_delete=models.CASCADE, related_name="times")
    starts_at = models.DateTimeField()

    class Meta:
        ordering = ["starts_at"]

    def __str__(self):
        return self.starts_at.isoformat()


class ContactIssue(models.Model):
    """ "I can't reach my opponent" (L5): waits for the director's decision."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="contact_issues")
    reported_by = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="+")
    attempts = models.TextField(help_text="How and when you tried to reach your opponent.")
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolution = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = "can't-reach-opponent report"
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(resolved_at__isnull=True),
                name="one_open_contact_issue_per_match",
            ),
        ]

    def __str__(self):
        return f"Can't reach opponent: {self.match}"

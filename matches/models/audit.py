"""The audit trail: every change to a match, who made it, before, after and why."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .match import Match

AUDIT_ACTIONS = {
    "created": "Match drawn",
    "proposal_created": "Times proposed",
    "scheduled": "Time accepted",
    "equipment_proposed": "Other dictionary or board proposed",
    "equipment_agreed": "Other dictionary or board agreed",
    "contact_issue_reported": "Can't reach opponent reported",
    "reported": "Result reported",
    "seat_confirmed": "Result confirmed by one of the other players",
    "confirmed": "Result confirmed",
    "auto_confirmed": "Result confirmed (nobody disputed it in time)",
    "disputed": "Result disputed",
    "forfeit": "Forfeit awarded",
    "double_forfeit": "Double forfeit",
    "replay_ordered": "Replay ordered",
    "deadline_extended": "Deadline extended",
    "result_recorded": "Result recorded",
    "card_entered": "Score card entered",
    "report_upheld": "Report upheld",
    "report_taken_back": "Report taken back",
    "bye_filled": "Bye given to a late entrant: now a game",
    "seat_added": "A latecomer joined the table",
    "round_started_early": "Round started early: the table takes its card",
}


class AuditEvent(models.Model):
    """Append-only: who changed what about a match, when, before, after and why."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="audit_events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty when the system acted (the nightly job).",
    )
    action = models.CharField(max_length=40)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"

    @property
    def label(self) -> str:
        return AUDIT_ACTIONS.get(self.action, self.action.replace("_", " ").capitalize())

"""Who plays in a league: entries (withdrawn with a reason, never deleted), the waitlist of a full
league, and who is checked in at a club night or an event round."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from accounts.models import PlayerProfile

from .leagues import League
from .rounds import Round


class Entry(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The director's order for a single-elimination tournament."
    )
    joined_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.CharField(max_length=300, blank=True)
    player_number = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The entrant's number at a club or event (unique in the league, never reused "
        "for someone else); empty until one is given.",
    )

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["league", "seed", "joined_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "player"], name="one_entry_per_player_and_league"
            ),
            models.UniqueConstraint(
                fields=["league", "player_number"],
                condition=Q(player_number__isnull=False),
                name="player_number_unique_per_league",
            ),
        ]

    def __str__(self):
        return f"{self.player.name} in {self.league}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class WaitlistEntry(models.Model):
    """A student waiting for a place in a full league before its draw, first come first served
    (`joined_at`, then id). A table of its own, not a state of `Entry`: every count of a
    league's players reads active entries, and a waiting student must never be one. The row
    goes when its student gets a place or leaves the waitlist; once the rounds are drawn the
    waitlist is closed and the rows left say "the league started without you"."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="waitlist")
    player = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="waiting")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "waitlist place"
        ordering = ["league", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="waiting_once_per_league"),
        ]

    def __str__(self):
        return f"{self.player.name} waiting for {self.league}"


class CheckIn(models.Model):
    """An entrant is present at a club night (E4) or an event round (E3): only those checked in
    are seated."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="check_ins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="check_ins")
    checked_in_at = models.DateTimeField(default=timezone.now)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty when the system checked them in (pair_round --all-entrants).",
    )

    class Meta:
        ordering = ["round", "checked_in_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_check_in_per_night"),
        ]

    def __str__(self):
        return f"{self.entry.player} at {self.round}"

"""A match, its status and its seats: who plays, in which order, and what the game gave each
seat (score, place, outcome)."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import PlayerProfile

from ..results import MAX_SCORE, MIN_SCORE


class MatchStatus(models.TextChoices):
    UNSCHEDULED = "unscheduled", "Unscheduled"
    SCHEDULED = "scheduled", "Scheduled"
    REPORTED = "reported", "Reported, awaiting confirmation"
    DISPUTED = "disputed", "Disputed"
    CONFIRMED = "confirmed", "Confirmed"
    RESOLVED = "resolved", "Resolved by the director"
    FORFEIT = "forfeit", "Forfeit"
    DOUBLE_FORFEIT = "double_forfeit", "Double forfeit"
    BYE = "bye", "Bye"


OPEN_STATUSES = [MatchStatus.UNSCHEDULED, MatchStatus.SCHEDULED]
FINAL_STATUSES = [
    MatchStatus.CONFIRMED,
    MatchStatus.RESOLVED,
    MatchStatus.FORFEIT,
    MatchStatus.DOUBLE_FORFEIT,
    MatchStatus.BYE,
]


class Outcome(models.TextChoices):
    WIN = "win", "Win"
    LOSS = "loss", "Loss"
    TIE = "tie", "Tie"
    FORFEIT_WIN = "forfeit_win", "Forfeit win"
    FORFEIT_LOSS = "forfeit_loss", "Forfeit loss"
    DOUBLE_FORFEIT = "double_forfeit", "Double forfeit"
    BYE = "bye", "Bye"


class GameEnd(models.TextChoices):
    """How the game ended (G3)."""

    WENT_OUT = "went_out", "A player went out with the bag empty"
    NO_PLAY_POSSIBLE = "no_play_possible", "No play was possible"
    SCORELESS_TURNS = "scoreless_turns", "Every player passed three times in a row"
    TIME_UP = "time_up", "Time was up (equal turns played)"


class Match(models.Model):
    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey("league.Round", on_delete=models.CASCADE, related_name="matches")
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.UNSCHEDULED
    )
    deadline = models.DateTimeField(help_text="After this only the director records a result.")
    scheduled_at = models.DateTimeField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    agreed_equipment = models.CharField(
        max_length=200,
        blank=True,
        help_text="Another dictionary or board both players agreed to.",
    )
    equipment_proposed = models.CharField(
        max_length=200,
        blank=True,
        help_text="Another dictionary or board one player proposed, waiting for the others.",
    )
    equipment_agreed_by = models.JSONField(
        default=list,
        blank=True,
        help_text="The players (profile ids) who agreed to the proposal so far.",
    )
    scorekeeper = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
        help_text="The seat that keeps score and reports at a table that has one.",
    )
    table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The table's number at a club night or event round."
    )
    ended_by = models.CharField(
        max_length=20,
        choices=GameEnd.choices,
        blank=True,
        help_text="How the game ended, as its score card says; a report keeps its own.",
    )
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    finalised_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["round__number", "id"]
        indexes = [
            models.Index(fields=["status", "deadline"], name="match_status_deadline"),
            # The director's dashboard counts each league's matches not final: this keeps the
            # count to those matches' index entries, not every match of the league.
            models.Index(
                fields=["league"],
                condition=~Q(status__in=FINAL_STATUSES),
                name="match_not_final_by_league",
            ),
        ]

    def __str__(self):
        names = " v ".join(seat.player.name for seat in self.seats.all())
        return f"Round {self.round.number}: {names}"

    def get_absolute_url(self):
        return reverse("match_detail", args=[self.pk])

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    order = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(4)]
    )
    player = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="seats")
    score = models.IntegerField(null=True, blank=True)
    pre_adjustment_score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 = first; tied seats share a place."
    )
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)

    class Meta:
        ordering = ["match", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "order"], name="seat_order_unique_per_match"),
            models.UniqueConstraint(fields=["match", "player"], name="player_once_per_match"),
            models.CheckConstraint(
                condition=Q(order__gte=1, order__lte=4), name="seat_order_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(score__isnull=True) | Q(score__gte=MIN_SCORE, score__lte=MAX_SCORE),
                name="seat_score_in_range",
            ),
        ]

    def __str__(self):
        return f"{self.player.name} (seat {self.order})"

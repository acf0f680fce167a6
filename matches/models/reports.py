"""A game's result as a seat reports it (L7, G9), one line per seat, and the disputes of the
other seats (L9)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import PlayerProfile

from ..results import MAX_SCORE, MIN_SCORE
from .match import GameEnd, Match, Outcome


class ReportStatus(models.TextChoices):
    PENDING = "pending", "Awaiting confirmation"
    CONFIRMED = "confirmed", "Confirmed"
    DISPUTED = "disputed", "Disputed"
    SUPERSEDED = "superseded", "Superseded"
    TAKEN_BACK = "taken_back", "Taken back by the reporter"


LIVE_REPORT_STATUSES = [ReportStatus.PENDING, ReportStatus.CONFIRMED, ReportStatus.DISPUTED]


class ResultReport(models.Model):
    """The account of a game by the seat who reports it (L7, G9): one ``ReportScore`` per seat,
    how the game ended (G3), and optionally the point of a discrepancy marked during the game
    (L9). Every other seat confirms (its ``ReportScore.confirmed_at``) or disputes it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    submitted_by = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(
        max_length=12, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    ended_by = models.CharField(max_length=20, choices=GameEnd.choices, default=GameEnd.WENT_OUT)
    discrepancy_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    discrepancy_note = models.CharField(max_length=500, blank=True)
    game_record = models.TextField(
        blank=True, help_text="The game's GCG record, when the reporter attached one (issue 6)."
    )
    game_record_note = models.CharField(
        max_length=500,
        blank=True,
        help_text="How the record's totals were put under the league's end-of-game rule.",
    )
    submitted_at = models.DateTimeField(default=timezone.now)
    confirm_by = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-submitted_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status__in=LIVE_REPORT_STATUSES),
                name="one_live_report_per_match",
            ),
        ]
        indexes = [models.Index(fields=["status", "confirm_by"], name="report_status_confirm_by")]

    def __str__(self):
        scores = "–".join(str(each.score) for each in self.scores.all())
        return f"{scores} ({self.get_status_display()})"

    def score_list(self) -> list[int]:
        return [each.score for each in self.scores.all()]


class ReportScore(models.Model):
    """One seat's line of a report: its final score, the score before the unplayed-tile
    adjustment and the tiles left (G1, G2), the place they give (G9), and when that seat
    confirmed the report (the reporter's own line at once)."""

    report = models.ForeignKey(ResultReport, on_delete=models.CASCADE, related_name="scores")
    order = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(4)]
    )
    score = models.SmallIntegerField(
        validators=[MinValueValidator(MIN_SCORE), MaxValueValidator(MAX_SCORE)]
    )
    pre_adjustment = models.SmallIntegerField(null=True, blank=True)
    tiles_left = models.CharField(max_length=7, blank=True)
    place = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["report", "order"]
        constraints = [
            models.UniqueConstraint(fields=["report", "order"], name="report_score_once_per_seat"),
            models.CheckConstraint(
                condition=Q(score__gte=MIN_SCORE, score__lte=MAX_SCORE),
                name="report_score_in_range",
            ),
        ]

    def __str__(self):
        return f"seat {self.order}: {self.score}"


class Dispute(models.Model):
    """A seat's version of the game and the point of the discrepancy (L9); the director rules.
    At a table of three or four every seat that disagrees files its own (G9)."""

    class Resolution(models.TextChoices):
        UPHELD = "upheld", "Report upheld"
        AMENDED = "amended", "Scores amended"
        REPLAY = "replay", "Replay ordered"
        FORFEIT = "forfeit", "Forfeit"
        DOUBLE_FORFEIT = "double_forfeit", "Double forfeit"

    report = models.ForeignKey(ResultReport, on_delete=models.CASCADE, related_name="disputes")
    # The match's league, copied when the dispute is raised (a match never changes league): the
    # director's queue and its count find an institution's waiting disputes from an index on
    # it, where going through the report and the match would join every one of them.
    league = models.ForeignKey(
        "league.League", on_delete=models.CASCADE, related_name="+", editable=False
    )
    raised_by = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="+")
    scores = models.JSONField(
        default=list, help_text="The disputer's final score for each seat, in seat order."
    )
    turn = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Turn number of the discrepancy."
    )
    scores_at_turn = models.JSONField(
        default=list, blank=True, help_text="Each seat's score at that turn, when given."
    )
    move = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The move of the report's game record this dispute points at (1 = first line).",
    )
    note = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    resolution = models.CharField(max_length=16, choices=Resolution.choices, blank=True)
    reason = models.TextField(blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "raised_by"], name="one_dispute_per_seat_and_report"
            ),
        ]
        indexes = [
            # The dispute queue's order (open first, oldest first; the admin adds -id): a page
            # is read from the index, 25 rows joined, not every report of the institution
            # hashed and sorted.
            # PostgreSQL's DESC puts nulls (the open disputes) first, as the queue asks; SQLite
            # can't write NULLS FIRST in an index.
            models.Index(
                F("resolved_at").desc(),
                F("created_at").asc(),
                F("id").desc(),
                name="dispute_queue_order",
            ),
            models.Index(
                fields=["league"],
                condition=models.Q(resolved_at__isnull=True),
                name="dispute_waiting_by_league",
            ),
        ]

    def __str__(self):
        return f"Dispute of {self.report.match}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None

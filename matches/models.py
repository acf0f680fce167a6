"""Matches and their life: seats, schedule proposals, result reports, disputes, the audit trail.

Words used here:
- seat: a player's place in a match, in playing order (two to four, G9). The order stands for
  the draw for first play; at a table of three or four the scorekeeper (the first seat unless
  the table names another) reports. A final match stores each seat's score, place and outcome,
  so standings read seats alone.
- place: a seat's placing in a played game, by final score, ties broken by the score before the
  unplayed-tile adjustment (G2); only an exact tie on both shares a place (1 = first).
- outcome: what the game was for that seat: a win (sole first place), a tie (a shared first
  place), a loss; or a forfeit won or lost, a double forfeit, a bye. Standings count a game of N
  seats as N-1 games between its seats (G9), from the places.
- spread: points for minus points against. A forfeit win counts +forfeit_spread and the loss
  -forfeit_spread; a double forfeit is a loss for both with -double_forfeit_spread each; a bye is
  a win with +forfeit_spread. Forfeits, double forfeits and byes add to spread only, never to
  points for or against.
- forfeit: the director (or a withdrawal) gives the match to one side without a game.
- double forfeit: nobody reported in time (L8) or the director ruled it; a loss for both.
- bye: no opponent this round (odd number of players).
- report: the account of a game by the seat who reports it (the winner, L7; at a club table the
  scorekeeper, G9), one score per seat; live while pending, confirmed or disputed, and at most one
  live report per match (a database constraint). Every other seat confirms or disputes it.
- deadline: the end of the round's play-by date in the institution's time zone plus the league's
  report window; after it only the director records results.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import PlayerProfile

from .results import MAX_SCORE, MIN_SCORE


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
        help_text="Another dictionary or board both players agreed to (L4).",
    )
    equipment_proposed = models.CharField(
        max_length=200,
        blank=True,
        help_text="Another dictionary or board one player proposed, waiting for the others (L4).",
    )
    equipment_agreed_by = models.JSONField(
        default=list,
        blank=True,
        help_text="The players (profile ids) who agreed to the proposal so far.",
    )
    scorekeeper = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
        help_text="The seat that keeps score and reports at a table that has one (G9).",
    )
    table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The table's number at a club night or event round."
    )
    ended_by = models.CharField(
        max_length=20,
        choices=GameEnd.choices,
        blank=True,
        help_text="How the game ended, as its score card says (G3); a report keeps its own.",
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
            # count to those matches' index entries, not every match of the league (issue 18).
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
        null=True, blank=True, help_text="1 = first; tied seats share a place (G2, G9)."
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


class ScheduleProposal(models.Model):
    """Up to three times at the league's venue (L1, L2); the other player accepts one or counters."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        SUPERSEDED = "superseded", "Superseded"

    TAKEN_BACK = "taken_back", "Taken back by the reporter"

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
        help_text="How the record's totals were put under the league's end-of-game rule (G1).",
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
    # it, where going through the report and the match joined every one of them (20 ms for
    # the 2,225 open disputes of the bench's full size, issue 18).
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
            # hashed and sorted (5.4 -> 0.8 ms at the bench's 218 open disputes, issue 18).
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

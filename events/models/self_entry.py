"""Self-entry at the table (S1–S6): the versions of a table's card its players entered and
confirmed, the director's switch for a round, each entrant's slip and the codes typed."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import Entry, League, Round
from matches.models import GameEnd


class RoundSelfEntry(models.Model):
    """The director closed (or opened again) self-entry for one round (S5). No row: the round
    follows the event's ``self_entry`` setting."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="self_entry"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name_plural = "rounds' self-entry"

    def __str__(self):
        return f"{self.round}: self-entry {'closed' if self.closed_at else 'open'}"


class TableCard(models.Model):
    """One version of a table's card, entered at the table by one of its seats (S1). It counts
    (the table's result, through the card service) once the other seats confirm it (S2); a
    second version from another seat puts the table in conflict until staff settle it (S3).

    ``players`` are the table's player ids in seat order when it was entered: a card never
    counts for another seating."""

    class State(models.TextChoices):
        PENDING = "pending", "Waiting for confirmations"
        COUNTED = "counted", "Counted"
        REPLACED = "replaced", "Corrected by the seat that entered it"
        WITHDRAWN = "withdrawn", "Withdrawn: its seat confirmed another version"
        OVERRULED = "overruled", "Not counted: staff counted another card"

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="table_cards")
    seat_order = models.PositiveSmallIntegerField(help_text="The seat that entered it.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty for a guest, who proved their seat with its code.",
    )
    players = models.JSONField(help_text="The table's player ids in seat order.")
    scores = models.JSONField(help_text="Every seat's final score, in seat order.")
    ended_by = models.CharField(max_length=20, choices=GameEnd.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    entered_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["match", "entered_at", "id"]
        constraints = [
            # One live version per seat, one counted card per table: two cards of one table
            # can never both count (S4).
            models.UniqueConstraint(
                fields=["match", "seat_order"],
                condition=Q(state="pending"),
                name="one_pending_card_per_seat",
            ),
            models.UniqueConstraint(
                fields=["match"], condition=Q(state="counted"), name="one_counted_card_per_table"
            ),
        ]
        indexes = [models.Index(fields=["match", "state"], name="table_card_match_state")]

    def __str__(self):
        return f"Table card {'–'.join(map(str, self.scores))} by seat {self.seat_order}"


class CardConfirmation(models.Model):
    """A seat's "yes, that is our card" for one version (S2)."""

    card = models.ForeignKey(TableCard, on_delete=models.CASCADE, related_name="confirmations")
    seat_order = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["card", "seat_order"], name="one_confirmation_per_seat")
        ]

    def __str__(self):
        return f"Seat {self.seat_order} confirmed {self.card}"


class EntrantSlip(models.Model):
    """An entrant's own proof for the whole event (S4), which only they hold: a private link
    (``/slip/<token>/``, its QR code on the slip) and a short code to type where a phone cannot
    scan. A phone that opened the link or took the code remembers the entrant (a signed cookie,
    until the day after the event), and the table's page then knows them. Printed again, the
    slip is a new one: the old link and code stop working on every phone (``revoked_at``)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="slips")
    token = models.CharField(max_length=64, unique=True)
    code = models.CharField(max_length=12, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the slip's link was mailed to the entrant."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_slip_per_entry",
            )
        ]

    def __str__(self):
        return f"Slip of entry {self.entry_id}{' (revoked)' if self.revoked_at else ''}"


class CodeAttempt(models.Model):
    """Every slip code typed, right or wrong (S4), at a table (`match`) or on the slip page:
    the audit of who tried what, and what the limits on wrong codes count (per table, per
    device cookie; never per network address, which a whole hall shares)."""

    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The event the code was typed for; empty for a wrong code on the slip page.",
    )
    match = models.ForeignKey(
        "matches.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    entry = models.ForeignKey(
        Entry,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="Whose slip the code was, when it was one.",
    )
    device = models.CharField(max_length=40, help_text="The device cookie's random id.")
    ok = models.BooleanField()
    action = models.CharField(max_length=10)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["match", "ok", "at"], name="code_attempt_table"),
            models.Index(fields=["device", "ok", "at"], name="code_attempt_device"),
        ]

    def __str__(self):
        return f"{'Right' if self.ok else 'Wrong'} code ({self.action})"

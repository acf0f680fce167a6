"""What the front desk lends against a campus ID (L3): equipment items and their checkouts."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .institutions import Institution
from .people import PlayerProfile


class EquipmentKind(models.TextChoices):
    BOARD = "board", "Board"
    DICTIONARY = "dictionary", "Dictionary"
    CLOCK = "clock", "Game clock"
    TILES = "tiles", "Tile set"


class EquipmentItem(models.Model):
    """A board, dictionary or clock the front desk lends against a campus ID (L3)."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="equipment")
    kind = models.CharField(max_length=12, choices=EquipmentKind.choices)
    label = models.CharField(
        max_length=60, help_text="What is written on it, e.g. Board 3 or OSPD6 #2."
    )
    active = models.BooleanField(default=True, help_text="Untick when lost or retired.")

    class Meta:
        verbose_name = "equipment item"
        ordering = ["kind", "label"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "label"], name="equipment_label_unique_per_institution"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.label}"


class Checkout(models.Model):
    """An item lent to a student; open until checked in. One open checkout per item."""

    item = models.ForeignKey(EquipmentItem, on_delete=models.PROTECT, related_name="checkouts")
    profile = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="checkouts")
    checked_out_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    checked_out_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField()
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-checked_out_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["item"],
                condition=Q(checked_in_at__isnull=True),
                name="one_open_checkout_per_item",
            ),
        ]
        indexes = [models.Index(fields=["checked_in_at", "due_at"], name="checkout_open_due")]

    def __str__(self):
        return f"{self.item} to {self.profile.name}"

    @property
    def overdue(self) -> bool:
        return self.checked_in_at is None and self.due_at < timezone.now()

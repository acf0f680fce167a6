"""A round: a league's round of games to be played by its `play_by` date (a week of a league, a
round of a tournament's bracket, a club's night, an event's round)."""

from django.db import models

from .leagues import League


class Round(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    play_by = models.DateField(help_text="The last day to play this round's games.")
    playoff = models.BooleanField(
        default=False, help_text="A round of the playoff bracket, not the regular season."
    )
    seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="The pairing's draw seed, kept so it can be reproduced."
    )

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "number"], name="round_number_unique_per_league"
            ),
        ]

    def __str__(self):
        return f"{self.league} round {self.number}"

"""What the ratings keep: each rated period, each player's change in it, and each player's
rating now (R1, R2). Periods and changes are the history (the plot, the match page's change, a
re-rating from a late ruling's period on); `PlayerRating` is the latest, for pages to join."""

from django.db import models
from django.utils import timezone

from accounts.models import Institution, PlayerProfile

# A rating whose deviation is above this is provisional (R1): it says so wherever it shows. A
# newcomer's deviation (350) falls below it after 12 two-player games a week apart, fewer at
# tables of three and four (each seat is a game against each other seat): ours.
PROVISIONAL_DEVIATION = 175.0


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


class RatingPeriod(models.Model):
    """A rated period: a league's round or a club's night (`round` set), or a whole event
    (`round` empty), with a fingerprint of its games' results, so a late change is noticed."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="+")
    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(
        "league.Round", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    key = models.CharField(max_length=24, help_text="r<round id>, or l<league id> for an event.")
    ends_on = models.DateField(
        help_text="Its round's play-by day (an event's last round's): the periods' order, which "
        "a late ruling does not change."
    )
    fingerprint = models.CharField(max_length=64)
    rated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["institution", "ends_on", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "key"], name="one_rating_period_per_key"
            ),
        ]

    def __str__(self):
        return f"Rating period {self.key} ({self.ends_on})"


class RatingChange(models.Model):
    """A player's rating before and after one period, and the rated games it held."""

    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="+")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    games = models.FloatField(help_text="Rated games up to and including this period.")
    period_games = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["period", "player"], name="one_rating_change_per_player_and_period"
            ),
        ]

    def __str__(self):
        return f"{self.player_id}: {self.rating_before:.0f} → {self.rating:.0f}"


class PlayerRating(models.Model):
    """A player's rating now: their last change, kept beside the profile for pages to join."""

    player = models.OneToOneField(
        PlayerProfile, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    games = models.FloatField()
    last_played = models.DateField(
        null=True,
        blank=True,
        help_text="The last day of the last period they played in; empty for an imported "
        "rating not yet played on.",
    )

    def __str__(self):
        return f"{self.rating:.0f}{'?' if self.provisional else ''}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)


class ImportedRating(models.Model):
    """A rating a director brought in (R5: a club member's NASPA rating, say): where the
    player's rating starts instead of 1500 and 350. Their games are rated again from their first
    rated period on, so it counts as if they had arrived with it."""

    player = models.OneToOneField(
        PlayerProfile, on_delete=models.CASCADE, primary_key=True, related_name="imported_rating"
    )
    rating = models.FloatField()
    deviation = models.FloatField()
    imported_at = models.DateTimeField(default=timezone.now)
    imported_by = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self):
        return f"{self.player_id}: imported {self.rating:.0f}"

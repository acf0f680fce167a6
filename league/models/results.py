"""What the nightly and every confirmed result rebuild: a league's standings (one row per
player) and its bracket with its slots."""

from django.db import models
from django.utils import timezone

from accounts.models import PlayerProfile

from .leagues import League


class Standing(models.Model):
    """One row of a league's table, rebuilt from final results (never edited by hand).

    `wins` counts every win: games won, forfeits won and byes; `losses` every loss: games lost,
    forfeits lost and double forfeits; a tie counts half a win in `win_points`."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveSmallIntegerField()
    win_points = models.DecimalField(max_digits=6, decimal_places=1)
    wins = models.PositiveSmallIntegerField(default=0)
    losses = models.PositiveSmallIntegerField(default=0)
    ties = models.PositiveSmallIntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    forfeits_won = models.PositiveSmallIntegerField(default=0)
    forfeits_lost = models.PositiveSmallIntegerField(default=0)
    double_forfeits = models.PositiveSmallIntegerField(default=0)
    spread = models.IntegerField(default=0)
    # Sums of scores: a score may be as low as -100 (G1), so a total may be negative.
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    games = models.PositiveSmallIntegerField(
        default=0, help_text="Games counted: a game of N seats counts N-1."
    )
    matches = models.PositiveSmallIntegerField(default=0, help_text="Games sat (byes aside).")
    win_pct = models.DecimalField(
        max_digits=4, decimal_places=3, default=0, help_text="Win points per game counted."
    )
    withdrawn = models.BooleanField(default=False)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "player"], name="one_standing_per_player_and_league"
            ),
        ]

    def __str__(self):
        return f"{self.rank}. {self.player.name} ({self.league})"


# A Standing's stored columns by their database names, in the model's order: the one list the
# rows `standings.py` computes and COPYs in, and the rows the pages read back, are made of.
STANDING_COLUMNS = [
    field.attname for field in Standing._meta.concrete_fields if not field.primary_key
]


class Bracket(models.Model):
    """A league's single-elimination playoff (L11), or a tournament's whole draw."""

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="bracket")
    size = models.PositiveSmallIntegerField()
    seeds = models.JSONField(help_text="Player profile ids in seed order: seeds[0] is seed 1.")
    left_out = models.JSONField(
        default=list,
        blank=True,
        help_text="Who would have been seeded but was not eligible at the draw, and why: "
        '[{"player": profile id, "why": "…"}].',
    )
    champion = models.ForeignKey(
        PlayerProfile,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="championships",
    )
    built_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.league} bracket ({len(self.seeds)} players)"


class BracketSlot(models.Model):
    """One game of a bracket. A side's seed is empty until the previous round decides it;
    0 means nobody comes (a bye or a double forfeit before it)."""

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="slots")
    round_index = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    seed_a = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(null=True, blank=True)
    decided = models.BooleanField(default=False)
    winner_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    match = models.OneToOneField(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bracket_slot",
    )

    class Meta:
        ordering = ["bracket", "round_index", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["bracket", "round_index", "position"], name="bracket_slot_unique"
            ),
        ]

    def __str__(self):
        return f"{self.bracket.league} round {self.round_index + 1} game {self.position + 1}"

"""A league: a competition in one season with its own rule settings (format, venue, lexicon,
end-of-game rule G1, challenge rule G5, per-turn time G8, spreads, windows). What its format does
differently is the format's to say (``league.formats``)."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts import privacy
from accounts.models import Institution, PublicNames, Season
from matches.scrabble import endgame

from .. import formats


class LeagueFormat(models.TextChoices):
    LEAGUE = "league", "League (round robin, then playoffs)"
    SINGLE_ELIMINATION = "single_elimination", "Single-elimination tournament"
    CLUB = "club", "Club nights (tables of four and three)"
    EVENT = "event", "One-day event (numbered tables, score cards)"


class SeedBy(models.TextChoices):
    ENTRY = "entry", "Order of entry (the director's)"
    RATING = "rating", "Rating, highest first"


class Lexicon(models.TextChoices):
    NWL2023 = "NWL2023", "NASPA Word List 2023"
    CSW24 = "CSW24", "Collins Scrabble Words 2024"
    OSPD6 = "OSPD6", "Official Scrabble Players Dictionary, 6th edition"
    OSPD4 = "OSPD4", "Official Scrabble Players Dictionary, 4th edition"


# The stored values are the rules engine's own names (matches/scrabble/endgame.py), so what a
# league says is what the engine is told; only the labels are written here.
class EndOfGameRule(models.TextChoices):
    STANDARD = (
        endgame.STANDARD,
        "Standard: each loses own tiles, the one who went out gains them",
    )
    NORTH_AMERICAN = (
        endgame.NORTH_AMERICAN,
        "North American: +2 × opponent's tiles, no deduction",
    )
    OUT_BONUS = (
        endgame.OUT_BONUS,
        "Out bonus: going out earns the others' tiles, nobody loses their own",
    )
    NONE = endgame.NO_ADJUSTMENT, "None: no adjustment for unplayed tiles"


class ChallengeRule(models.TextChoices):
    LOSE_TURN = endgame.LOSE_TURN, "Unsuccessful challenger loses a turn"
    POINTS_TO_CHALLENGED = (
        endgame.POINTS_TO_CHALLENGED,
        "Points to the player whose valid play was challenged",
    )
    CLUB_BONUS_TO_CHALLENGER = (
        endgame.CLUB_BONUS_TO_CHALLENGER,
        "10 points to a successful challenger while tiles remain",
    )


class LeagueQuerySet(models.QuerySet):
    def at(self, address):
        """The league a public address names (``league.addresses.LeagueAddress``)."""
        return self.filter(campus__slug=address.campus, slug=address.slug)


class League(models.Model):
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="leagues")
    # The season's institution, kept on the league so its slug is unique within its campus (a
    # constraint cannot reach through the season); set by save() from the season.
    campus = models.ForeignKey(
        Institution, on_delete=models.PROTECT, related_name="+", editable=False
    )
    name = models.CharField(max_length=120)
    slug = models.SlugField(
        help_text="Used in its public address, /<campus>/leagues/<slug>/; unique within the campus."
    )
    format = models.CharField(
        max_length=20, choices=LeagueFormat.choices, default=LeagueFormat.LEAGUE
    )
    venue = models.CharField(max_length=200, help_text="Every game is played here.")
    lexicon = models.CharField(max_length=10, choices=Lexicon.choices, default=Lexicon.NWL2023)
    end_of_game_rule = models.CharField(
        max_length=20, choices=EndOfGameRule.choices, default=EndOfGameRule.STANDARD
    )
    challenge_rule = models.CharField(
        max_length=30, choices=ChallengeRule.choices, default=ChallengeRule.LOSE_TURN
    )
    challenge_points = models.PositiveSmallIntegerField(
        default=10, help_text="Points for the challenge rules that award points (5 or 10)."
    )
    turn_time_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Per-turn limit in seconds, e.g. 150 for 2:30; empty for none.",
    )
    forfeit_spread = models.PositiveSmallIntegerField(default=50)
    double_forfeit_spread = models.PositiveSmallIntegerField(
        default=50, help_text="Taken off both sides."
    )
    report_window_days = models.PositiveSmallIntegerField(
        default=0, help_text="Whole days after the round's play-by date to report a result."
    )
    confirmation_window_hours = models.PositiveSmallIntegerField(
        default=48, help_text="Hours the opponent has to confirm or dispute a report."
    )
    round_length_days = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1)]
    )
    # The most players a league or an event may hold: a Scrabble Fest of a large campus (issue
    # 32's evening of 1,000 entrants, with room for twice that); a league's director sets less.
    MAX_CAPACITY = 2048
    capacity = models.PositiveSmallIntegerField(
        default=32, validators=[MinValueValidator(2), MaxValueValidator(MAX_CAPACITY)]
    )
    public = models.BooleanField(
        default=True, help_text="Standings, schedule and bracket visible to anyone."
    )
    public_names = models.CharField(
        "names in public",
        max_length=10,
        blank=True,
        choices=PublicNames.choices,
        help_text="Stricter than the institution's setting for this league; empty: the "
        "institution's.",
    )
    search_engines = models.BooleanField(
        "let search engines index",
        default=False,
        help_text="Public pages that name players carry noindex unless this is ticked.",
    )
    campus_only = models.BooleanField(
        default=True,
        help_text="Only eligible students play; untick to admit guests without a campus "
        "ID (a club open to visitors).",
    )
    playoff_size = models.PositiveSmallIntegerField(
        default=4, help_text="Players in the playoff bracket (0 for none)."
    )
    seed_by = models.CharField(
        "seed the bracket by",
        max_length=10,
        choices=SeedBy.choices,
        default=SeedBy.ENTRY,
        help_text="A tournament's bracket: the director's order of entry, or the players' "
        "ratings, highest first.",
    )
    rating_weight = models.FloatField(
        "weight in ratings",
        default=1.0,
        validators=[MinValueValidator(0.1), MaxValueValidator(1.0)],
        help_text="How much this league's games count in ratings: 1 in full; NASPA counts "
        "a club tournament's at a third.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["season", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["campus", "slug"], name="league_slug_unique_per_campus"
            ),
            models.CheckConstraint(
                condition=Q(challenge_points__in=list(endgame.CHALLENGE_POINTS)),
                name="league_challenge_points_5_or_10",
            ),
            models.CheckConstraint(
                condition=Q(rating_weight__gte=0.1, rating_weight__lte=1),
                name="league_rating_weight_from_a_tenth_to_one",
            ),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.campus_id = self.season.institution_id
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("league_detail", args=[self])

    @property
    def institution(self):
        return self.season.institution

    @property
    def names_in_public(self) -> str:
        """How this league names players to the public (P1): its own setting where it is
        stricter than its institution's."""
        return privacy.stricter(self.public_names, self.season.institution.public_names)

    # What the league's format does differently (league.formats: each format's app says).

    @property
    def scorekeeper_reports(self) -> bool:
        """A table's scorekeeper reports every seat's score (G9); otherwise the winner (L7)."""
        return formats.of(self.format).scorekeeper_reports

    @property
    def cards_only(self) -> bool:
        """Results come only from score cards entered at the scoring table (E3)."""
        return formats.of(self.format).cards_only

    @property
    def ranks_per_game(self) -> bool:
        """Where attendance varies (club nights) the table ranks by win percentage, then
        spread per game (G9)."""
        return formats.of(self.format).ranks_per_game

    def started(self, has_rounds: bool) -> bool:
        """Entry is closed because the rounds are drawn (never where entry stays open: clubs
        and events)."""
        return has_rounds and not formats.of(self.format).open_entry

    @property
    def has_waitlist(self) -> bool:
        """A full league keeps a waitlist until its draw; clubs and events, whose entry never
        closes with a draw, have none (their desk adds walk-ins)."""
        return not formats.of(self.format).open_entry

    @property
    def students_withdraw(self) -> bool:
        """A student may withdraw from it themself: a league or tournament. At a club or an
        event the front desk or the director marks who leaves (E3, E4)."""
        return not formats.of(self.format).open_entry

    def registration_open(self, today=None) -> bool:
        today = today or self.season.institution.today()
        own_rule = formats.of(self.format).registration_open
        if own_rule is not None:  # an event: until its day
            return own_rule(self, today)
        return today <= self.season.registration_deadline and today <= self.season.ends_on

    @staticmethod
    def open_for_entry(today) -> Q:
        """`registration_open(today)` and not `started`, as a filter: the leagues list lets the
        database drop the rest (annotated with `has_rounds`, league.selectors.leagues_for).
        Change the two together."""
        own = [spec for spec in formats.registered() if spec.open_for_entry is not None]
        registration_open = Q(
            ~Q(format__in=[spec.value for spec in own]),
            season__registration_deadline__gte=today,
            season__ends_on__gte=today,
        )
        for spec in own:
            registration_open |= Q(format=spec.value) & spec.open_for_entry(today)
        return registration_open & (
            Q(has_rounds=False) | Q(format__in=formats.with_trait("open_entry"))
        )

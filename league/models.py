"""Leagues, their entries and rounds (issue: the life of a match); standings and brackets come
with the nightly pipeline.

Words used here:
- league: a competition in one season with its own rule settings (format, venue, lexicon,
  end-of-game rule G1, challenge rule G5, per-turn time G8, spreads, windows).
- entry: a player in a league; withdrawn with a reason, never deleted.
- round: one week's games of a league, to be played by its `play_by` date.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import Institution, PlayerProfile, Season
from matches.scrabble import endgame

from . import formats


class LeagueFormat(models.TextChoices):
    LEAGUE = "league", "League (round robin, then playoffs)"
    SINGLE_ELIMINATION = "single_elimination", "Single-elimination tournament"
    CLUB = "club", "Club nights (tables of four and three)"
    EVENT = "event", "One-day event (numbered tables, score cards)"


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


class League(models.Model):
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=120)
    slug = models.SlugField(unique=True, help_text="Used in public URLs: /leagues/<slug>/")
    format = models.CharField(
        max_length=20, choices=LeagueFormat.choices, default=LeagueFormat.LEAGUE
    )
    venue = models.CharField(max_length=200, help_text="Every game is played here (L2).")
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
        help_text="Per-turn limit in seconds (G8), e.g. 150 for 2:30; empty for none.",
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
    capacity = models.PositiveSmallIntegerField(
        default=32, validators=[MinValueValidator(2), MaxValueValidator(512)]
    )
    public = models.BooleanField(
        default=True, help_text="Standings, schedule and bracket visible to anyone."
    )
    campus_only = models.BooleanField(
        default=True,
        help_text="Only eligible students play (L10); untick to admit guests without a campus "
        "ID (a club open to visitors, E4).",
    )
    playoff_size = models.PositiveSmallIntegerField(
        default=4, help_text="Players in the playoff bracket (0 for none)."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["season", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(challenge_points__in=list(endgame.CHALLENGE_POINTS)),
                name="league_challenge_points_5_or_10",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league_detail", args=[self.slug])

    @property
    def institution(self):
        return self.season.institution

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
    points_for = models.PositiveIntegerField(default=0)
    points_against = models.PositiveIntegerField(default=0)
    games = models.PositiveSmallIntegerField(
        default=0, help_text="Games counted: a game of N seats counts N-1 (G9)."
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
        help_text="Who would have been seeded but was not eligible at the draw (L10), and why: "
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


class DigestLog(models.Model):
    """The morning digest went out for this institution and day: claimed before sending, so a
    second run of the night sends nothing new; it only queues again what was never delivered."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    recipients = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    # Its messages in the outbox: a rerun of the night queues again those never delivered.
    email_ids = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "day"], name="one_digest_per_institution_and_day"
            ),
        ]

    def __str__(self):
        return f"Digest {self.institution.slug} {self.day}"


class NightlyRun(models.Model):
    """One night of the nightly pipeline for one institution: the day it acted as, the days it
    covered (more than one when nights were missed), when it started and finished and what the
    night did (``summary``: its totals, every run of it included, written after each step). The
    day is unique: a rerun of the same night reuses its row.

    It answers when the nightly last ran (the dashboard, the digest), which nights were missed
    (`covers_from` up to the day before `day`), and what a night did, which the digest reads
    back from the audit trail between the moments of `covers_from` and `day`."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    covers_from = models.DateField(
        help_text="The first night this run covers: the day after the last finished run."
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    summary = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-day"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "day"], name="one_nightly_run_per_institution_and_day"
            ),
            models.CheckConstraint(
                condition=Q(covers_from__lte=models.F("day")), name="nightly_run_covers_up_to_day"
            ),
        ]

    def __str__(self):
        return f"Nightly {self.institution.slug} {self.day}"


class LeaguePage(models.Model):
    """A league's public pages as they are served: the standings and bracket pages' content and
    their JSON, rendered in the transaction that changes what they show (``league.pages``).

    A read model, not a timed cache: it is never stale, because the only code that changes
    standings, brackets or a league's details also rewrites it. Serving a page is then one query
    and the site's frame around it."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="page"
    )
    standings_html = models.TextField()
    standings_json = models.TextField()
    bracket_html = models.TextField()
    bracket_json = models.TextField()
    # An event's leaderboard content and event.json (E3); empty for other formats.
    event_html = models.TextField(blank=True, default="")
    event_json = models.TextField(blank=True, default="")
    rendered_at = models.DateTimeField()
    layout = models.CharField(
        max_length=12, help_text="Which version of the templates rendered it (league.pages.layout)."
    )

    def __str__(self):
        return f"Pages of {self.league}"

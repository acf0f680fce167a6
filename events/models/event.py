"""What an event (E3, E5) holds beyond any league: its day, its categories and teams, each
entrant's category and team, the rounds' periods and printed cards, its volunteer scorers, and
the assists sold for the charity. Each hangs off a league row (``Event``, ``Entrant``,
``RoundCards`` one-to-one; the rest many-to-one), so league's own tables never point up here.

The models that were league's keep their tables' names (``Meta.db_table``): they moved with
their rows (migrations ``league/0018`` and ``events/0001``)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import Entry, League, Round


class ShortTeam(models.TextChoices):
    """How a team short of members is totalled (E5, ours)."""

    SUM = "sum", "The plain sum of its members' scores"
    AVERAGE_FILL = "average_fill", "Each empty place counts its members' average"


class EventCategory(models.Model):
    """An event's category (E3): its pairing group (categories sharing a group pair together)
    and its turn timing (G8). Prizes go to each category's top three."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(max_length=60)
    pairing_group = models.CharField(
        max_length=60, help_text="Categories with the same group are paired together."
    )
    turn_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Per-turn limit, e.g. 150 for 2:30; empty: untimed."
    )
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "league_eventcategory"  # the table it had in league
        verbose_name_plural = "event categories"
        ordering = ["league", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="category_name_unique"),
        ]

    def __str__(self):
        return self.name

    @property
    def timed(self) -> bool:
        return bool(self.turn_seconds)


class Team(models.Model):
    """A team at an event (E3's corporate teams, E5): teammates never share a table."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=120)

    class Meta:
        db_table = "league_team"  # the table it had in league
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="team_name_unique"),
        ]

    def __str__(self):
        return self.name


class FirstRound(models.TextChoices):
    RANDOM = "random", "At random"
    RATING = "rating", "By rating: nearest ratings meet"


class Event(models.Model):
    """A league of format ``event``: the day and how its tables and teams are made."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="event"
    )
    date = models.DateField(null=True, blank=True, help_text="The event's day.")
    seats_per_table = models.PositiveSmallIntegerField(
        default=2,
        validators=[MinValueValidator(2), MaxValueValidator(4)],
        help_text="Seats per table (2 to 4).",
    )
    team_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The team size, empty for no fixed size."
    )
    short_team = models.CharField(max_length=12, choices=ShortTeam.choices, default=ShortTeam.SUM)
    champion_category = models.ForeignKey(
        EventCategory,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Whose first place is the event's champion (for example, Competitive).",
    )
    self_entry = models.BooleanField(
        default=False,
        help_text="Players enter their own table's card from the table's page; the "
        "scoring table then sees only the tables that need a person.",
    )
    first_round = models.CharField(
        max_length=10,
        choices=FirstRound.choices,
        default=FirstRound.RANDOM,
        help_text="How round 1 is paired within each pairing group.",
    )

    def __str__(self):
        return f"{self.league} on {self.date}"


def event_of_league(league: League) -> Event:
    """The league's Event row; one with the defaults, not yet saved, while there is none (a
    league made an event in the admin has no day yet, as before)."""
    try:
        return league.event
    except Event.DoesNotExist:
        return Event(league=league)


class Entrant(models.Model):
    """An entry in an event: its category (the pairing group and timing) and its team."""

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, primary_key=True, related_name="entrant"
    )
    category = models.ForeignKey(
        EventCategory, null=True, blank=True, on_delete=models.PROTECT, related_name="entrants"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="entrants"
    )

    def __str__(self):
        return f"{self.entry} ({self.category})"


class RoundCards(models.Model):
    """A round's printed score cards (E3). They name each table's players: once the round is
    paired again or two players swap after the cards were printed, a card in the hall may name
    players who no longer sit at its table, and the scoring table then asks for the players'
    numbers on every card of the round (tsh asks for them on every card)."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="cards"
    )
    printed_at = models.DateTimeField(help_text="When the round's score cards were last printed.")
    seating_changed_after_print = models.BooleanField(
        default=False,
        help_text="Paired again or swapped after its cards were printed: the scoring table "
        "asks for the players' numbers on each card.",
    )

    class Meta:
        verbose_name_plural = "round cards"

    def __str__(self):
        return f"{self.round}: cards printed {self.printed_at:%H:%M}"


class RoundStartedEarly(models.Model):
    """The director started a round before its first period's time (from the round's page):
    its tables take cards from then on (a card for a round that has not begun is refused at
    the table and asked about at the scoring table)."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="started_early"
    )
    started_at = models.DateTimeField(default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self):
        return f"{self.round} started early at {self.started_at}"


class RoundPeriod(models.Model):
    """When an event's round is played (E3: one of 45 minutes; E5: two of 30 with a break)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="periods")
    number = models.PositiveSmallIntegerField()
    starts = models.TimeField(help_text="Local time at the institution.")
    minutes = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        db_table = "league_roundperiod"  # the table it had in league
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="period_number_unique"),
        ]

    def __str__(self):
        return f"{self.round} period {self.number} at {self.starts:%H:%M}"


class EventScorer(models.Model):
    """A volunteer the director invited to enter an event's score cards (the event scorer role,
    E3), valid for that event only and until the day after it. Volunteers belong to the
    director's institution: the invitation is to a name and an address, and only an account of
    that institution (made for them when the address has none) is ever attached; an address
    whose account is another institution's keeps `user` empty and gives nobody any right."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="scorers")
    name = models.CharField(max_length=150)
    email = models.EmailField(help_text="The address invited, lower-cased.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="scorer_for",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "league_eventscorer"  # the table it had in league
        constraints = [
            models.UniqueConstraint(fields=["league", "email"], name="one_invitation_per_address"),
            models.UniqueConstraint(
                fields=["league", "user"],
                condition=Q(user__isnull=False),
                name="one_scorer_row_per_event",
            ),
        ]

    def __str__(self):
        return f"{self.name} <{self.email}> scores {self.league}"


class AssistItem(models.Model):
    """Something sold for the charity at a team challenge (E5): a Q/Z/X word list, a "Ringer",
    "Power Play" or "Instant Replay" chit. Prices are whole cents: the first price in round 1's
    first period, the later price from the second period or round on (004)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="assist_items")
    name = models.CharField(max_length=60)
    first_cents = models.PositiveIntegerField()
    later_cents = models.PositiveIntegerField()
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "league_assistitem"  # the table it had in league
        ordering = ["league", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="assist_item_name_unique"),
        ]

    def __str__(self):
        return self.name


class AssistSale(models.Model):
    """One sale of an assist to one entrant in one round (E5). The price in force is copied in,
    so a later price change leaves it as it was; a sale is never edited, only voided with a
    reason (who and when kept). Totals are queries over these rows, never a running counter."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="assist_sales")
    item = models.ForeignKey(AssistItem, on_delete=models.PROTECT, related_name="sales")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="assist_sales")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="assist_sales")
    quantity = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    unit_cents = models.PositiveIntegerField()
    sold_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    sold_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        db_table = "league_assistsale"  # the table it had in league
        ordering = ["league", "sold_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="assist_sale_quantity_1_up"),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(void_reason=""),
                name="assist_sale_void_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.quantity} × {self.item} to {self.entry}"

    @property
    def cents(self) -> int:
        return self.quantity * self.unit_cents

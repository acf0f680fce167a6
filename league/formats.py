"""The one way in for every format: what league asks a format about, and what each format's app
tells it from its ``AppConfig.ready``.

`league` holds what every format shares (leagues, entries, rounds, matches' standings, the
stored pages, the nightly). The round-robin league and the tournament are league's own; club
nights live in `clubs` and one-day events in `events`, above it. League never imports them and
never tests their `League.format` values: it looks the format up here and calls what the format
registered (its home page, its stored pages, its settings file, how it pairs or seats a round,
how it enters a table's cards), and reads its traits (who reports, who closes a round).

Nothing here imports a model: `league.models` reads the traits."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Format:
    """One format and what it does differently from a plain league."""

    value: str  # League.format
    # What a round is called (a club's is a night) and what is done to it (paired, seated).
    round_name: str = "round"
    paired: str = "paired"
    # Traits (G9, E3, E4): a table's scorekeeper reports every seat (else the winner, L7);
    # results come only from score cards entered by staff; the director closes a round or night
    # (the nightly never forfeits its tables, L8); entry stays open while rounds exist (people
    # come and go: no waitlist, no student withdrawal); the standings rank per game (win %).
    scorekeeper_reports: bool = False
    cards_only: bool = False
    director_closes: bool = False
    open_entry: bool = False
    ranks_per_game: bool = False
    # A result made final for the first time (a card counted) counts into its players'
    # standings rows as it lands, and the stored pages follow within seconds (league.refresh ·
    # count_cards): a hall's burst of cards at an event. Else every result refreshes the league.
    counts_as_it_lands: bool = False
    # A league of this format open to guests (not campus-only) admits a student as it admits
    # anyone: their eligibility is not asked (an event, L10, E3). Else students are held to it.
    open_to_anyone: bool = False
    # Its games are rated as one period, the whole league at once (an event, as NASPA rates a
    # tournament: R2); else each round is a period.
    one_rating_period: bool = False
    # Each entrant has a player number (a club's, an event's: on the cards and lists).
    numbers_entrants: bool = False
    # What a new entry needs in this format (an event's: its first category): (entry) -> None.
    on_enter: Callable | None = None
    # When entry is open, where the season's registration deadline is not the rule (an event:
    # until its day): (league, today) -> bool, and the same as a filter, (today) -> Q.
    registration_open: Callable | None = None
    open_for_entry: Callable | None = None
    # The rows of its own that registration_open reads (an event's Event row), joined where
    # leagues are listed so that deciding for each costs no query of its own.
    entry_rule_reads: tuple[str, ...] = ()
    # The one day a league of this format is held on (an event's), read from the rows of
    # `entry_rule_reads` (no query): (league) -> date, or None while it has no day. The leagues
    # list then shows the day, the venue and that entry is open until the day, in place of
    # the places left and the season's registration deadline.
    held_on: Callable | None = None
    # The league's page for this format: (request, league) -> response. None: league's own.
    home: Callable | None = None
    # A student's entry from the league's page: (request, league) -> response. None: league's.
    join: Callable | None = None
    # The home page of a signed-in person who neither plays nor staffs the institution but
    # helps at this format's leagues (an event's volunteer scorers): (request) -> response, or
    # None when they help at none.
    helper_home: Callable | None = None
    # A part of a signed-in student's own home page from this format, rendered from its
    # template (an event's: their slips for today's and coming events, S4): (request,
    # profile) -> HTML, empty when there is nothing to show; a fixed number of queries.
    student_home_part: Callable | None = None
    # The doors of this format's leagues open on `day` at the institution, for the front desk's
    # home and page (an event's check-in on its day): (institution, day) -> [Door].
    doors_on: Callable | None = None
    # A part of the home page a visitor (not signed in) reads from this format, rendered from
    # its template (an event's: today's and coming public events, with their leaderboard and
    # projector): (request) -> HTML, empty when there is nothing to show; one query. The
    # format's leagues are then left out of the home page's list of public leagues.
    visitor_home_part: Callable | None = None
    # More stored pages (the read model): (league, now, style) -> (html, JSON document), its
    # players named under a privacy style (``league.names``); and
    # the source files whose change makes the stored pages stale.
    stored_pages: Callable | None = None
    page_sources: tuple[Path, ...] = ()
    # The settings file (create_event, the director's upload): reader and saver
    # ((actor, season, data, update, as_system) -> (league, created)), and the exporter
    # ((league, slug, day) -> dict).
    settings_file_save: Callable | None = None
    settings_file_export: Callable | None = None
    # The director's set-up form (league.setup_forms.SetupForm's subclass): the settings file's
    # keys typed, at /director/events/new/<format>/; and what the page calls the league.
    setup_form: type | None = None
    setup_name: str = ""
    # The format's own keys of the settings file (league.file_schema's nodes by key) and those
    # of them it requires; None: the format has no settings file.
    file_keys: dict | None = None
    file_required: frozenset = frozenset()
    # What create_event says of a league it saved: (league) -> "club, 12 nights".
    describe: Callable = lambda league: league.get_format_display()
    # pair_round: (league, round, seed, repair, all_entrants) -> ([(table, [player ids in seat
    # order])], [player id of each bye]), in one transaction.
    pair_round: Callable | None = None
    # import_entrants: (league, data, strict) -> a result with .summary() and .rejected (lines
    # refused), as the site; a --strict refusal raises core.errors.RowsRejected. The file is
    # read no further than `entrants_max_bytes`.
    import_entrants: Callable | None = None
    entrants_max_bytes: int = 0
    # A person's own rows of this format for the download of their data (league.personal_data,
    # issue 31): (user, profile, when) -> {part: rows}, a fixed number of queries; `when`
    # writes a time in their institution's zone.
    personal_data: Callable | None = None
    # Retention (P5): (institution, cutoff day, now) -> how many of its helpers' accounts were
    # forgotten because their last day at this format's leagues was before the cutoff.
    forget_helpers: Callable | None = None
    # A table's card typed from paper (enter_scores): the format's own card service, which
    # wraps matches.services.card_enter with what the format adds (an event's players' own
    # versions of the card, S3); matches' own service where None.
    enter_card: Callable | None = None
    # Whether a round's tables take cards yet: (league, round, now) -> "" when they do, else
    # words saying when the round begins ("Round 2 starts at 8:00 PM"). enter_scores takes a
    # file's cards whatever the time (they are typed from paper after the game) and says so.
    not_begun: Callable | None = None
    # seed_demo: its part of the demo ((institution, season, director, desk, rng, password)),
    # and the demo logins it adds (() -> [(role, email)]).
    demo: Callable | None = None
    demo_logins: Callable | None = None


_FORMATS: dict[str, Format] = {}


def register(spec: Format) -> None:
    """A format's app, from its AppConfig.ready: once per format value."""
    _FORMATS[spec.value] = spec


def of(value: str) -> Format:
    """The format registered for `value`; a plain league's when nobody registered it."""
    return _FORMATS.get(value) or Format(value=value)


def with_trait(trait: str) -> tuple[str, ...]:
    """The format values that have `trait` (a boolean field of Format), for queries."""
    return tuple(sorted(value for value, spec in _FORMATS.items() if getattr(spec, trait)))


def entry_rule_reads() -> tuple[str, ...]:
    """Every format's `entry_rule_reads`, for select_related on a list of leagues."""
    return tuple(sorted({read for spec in _FORMATS.values() for read in spec.entry_rule_reads}))


def helper_home(request):
    """The first format's home page for a helper (see Format.helper_home), or None."""
    for spec in registered():
        if spec.helper_home and (response := spec.helper_home(request)) is not None:
            return response
    return None


def student_home_parts(request, profile) -> list[str]:
    """Every format's part of a student's home page (see Format.student_home_part)."""
    parts = (
        spec.student_home_part(request, profile)
        for spec in registered()
        if spec.student_home_part is not None
    )
    return [part for part in parts if part]


@dataclass(frozen=True)
class Door:
    """Where the front desk checks people in for a league today: its name, venue and page."""

    name: str
    venue: str
    url: str


def doors_today(institution) -> list[Door]:
    """Every format's doors open today at the institution, in its clock (see Format.doors_on)."""
    day = institution.today()
    return [
        door
        for spec in registered()
        if spec.doors_on is not None
        for door in spec.doors_on(institution, day)
    ]


def visitor_home_parts(request) -> list[str]:
    """Every format's part of a visitor's home page (see Format.visitor_home_part)."""
    parts = (
        spec.visitor_home_part(request)
        for spec in registered()
        if spec.visitor_home_part is not None
    )
    return [part for part in parts if part]


def registered() -> list[Format]:
    return [_FORMATS[value] for value in sorted(_FORMATS)]

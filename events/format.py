"""One-day events (E3) and the team challenge (E5) as ``league.formats`` knows them: their
traits, their pages, their stored pages, their settings file, how a round is paired from the
command line, their entrants file, their part of the demo."""

from functools import partial
from pathlib import Path

from django.db.models import Q
from django.urls import reverse

from accounts.models import User
from events.models import event_of_league
from league import formats
from league.models import League, LeagueFormat
from matches.models import Seat

from . import (
    card_board,
    demo,
    entrants_file,
    file_shape,
    files,
    pages,
    personal_data,
    selectors,
    services,
    setup_form,
)
from .models import Entrant
from .views import public, slips, visitors, volunteers


def pair_for_command(*, league, round, seed: int, repair: bool, all_entrants: bool):
    """`pair_round` for an event's round: the tables (player ids in seat order) and the byes."""
    try:
        paired = services.pair_event_round(
            actor=None,
            as_system=True,
            round=round,
            seed=seed,
            repair=repair,
            all_entrants=all_entrants,
        )
    except services.AlreadyPaired as refusal:
        raise services.EventError(f"{refusal.message} --repair draws it again.") from None
    tables, byes = paired.tables, paired.byes
    seats: dict[int, list[int]] = {}
    for match_id, player_id in (
        Seat.objects.filter(match__round=round)
        .order_by("match_id", "order")
        .values_list("match_id", "player_id")
    ):
        seats.setdefault(match_id, []).append(player_id)
    return [(match.table, seats[match.pk]) for match in tables], [seats[m.pk][0] for m in byes]


def first_category(entry) -> None:
    """A new entrant starts in the event's first category (the desk or the file may move them)."""
    entrant, _ = Entrant.objects.get_or_create(entry=entry)
    if entrant.category_id is None:
        entrant.category = entry.league.categories.order_by("position", "id").first()
        entrant.save(update_fields=["category"])


def open_until_its_day(league, today) -> bool:
    """A student enters an event until its day (walk-ins are added at the door); an event
    without a day yet, until the season's registration deadline."""
    day = event_of_league(league).date
    if day is None:
        return today <= league.season.registration_deadline and today <= league.season.ends_on
    return today <= day


def open_for_entry(today) -> Q:
    """`open_until_its_day` as a filter on leagues."""
    return Q(event__date__gte=today) | Q(
        Q(event__isnull=True) | Q(event__date__isnull=True),
        season__registration_deadline__gte=today,
        season__ends_on__gte=today,
    )


def doors_on(institution, day) -> list[formats.Door]:
    """The door (check-in) of each of the institution's events on `day`: its own day, or a
    day one of its rounds falls on (an evening's round after midnight keeps its door on the
    desk's home past 0:00). One query."""
    events = (
        League.objects.filter(season__institution=institution, format=LeagueFormat.EVENT)
        .filter(Q(event__date=day) | Q(rounds__play_by=day))
        .distinct()
        .select_related("season__institution")
        .order_by("name")
    )
    return [
        formats.Door(league.name, league.venue, reverse("event_desk", args=[league]))
        for league in events
    ]


def import_for_command(*, league, data: bytes, strict: bool):
    return entrants_file.entrants_import(
        actor=None, league=league, data=data, strict=strict, as_system=True
    )


def make_demo(institution, season, director, desk, rng, password) -> None:
    demo.make_event(institution, season, director, desk, rng, password)
    demo.make_challenge(institution, season, director, desk, rng)


def demo_logins() -> list[tuple[str, str]]:
    if User.objects.filter(email=demo.VOLUNTEER_EMAIL).exists():
        return [("event_scorer", demo.VOLUNTEER_EMAIL)]
    return []


EVENT = formats.Format(
    value=LeagueFormat.EVENT,
    cards_only=True,
    counts_as_it_lands=True,
    director_closes=True,
    open_entry=True,
    open_to_anyone=True,
    numbers_entrants=True,
    one_rating_period=True,
    on_enter=first_category,
    registration_open=open_until_its_day,
    open_for_entry=open_for_entry,
    entry_rule_reads=("event",),
    held_on=lambda league: event_of_league(league).date,
    home=public.event_home,
    join=public.event_join_view,
    helper_home=volunteers.volunteer_home,
    student_home_part=slips.my_slips_part,
    doors_on=doors_on,
    visitor_home_part=visitors.visitor_home_part,
    stored_pages=pages.render_event,
    page_sources=(
        Path(pages.__file__),
        Path(selectors.__file__),
        *(
            Path(__file__).resolve().parent.parent / "templates" / "events" / name
            for name in (
                "_leaderboard_page.html",
                "_leaderboard.html",
                "_prizes.html",
                "_teams.html",
            )
        ),
    ),
    file_keys=file_shape.EVENT_KEYS,
    file_required=file_shape.EVENT_REQUIRED,
    settings_file_save=files.save_file,
    settings_file_export=files.export_file,
    setup_form=setup_form.EventSetupForm,
    setup_name="an event",
    describe=lambda league: (
        f"event on {event_of_league(league).date}, {league.rounds.count()} rounds, "
        f"{league.categories.count()} categories"
    ),
    pair_round=pair_for_command,
    personal_data=personal_data.personal_rows,
    forget_helpers=services.forget_volunteers,
    enter_card=partial(services.card_enter, before_start_confirmed=True),
    not_begun=card_board.not_begun_yet,
    import_entrants=import_for_command,
    entrants_max_bytes=entrants_file.MAX_BYTES,
    demo=make_demo,
    demo_logins=demo_logins,
)

"""One-day events (E3) and the team challenge (E5) as ``league.formats`` knows them: their
traits, their pages, their stored pages, their settings file, how a round is paired from the
command line, their entrants file, their part of the demo."""

from pathlib import Path

from accounts.models import User
from league import formats
from league.models import LeagueFormat
from matches.models import Seat

from . import demo, entrants_file, files, pages, selectors, services
from .views import public


def pair_for_command(*, league, round, seed: int, repair: bool, all_entrants: bool):
    """`pair_round` for an event's round: the tables (player ids in seat order) and the byes."""
    tables, byes = services.pair_event_round(
        actor=None, as_system=True, round=round, seed=seed, repair=repair, all_entrants=all_entrants
    )
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
    if entry.category_id is None:
        entry.category = entry.league.categories.order_by("position", "id").first()
        entry.save(update_fields=["category"])


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
    director_closes=True,
    open_entry=True,
    numbers_entrants=True,
    on_enter=first_category,
    home=public.event_home,
    join=public.event_join_view,
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
    settings_file_save=files.save_file,
    settings_file_export=files.export_file,
    describe=lambda league: (
        f"event on {league.event_date}, {league.rounds.count()} rounds, "
        f"{league.categories.count()} categories"
    ),
    pair_round=pair_for_command,
    import_entrants=import_for_command,
    entrants_max_bytes=entrants_file.MAX_BYTES,
    demo=make_demo,
    demo_logins=demo_logins,
)

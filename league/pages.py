"""A league's public pages, rendered when their data changes (see ``LeaguePage``).

``render_pages`` is called in the transaction of every change the pages show: standings rebuilt
and brackets drawn or advanced (once, after both: ``refresh.refresh_leagues``), a league,
season or player's name edited (``receivers``). The views in ``views.py`` then serve the stored
content in one query.
"""

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone

from accounts import privacy
from accounts.models import PlayerProfile
from core.raw import placeholders

from . import formats
from .models import Bracket, BracketSlot, League, LeaguePage
from .selectors import bracket_rounds, named_rows, standings_rows_of


@dataclass(frozen=True)
class Column:
    """A column of the standings as the pages show them."""

    key: str  # the row's key: a ``Standing`` field, the player's name or the table's notes
    heading: str = ""  # its heading in the HTML table; none: not a column there (see Notes)
    public: bool = True  # a key of standings.json (DESIGN.md, public contract)
    per_game: bool = False  # in the HTML table only where the league ranks per game (clubs, G9)


# The one list of the standings' columns: the table's headings and cells and standings.json's
# keys, in this order, are made from it.
COLUMNS = [
    Column("rank", "#"),
    Column("player", "Player"),
    Column("wins", "W"),
    Column("losses", "L"),
    Column("ties", "T"),
    Column("byes"),  # the next four are counted in Notes
    Column("forfeits_won"),
    Column("forfeits_lost"),
    Column("double_forfeits"),
    Column("spread", "Spread"),
    Column("points_for", "For"),
    Column("points_against", "Against"),
    Column("games", "Games"),
    Column("rating", "Rating"),  # R1: the player's rating now, "1480*" when provisional
    Column("rating_provisional"),
    Column("matches", "Sat", per_game=True),  # games sat; `games` counts G9's pairings
    Column("win_pct", "Win %", per_game=True),
    Column("notes", "Notes", public=False),
]
JSON_KEYS = [column.key for column in COLUMNS if column.public]


def table_columns(league) -> list[Column]:
    """The HTML table's columns for this league: a club's table adds games sat and win %."""
    return [
        column
        for column in COLUMNS
        if column.heading and (league.ranks_per_game or not column.per_game)
    ]


PAGE_COLUMNS = [
    "standings_html", "standings_json", "bracket_html", "bracket_json", "event_html", "event_json",
    "standings_html_public", "bracket_html_public", "event_html_public", "rendered_at", "layout",
]  # fmt: skip


TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "league"


@cache
def layout() -> str:
    """A fingerprint of what renders the pages: a deploy that changes it re-renders each page the
    first time it is served (see ``views._league_page``). Each format names the files its own
    stored pages come from (``league.formats``)."""
    digest = hashlib.sha1()
    sources = [TEMPLATES / "_standings.jinja", TEMPLATES / "_bracket.html", Path(__file__)]
    for spec in formats.registered():
        sources += spec.page_sources
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _add_cells(rows: list[dict], columns: list[Column]) -> list[dict]:
    """Give each row its table cells in the columns' order, each its column's key and its text.
    Text, not numbers: the template engine localizes every number it prints, which was almost
    half the cost of rendering 200 tables each night."""
    for row in rows:
        row["cells"] = [{"key": column.key, "text": str(row[column.key])} for column in columns]
    return rows


def _store(pages: list[tuple]) -> None:
    """Insert or replace the pages in one statement per page, pipelined. Not ``bulk_create``: on
    PostgreSQL it sends the rows as arrays, and psycopg escapes every quote of the HTML inside an
    array in Python (over a second for 200 leagues, more than rendering them)."""
    columns = ", ".join(PAGE_COLUMNS)
    values = placeholders(len(PAGE_COLUMNS) + 1)
    updates = ", ".join(f"{column} = EXCLUDED.{column}" for column in PAGE_COLUMNS)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {LeaguePage._meta.db_table} (league_id, {columns}) "
            f"VALUES ({values}) ON CONFLICT (league_id) DO UPDATE SET {updates}",
            pages,
        )


def _json(payload: dict) -> str:
    return json.dumps(payload, cls=DjangoJSONEncoder)


def _brackets(ids) -> tuple[dict, dict, dict]:
    """Brackets of these leagues, their slots and their players: three queries."""
    brackets = {
        bracket.league_id: bracket
        for bracket in Bracket.objects.filter(league_id__in=ids).select_related("champion__user")
    }
    slots: dict[int, list] = {}
    for slot in BracketSlot.objects.filter(bracket__in=list(brackets.values())).order_by(
        "bracket_id", "round_index", "position"
    ):
        slots.setdefault(slot.bracket_id, []).append(slot)
    seeds = {seed for bracket in brackets.values() for seed in bracket.seeds}
    players = {
        profile.pk: profile
        for profile in PlayerProfile.objects.filter(pk__in=seeds).select_related("user")
    }
    return brackets, slots, players


STANDINGS_TEMPLATE = "league/_standings.jinja"


def _standings_html(league, rows, columns, updated, bracket, champion) -> str:
    """The standings table, from a Jinja2 template (core/jinja.py): every league's is rendered
    each night, and Django's template language took four times as long."""
    with timezone.override(league.season.institution.tz):  # times in the campus's clock
        return (
            engines["jinja2"]
            .get_template(STANDINGS_TEMPLATE)
            .render(
                {
                    "league": league,
                    "columns": columns,
                    "rows": _add_cells(rows, columns),
                    "updated": updated,
                    "champion": champion or "",
                    "has_bracket": bracket is not None,
                }
            )
        )


def render_pages(league_ids, now=None) -> int:
    """Render and store the standings and bracket pages of these leagues, and an event's
    leaderboard and event.json; returns how many. A fixed number of queries whatever the number
    of leagues, and a few more for each event among them (events are few: one an evening)."""
    pages = rendered_pages(league_ids, now or timezone.now())
    _store(pages)
    return len(pages)


def rendered_pages(league_ids, now) -> list[tuple]:
    """These leagues' pages as they would be stored now (``LeaguePage``: the league's id, then
    ``PAGE_COLUMNS``' values), rendered and not stored.

    Each page is rendered for the institution's members (full names, withheld students as
    numbers: P1, P2) and, where the league names players more strictly in public, once more for
    everyone else; the JSON feeds always carry the public's names."""
    ids = sorted(set(league_ids))
    if not ids:
        return []
    leagues = League.objects.filter(pk__in=ids).select_related("season__institution")
    rows_by_league = standings_rows_of(ids)
    brackets, slots, players = _brackets(ids)
    pages = []
    for league in leagues:
        rows = rows_by_league.pop(league.pk, [])  # freed once its pages are rendered
        public = league.names_in_public
        styles = [privacy.FULL] if public == privacy.FULL else [privacy.FULL, public]
        bracket = brackets.get(league.pk)
        updated = max((row["updated_at"] for row in rows), default=None)
        columns = table_columns(league)
        standings, bracket_pages, bracket_docs = {}, {}, {}
        for style in styles:
            names = {pk: profile.name_in(style) for pk, profile in players.items()}
            champion = names.get(bracket.champion_id) if bracket else None
            standings[style] = _standings_html(
                league, named_rows(rows, style), columns, updated, bracket, champion
            )
            rounds = bracket_rounds(bracket, slots.get(bracket.pk, []), names) if bracket else []
            bracket_pages[style] = render_to_string(
                "league/_bracket.html",
                {"league": league, "bracket": bracket, "rounds": rounds, "champion": champion},
            )
            for games in rounds:
                for game in games:
                    game.pop("match_id")
            bracket_docs[style] = {
                "institution": league.season.institution.slug,
                "league": league.slug,
                "size": bracket.size if bracket else 0,
                "champion": champion,
                "rounds": rounds,
            }
        standings_json = _json(
            {
                "institution": league.season.institution.slug,
                "league": league.slug,
                "updated": updated.isoformat() if updated else None,
                "standings": [
                    {key: row[key] for key in JSON_KEYS} for row in named_rows(rows, public)
                ],
            }
        )
        event_pages, event_json = {}, ""
        render_own = formats.of(league.format).stored_pages
        if render_own is not None:  # an event's leaderboard and event.json
            for style in styles:
                event_pages[style], document = render_own(league, now=now, style=style)
            event_json = _json(document)  # the last style's: the public's
        pages.append(
            (
                league.pk,
                standings[privacy.FULL],
                standings_json,
                bracket_pages[privacy.FULL],
                _json(bracket_docs[public]),
                event_pages.get(privacy.FULL, ""),
                event_json,
                standings.get(public, "") if public != privacy.FULL else "",
                bracket_pages.get(public, "") if public != privacy.FULL else "",
                event_pages.get(public, "") if public != privacy.FULL else "",
                now,
                layout(),
            )
        )
    return pages

"""A league's public pages, rendered when their data changes (see ``LeaguePage``).

``render_pages`` is called in the transaction of every change the pages show: standings rebuilt
and brackets drawn or advanced (once, after both: ``refresh.refresh_leagues``), a league,
season or player's name edited (``receivers``). The views in ``views.py`` then serve the stored
content in one query.
"""

import hashlib
import json
from functools import cache
from html import escape
from pathlib import Path

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from .models import Bracket, BracketSlot, League, LeaguePage
from .selectors import bracket_rounds, standings_rows_of

JSON_FIELDS = [
    "rank", "player", "wins", "losses", "ties", "byes", "forfeits_won", "forfeits_lost",
    "double_forfeits", "spread", "points_for", "points_against", "games",
]  # fmt: skip

ROW = (
    '<tr><td>{}</td><th scope="row">{}</th><td>{}</td><td>{}</td><td>{}</td><td data-sort="{}">{}</td>'
    '<td>{}</td><td>{}</td><td>{}</td><td class="muted">{}</td></tr>'
)
PAGE_COLUMNS = [
    "standings_html", "standings_json", "bracket_html", "bracket_json", "rendered_at", "layout",
]  # fmt: skip


TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "league"


@cache
def layout() -> str:
    """A fingerprint of what renders the pages: a deploy that changes it re-renders each page the
    first time it is served (see ``views._league_page``)."""
    digest = hashlib.sha1()
    for path in (TEMPLATES / "_standings.html", TEMPLATES / "_bracket.html", Path(__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _table_body(rows):
    """The table's rows, every cell escaped. ~100 rows × 10 cells through the template engine was
    most of the page's time, and Django's ``format_html`` still most of the nightly's rendering of
    200 leagues (its lazy-aware escape per cell): the standard library's ``escape`` on each cell
    does the same escaping several times faster."""
    cells = [
        "rank", "player", "wins", "losses", "ties", "spread", "spread_display",
        "points_for", "points_against", "games", "notes",
    ]  # fmt: skip
    return mark_safe(  # every cell is escaped just above
        "\n".join(ROW.format(*(escape(str(r[cell])) for cell in cells)) for r in rows)
    )


def _store(pages: list[tuple]) -> None:
    """Insert or replace the pages in one statement per page, pipelined. Not ``bulk_create``: on
    PostgreSQL it sends the rows as arrays, and psycopg escapes every quote of the HTML inside an
    array in Python (over a second for 200 leagues, more than rendering them)."""
    columns = ", ".join(PAGE_COLUMNS)
    placeholders = ", ".join(["%s"] * (len(PAGE_COLUMNS) + 1))
    updates = ", ".join(f"{column} = EXCLUDED.{column}" for column in PAGE_COLUMNS)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {LeaguePage._meta.db_table} (league_id, {columns}) "
            f"VALUES ({placeholders}) ON CONFLICT (league_id) DO UPDATE SET {updates}",
            pages,
        )


def _json(payload: dict) -> str:
    return json.dumps(payload, cls=DjangoJSONEncoder)


def _brackets(ids) -> tuple[dict, dict, dict]:
    """Brackets of these leagues, their slots and their players' names: three queries."""
    from accounts.models import PlayerProfile

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
    names = {
        profile.pk: profile.user.get_full_name() or profile.user.email
        for profile in PlayerProfile.objects.filter(pk__in=seeds).select_related("user")
    }
    return brackets, slots, names


def render_pages(league_ids, now=None) -> int:
    """Render and store the standings and bracket pages of these leagues; returns how many.
    A fixed number of queries whatever the number of leagues."""
    ids = sorted(set(league_ids))
    if not ids:
        return 0
    now = now or timezone.now()
    leagues = League.objects.filter(pk__in=ids).select_related("season__institution")
    rows_by_league = standings_rows_of(ids)
    brackets, slots, names = _brackets(ids)
    pages = []
    for league in leagues:
        rows = rows_by_league.get(league.pk, [])
        bracket = brackets.get(league.pk)
        champion_profile = bracket.champion if bracket else None
        updated = max((row["updated_at"] for row in rows), default=None)
        with timezone.override(league.season.institution.tz):  # times in the campus's clock
            standings_html = render_to_string(
                "league/_standings.html",
                {
                    "league": league,
                    "rows": rows,
                    "table_body": _table_body(rows),
                    "updated": updated,
                    "champion": champion_profile.user.get_full_name() if champion_profile else "",
                    "has_bracket": bracket is not None,
                },
            )
        standings_json = _json(
            {
                "league": league.slug,
                "updated": updated.isoformat() if updated else None,
                "standings": [{key: row[key] for key in JSON_FIELDS} for row in rows],
            }
        )
        rounds = bracket_rounds(bracket, slots.get(bracket.pk, []), names) if bracket else []
        champion = names.get(bracket.champion_id) if bracket else None
        bracket_html = render_to_string(
            "league/_bracket.html",
            {"league": league, "bracket": bracket, "rounds": rounds, "champion": champion},
        )
        for games in rounds:
            for game in games:
                game.pop("match_id")
        bracket_json = _json(
            {
                "league": league.slug,
                "size": bracket.size if bracket else 0,
                "champion": champion,
                "rounds": rounds,
            }
        )
        pages.append(
            (
                league.pk,
                standings_html,
                standings_json,
                bracket_html,
                bracket_json,
                now,
                layout(),
            )
        )
    _store(pages)
    return len(pages)

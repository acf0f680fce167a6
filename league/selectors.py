from typing import NamedTuple

from django.db import connection
from django.db.models import Count, Prefetch, Q

from accounts import roles
from matches.models import Match, Seat

from .models import League, Round


def leagues_for(institution):
    """An institution's leagues with their entry counts, newest season first."""
    return (
        League.objects.filter(season__institution=institution)
        .select_related("season__institution")
        .annotate(players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))
        .order_by("-season__starts_on", "name")
    )


def can_see_league(user, league: League) -> bool:
    if league.public:
        return True
    if not user.is_authenticated:
        return False
    return roles.institution_of(user) == league.season.institution or roles.is_site_admin(user)


class LeaguePageRow(NamedTuple):
    league_id: int
    name: str
    public: bool
    layout: str
    content: str


PAGE_PARTS = ("standings_html", "standings_json", "bracket_html", "bracket_json")


def league_page_row(slug: str, part: str) -> LeaguePageRow | None:
    """One stored part of a league's pages (``LeaguePage``) with what deciding who may see it
    needs. Hand-written SQL: building the ORM query took most of a one-query page's time."""
    if part not in PAGE_PARTS:
        raise ValueError(f"{part!r} is not one of {PAGE_PARTS}")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT league.id, league.name, league.public, page.layout, page.{part} "
            "FROM league_league league JOIN league_leaguepage page ON page.league_id = league.id "
            "WHERE league.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    return LeaguePageRow(*row) if row else None


def schedule(league: League) -> list[Round]:
    """Rounds with their matches and seats: three queries whatever the league's size."""
    return list(
        Round.objects.filter(league=league)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.order_by("id").prefetch_related(
                    Prefetch(
                        "seats",
                        queryset=Seat.objects.select_related("player__user").order_by("order"),
                    )
                ),
            )
        )
    )


def standings_of(league: League):
    from .models import Standing

    return list(
        Standing.objects.filter(league=league)
        .select_related("player__user")
        .order_by("rank", "player__user__last_name")
    )


def bracket_rounds(bracket, slots, players: dict) -> list[list[dict]]:
    """Plain rounds for pages and bracket.json; `players` maps profile id to display name."""
    rounds: list[list[dict]] = []

    def name(seed):
        return players.get(bracket.seeds[seed - 1]) if seed else None

    for slot in slots:
        while len(rounds) <= slot.round_index:
            rounds.append([])
        if slot.decided and not slot.match_id:
            status = "bye" if (slot.seed_a == 0 or slot.seed_b == 0) else "walkover"
        elif slot.decided:
            status = "done"
        elif slot.match_id:
            status = "playing"
        else:
            status = "waiting"
        row = {
            "seed_a": slot.seed_a or None,
            "player_a": name(slot.seed_a),
            "seed_b": slot.seed_b or None,
            "player_b": name(slot.seed_b),
            "winner": name(slot.winner_seed),
            "status": status,
            "match_id": slot.match_id,
        }
        if not slot.seed_b:  # a bye has no player_b (public contract)
            row.pop("player_b")
        rounds[slot.round_index].append(row)
    return rounds


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def standings_rows_of(league_ids) -> dict[int, list[dict]]:
    """The standings tables of these leagues as plain rows, by league id, display strings
    prepared here: one query, no model instances (building ~100 model objects and their template
    tags was most of a page's time)."""
    from .models import STANDING_COLUMNS, Standing

    by_league: dict[int, list[dict]] = {}
    rows = (
        Standing.objects.filter(league_id__in=list(league_ids))
        .order_by("league_id", "rank", "player__user__last_name", "player__user__first_name")
        .values(*STANDING_COLUMNS, "player__user__first_name", "player__user__last_name")
    )
    for row in rows:
        by_league.setdefault(row.pop("league_id"), []).append(row)
        row["player"] = (
            f"{row.pop('player__user__first_name')} {row.pop('player__user__last_name')}".strip()
        )
        row["spread_display"] = f"+{row['spread']}" if row["spread"] > 0 else str(row["spread"])
        notes = []
        if row["byes"]:
            notes.append(_plural(row["byes"], "bye", "byes"))
        if row["forfeits_won"]:
            notes.append(_plural(row["forfeits_won"], "forfeit win", "forfeit wins"))
        if row["forfeits_lost"]:
            notes.append(_plural(row["forfeits_lost"], "forfeit loss", "forfeit losses"))
        if row["double_forfeits"]:
            notes.append(_plural(row["double_forfeits"], "double forfeit", "double forfeits"))
        if row["withdrawn"]:
            notes.append("withdrawn")
        row["notes"] = ", ".join(notes)
    return by_league

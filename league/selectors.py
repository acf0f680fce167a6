from typing import NamedTuple

from django.db import connection
from django.db.models import Count, Exists, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce

from accounts import privacy, roles
from accounts.models import player_name
from core.raw import moment, placeholders, sql_list
from matches.models import Match, Seat
from matches.next_step import MyMatch, Opponent
from ratings import glicko
from ratings.models import is_provisional

from . import formats
from .addresses import LeagueAddress
from .models import STANDING_COLUMNS, Entry, League, Round, Standing, WaitlistEntry
from .names import is_member


def leagues_for(institution):
    """An institution's (or its id's) leagues with their entry counts and whether their rounds
    are drawn (`has_rounds`), newest season first."""
    # The count is a subquery, not a join: a join made the query GROUP BY the league, and every
    # other annotation a caller adds (the dashboard's open matches, the list's EXISTS) was then
    # evaluated once per entry instead of once per league (320 ms for 20 leagues, issue 18).
    players = (
        Entry.objects.filter(league=OuterRef("pk"), withdrawn_at__isnull=True)
        .order_by()
        .values("league")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return (
        League.objects.filter(season__institution=institution)
        .select_related("season__institution", *formats.entry_rule_reads())
        .annotate(
            players=Coalesce(Subquery(players), 0),
            has_rounds=Exists(Round.objects.filter(league=OuterRef("pk"))),
        )
        .order_by("-season__starts_on", "name")
    )


def waitlist_place(league: League, player) -> int | None:
    """The player's place on the league's waitlist (1 = next to get a place), or None: one
    query."""
    order = list(
        WaitlistEntry.objects.filter(league=league)
        .order_by("joined_at", "id")
        .values_list("player_id", flat=True)
    )
    return order.index(player.pk) + 1 if player.pk in order else None


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
    content: str  # as the institution's members read it
    public_content: str  # as everyone else does, where it differs (P1); else empty
    institution_id: int
    search_engines: bool  # the league lets search engines index its pages (P3)

    def content_for(self, user) -> str:
        """The page for this reader: the public's names unless they are the institution's."""
        if self.public_content and not is_member(user, self.institution_id):
            return self.public_content
        return self.content


PAGE_PARTS = (
    "standings_html", "standings_json", "bracket_html", "bracket_json", "event_html", "event_json",
)  # fmt: skip


def league_page_row(address: LeagueAddress, part: str) -> LeaguePageRow | None:
    """One stored part of a league's pages (``LeaguePage``) with what deciding who may see it
    needs. Hand-written SQL: building the ORM query took most of a one-query page's time."""
    if part not in PAGE_PARTS:
        raise ValueError(f"{part!r} is not one of {PAGE_PARTS}")
    public_part = f"page.{part}_public" if part.endswith("_html") else "''"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT league.id, league.name, league.public, page.layout, page.{part}, "
            f"{public_part}, season.institution_id, league.search_engines "
            "FROM league_league league JOIN league_leaguepage page ON page.league_id = league.id "
            "JOIN accounts_season season ON season.id = league.season_id "
            "JOIN accounts_institution campus ON campus.id = league.campus_id "
            "WHERE campus.slug = %s AND league.slug = %s",
            [address.campus, address.slug],
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


def named_rows(rows: list[dict], style: str) -> list[dict]:
    """Copies of standings rows (``standings_rows_of``) with each player named under a privacy
    style (P1–P4): the rows of one league's page for one audience."""
    return [
        {
            **row,
            "player": privacy.shown_name(
                row["player_id"],
                row["full_name"],
                style=style,
                withheld=row["withheld"],
                erased=row["erased"],
                number=row["player_number"],
            ),
        }
        for row in rows
    ]


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def rating_cells(rating: float | None, deviation: float | None) -> dict:
    """A player's rating as standings and leaderboards show it (R1): a whole number, marked
    provisional while its deviation is high; none for a player not yet rated."""
    if rating is None:
        return {"rating": None, "rating_provisional": None, "rating_display": "–"}
    provisional = is_provisional(deviation)
    return {
        "rating": round(rating),
        "rating_provisional": provisional,
        "rating_display": f"{round(rating)}{'*' if provisional else ''}",
    }


def standings_rows_of(league_ids) -> dict[int, list[dict]]:
    """The standings tables of these leagues as plain rows, by league id, display strings
    prepared here: one query, no model instances (building ~100 model objects and their template
    tags was most of a page's time)."""

    by_league: dict[int, list[dict]] = {}
    # A guest has no user (the join is a LEFT JOIN, their name columns NULL): their row is
    # named, and sorted among ties, by the name they gave.
    rows = (
        Standing.objects.filter(league_id__in=list(league_ids))
        .annotate(
            sort_name=Coalesce("player__user__last_name", "player__display_name"),
            # At a club or an event, the number one is shown by (P2): their player number there.
            player_number=Subquery(
                Entry.objects.filter(
                    league_id=OuterRef("league_id"), player_id=OuterRef("player_id")
                ).values("player_number")[:1]
            ),
        )
        .order_by("league_id", "rank", "sort_name", "player__user__first_name")
        .values(
            *STANDING_COLUMNS,
            "player__user__first_name",
            "player__user__last_name",
            "player__display_name",
            "player__user_id",
            "player__withholds_name",
            "player__registrar_withholds",
            "player__erased_at",
            "player__rating__rating",
            "player__rating__deviation",
            "player_number",
        )
    )
    for row in rows:
        by_league.setdefault(row.pop("league_id"), []).append(row)
        first, last = row.pop("player__user__first_name"), row.pop("player__user__last_name")
        guest_name = row.pop("player__display_name")
        row["user_id"] = row.pop("player__user_id")  # the page marks the reader's own row
        # The name as given and what privacy needs to show it (``named_rows``, P1–P4).
        row["full_name"] = f"{first or ''} {last or ''}".strip() or guest_name
        row["withheld"] = row.pop("player__withholds_name") or row.pop(
            "player__registrar_withholds"
        )
        row["erased"] = row.pop("player__erased_at") is not None
        row["player"] = row["full_name"]
        row["spread_display"] = f"+{row['spread']}" if row["spread"] > 0 else str(row["spread"])
        row.update(
            rating_cells(row.pop("player__rating__rating"), row.pop("player__rating__deviation"))
        )
        row["win_pct"] = float(row["win_pct"])  # a number in standings.json, not a string
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


# --- My matches ------------------------------------------------------------------------------------

# The columns in the order of ``matches.next_step.MyMatch``'s fields, then one opponent: a row per
# opponent (none for a bye). Plain SQL that PostgreSQL and the SQLite demo both read. Here, not in
# ``matches``: it reads league tables, and ``matches`` knows nothing of ``league``.
MY_MATCHES_SQL = """
SELECT m.id, m.status, m.deadline, m.scheduled_at, league.name, round.number, seat.outcome,
    (SELECT proposal.proposed_by_id FROM matches_scheduleproposal proposal
        WHERE proposal.match_id = m.id AND proposal.status = 'open'
        ORDER BY proposal.id DESC LIMIT 1),
    live.status, live.submitted_by_id,
    EXISTS (SELECT 1 FROM matches_contactissue issue
        WHERE issue.match_id = m.id AND issue.resolved_at IS NULL),
    CASE WHEN league.format IN ({scorekeeper_formats}) THEN
        (SELECT keeper.player_id FROM matches_seat keeper
            WHERE keeper.match_id = m.id AND keeper."order" = m.scorekeeper) END,
    (line.confirmed_at IS NOT NULL
     OR EXISTS (SELECT 1 FROM matches_dispute dispute
        WHERE dispute.report_id = live.id AND dispute.raised_by_id = seat.player_id)),
    seat.place, seat.score, league.format IN ({cards_only_formats}), m."table",
    league.report_window_days,
    other.player_id, person.first_name, person.last_name, person.email, profile.display_name,
    profile.email, other.place, other.score,
    theirs.rating, theirs.deviation, mine.rating, mine.deviation
FROM matches_seat seat
JOIN matches_match m ON m.id = seat.match_id
JOIN league_league league ON league.id = m.league_id
JOIN league_round round ON round.id = m.round_id
-- At most one live report per match (the constraint one_live_report_per_match).
LEFT JOIN matches_resultreport live
    ON live.match_id = m.id AND live.status IN ('pending', 'confirmed', 'disputed')
-- The player's own line of it (report_score_once_per_seat): a join, because as an EXISTS
-- beside the dispute's, PostgreSQL hashed every confirmed line of every report (3-8 ms at the
-- bench's 20,000 matches) to answer for a dozen.
LEFT JOIN matches_reportscore line ON line.report_id = live.id AND line."order" = seat."order"
LEFT JOIN matches_seat other ON other.match_id = m.id AND other.player_id <> seat.player_id
LEFT JOIN accounts_playerprofile profile ON profile.id = other.player_id
LEFT JOIN accounts_user person ON person.id = profile.user_id
LEFT JOIN ratings_playerrating theirs ON theirs.player_id = other.player_id
LEFT JOIN ratings_playerrating mine ON mine.player_id = seat.player_id
WHERE seat.player_id = %s AND league.season_id IN ({seasons})
ORDER BY m.deadline, m.id, other."order"
"""


def my_matches(profile, *, seasons) -> list:
    """A player's matches in these seasons as plain rows with everything the next step needs,
    opponents included: one hand-written query, no model instances. Building ~12 objects per
    match was most of the home page's time, and then compiling the ORM's version of this query
    (four subqueries) was three times the time PostgreSQL took to run it."""
    season_ids = [season.pk for season in seasons]
    if not season_ids:
        return []
    sql = MY_MATCHES_SQL.format(
        seasons=placeholders(len(season_ids)),
        scorekeeper_formats=sql_list(formats.with_trait("scorekeeper_reports")),
        cards_only_formats=sql_list(formats.with_trait("cards_only")),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [profile.pk, *season_ids])
        rows = cursor.fetchall()
    matches: dict[int, MyMatch] = {}
    for row in rows:
        *fields, opponent_id, first, last, address, guest_name, guest_address, place, score = row[
            :-4
        ]
        ratings = row[-4:]
        match = matches.get(fields[0])
        if match is None:
            fields[2], fields[3] = moment(fields[2]), moment(fields[3])
            # SQLite's EXISTS and IN: 0/1
            fields[10], fields[12], fields[15] = (
                bool(fields[10]),
                bool(fields[12]),
                bool(fields[15]),
            )
            match = matches[fields[0]] = MyMatch(*fields)
        if opponent_id is not None:
            # Named as their match page names them to their opponents (P1, P2: the name as
            # given, withheld or not; "Former player N" once forgotten, P4), in full: two
            # opponents called Casey are two people. A guest has no user: their display name.
            name = player_name(first, last, address, guest_name)
            # Their address to write to, a guest's own if they gave one; none once forgotten.
            email = guest_address if address is None else address
            if email and privacy.former_name_of_address(email):
                email = None
            match.opponents.append(Opponent(name, email or "", place, score, *_odds(*ratings)))
    return list(matches.values())


def _odds(their_rating, their_deviation, my_rating, my_deviation) -> tuple[str, int | None]:
    """An opponent's rating as shown, and the reader's chance in 100 of beating them (R1):
    where either is rated, the unrated one counted as a newcomer."""
    if their_rating is None and my_rating is None:
        return "", None
    theirs = glicko.Rated(their_rating, their_deviation) if their_rating else glicko.Rated()
    mine = glicko.Rated(my_rating, my_deviation) if my_rating else glicko.Rated()
    shown = (
        ""
        if their_rating is None
        else rating_cells(their_rating, their_deviation)["rating_display"]
    )
    return shown, round(100 * glicko.expected(mine, theirs))


def round_tables(round_: Round) -> list[Match]:
    """A round's (or a night's) tables in number order, table 1 first, each with its seats in
    seat order; tables seated before they were numbered come in the order they were made."""
    return list(
        Match.objects.filter(round=round_)
        .order_by("table", "id")
        .prefetch_related("seats__player__user")
        .select_related("round")
    )

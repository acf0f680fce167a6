"""An event's public pages as they are served (E3): the leaderboard's content and event.json,
rendered into the league's ``LeaguePage`` by ``pages.render_pages`` in the transaction of every
change they show (a card, a pairing, a swap, an entrant added, leaving or back), so serving
either is one query. The round, table and projector pages read ``selectors.event_state`` live."""

from django.template.loader import render_to_string
from django.utils import timezone

from matches.models import MatchStatus

from . import assist_ledger, selectors
from .round_clock import round_clock


def seat_rows(state: selectors.EventState):
    """Per entrant: their category, team and number, for the pages' tables."""
    return {entry.player_id: entry for entry in state.entries}


def rounds_view(state: selectors.EventState):
    """Each round with its status, start time and its tables as (table, [(seat, entry)])."""
    entries = seat_rows(state)
    rows = []
    for round_, matches in state.rounds:
        tables, byes = [], []
        for match in matches:
            seats = [(seat, entries.get(seat.player_id)) for seat in match.seats.all()]
            (byes if match.status == MatchStatus.BYE else tables).append((match, seats))
        rows.append(
            {
                "clock": round_clock(
                    round_.play_by,
                    [(p.starts, p.minutes) for p in round_.periods.all()],
                    state.league.season.institution.tz,
                    timezone.now(),
                    number=round_.number,
                ),
                "round": round_,
                "status": selectors.round_status(matches),
                "periods": list(round_.periods.all()),
                "tables": tables,
                "byes": byes,
            }
        )
    return rows


def event_document(state: selectors.EventState, now=None) -> dict:
    entries = seat_rows(state)
    names = state.names

    def number(player_id):
        entry = entries.get(player_id)
        return entry.player_number if entry else None

    rounds = []
    for view in rounds_view(state):
        rounds.append(
            {
                "number": view["round"].number,
                "status": view["status"],
                "tables": [
                    {
                        "table": match.table,
                        "seats": [
                            {
                                "seat": seat.order,
                                "player_number": entry.player_number if entry else None,
                                "name": names.of(seat.player),
                                "category": entry.entrant.category.name
                                if entry and entry.entrant.category_id
                                else None,
                                "team": entry.entrant.team.name
                                if entry and entry.entrant.team_id
                                else None,
                                "score": seat.score
                                if match.status in (MatchStatus.CONFIRMED, MatchStatus.RESOLVED)
                                else None,
                            }
                            for seat, entry in seats
                        ],
                    }
                    for match, seats in view["tables"]
                ],
                "byes": [number(seats[0][0].player_id) for _, seats in view["byes"]],
            }
        )
    board = state.board
    champions = board.champions
    ratings = {
        entry.player_number: {key: cells[key] for key in NO_RATING}
        for entry in state.entries
        if (cells := selectors.rating_of(entry))["rating"] is not None
    }
    return {
        "institution": state.league.season.institution.slug,
        "league": state.league.slug,
        # In the campus's clock, however `now` was given: the stored feed and a fresh render
        # of it say the same.
        "updated": timezone.localtime(
            now or timezone.now(), state.league.season.institution.tz
        ).isoformat(),
        "rounds": rounds,
        "standings": [
            {
                "rank": row.rank,
                "player_number": row.entrant.number,
                "name": row.entrant.name,
                "category": row.entrant.category,
                "team": row.entrant.team,
                "total": row.total,
                "games": row.games,
                "wins": row.wins,
                "spread": row.spread,
                **ratings.get(row.entrant.number, NO_RATING),
            }
            for row in board.rows
        ],
        "categories": {
            name: [row.entrant.number for row in rows] for name, rows in board.categories.items()
        },
        "champion": champions[0].entrant.number if len(champions) == 1 else None,
        "teams": [
            {
                "rank": team.rank,
                "team": team.team,
                "total": team.total,
                "members": [
                    {"player_number": member.number, "score": score}
                    for member, score in team.members
                ],
            }
            for team in board.teams
        ],
        "assists_cents": assist_ledger.ledger(state.league).total_cents,
    }


NO_RATING = {"rating": None, "rating_provisional": None}


def render_event(league, now=None, style: str = "") -> tuple[str, dict]:
    """The leaderboard's HTML content and event.json's document, from one read of the event,
    its players named under a privacy style (P1, P2)."""
    state = selectors.event_state(league, style)
    with timezone.override(league.season.institution.tz):
        html = render_to_string(
            "events/_leaderboard_page.html",
            {
                "league": league,
                "board": state.board,
                "ledger": assist_ledger.ledger(league),
                # The column shows when anyone in the event is rated.
                "ratings": any(row.entrant.rating for row in state.board.rows),
            },
        )
    return html, event_document(state, now=now)

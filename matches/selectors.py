from datetime import UTC

from django.db import connection
from django.db.models import Prefetch, Q
from django.utils.dateparse import parse_datetime

from accounts import roles

from .models import (
    LIVE_REPORT_STATUSES,
    AuditEvent,
    Match,
    ResultReport,
    ScheduleProposal,
    Seat,
)


def match_for_page(pk: int) -> Match | None:
    """A match with everything its page shows, in a fixed number of queries: ``all_reports``
    newest first, and ``live_reports`` among them (a ruling supersedes the reports it decides,
    and the page still shows their game record)."""
    match = (
        Match.objects.select_related("league__season__institution", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            ),
            Prefetch(
                "proposals",
                queryset=ScheduleProposal.objects.filter(status="open")
                .select_related("proposed_by__user")
                .prefetch_related("times"),
                to_attr="open_proposals",
            ),
            Prefetch(
                "reports",
                queryset=ResultReport.objects.select_related(
                    "submitted_by__user", "dispute"
                ).order_by("-submitted_at", "-id"),
                to_attr="all_reports",
            ),
            Prefetch(
                "audit_events",
                queryset=AuditEvent.objects.select_related("actor").order_by("created_at", "id"),
            ),
            "contact_issues",
        )
        .filter(pk=pk)
        .first()
    )
    if match is not None:
        match.live_reports = [r for r in match.all_reports if r.status in LIVE_REPORT_STATUSES]
    return match


def can_see_match(user, match: Match) -> bool:
    """Its players, its league's director and site admins; nobody else learns it exists."""
    if not user.is_authenticated:
        return False
    if roles.is_director_of(user, match.league.season.institution):
        return True
    return any(seat.player.user_id == user.pk for seat in match.seats.all())


def matches_of(profile):
    return (
        Match.objects.filter(Q(seats__player=profile))
        .select_related("league__season__institution", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
        .order_by("deadline", "id")
    )


# The columns in the order of ``next_step.MyMatch``'s fields, then one opponent: a row per
# opponent (none for a bye). Plain SQL that PostgreSQL and the SQLite demo both read.
MY_MATCHES_SQL = """
SELECT m.id, m.status, m.deadline, m.scheduled_at, league.name, round.number, seat.outcome,
    (SELECT proposal.proposed_by_id FROM matches_scheduleproposal proposal
        WHERE proposal.match_id = m.id AND proposal.status = 'open'
        ORDER BY proposal.id DESC LIMIT 1),
    live.status, live.submitted_by_id,
    EXISTS (SELECT 1 FROM matches_contactissue issue
        WHERE issue.match_id = m.id AND issue.resolved_at IS NULL),
    person.first_name, person.last_name, person.email
FROM matches_seat seat
JOIN matches_match m ON m.id = seat.match_id
JOIN league_league league ON league.id = m.league_id
JOIN league_round round ON round.id = m.round_id
-- At most one live report per match (the constraint one_live_report_per_match).
LEFT JOIN matches_resultreport live
    ON live.match_id = m.id AND live.status IN ('pending', 'confirmed', 'disputed')
LEFT JOIN matches_seat other ON other.match_id = m.id AND other.player_id <> seat.player_id
LEFT JOIN accounts_playerprofile profile ON profile.id = other.player_id
LEFT JOIN accounts_user person ON person.id = profile.user_id
WHERE seat.player_id = %s AND league.season_id IN ({seasons})
ORDER BY m.deadline, m.id, other."order"
"""


def _moment(value):
    """A datetime column: PostgreSQL gives it aware; SQLite (the demo) naive or as text, in UTC."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def my_matches(profile, *, seasons) -> list:
    """A player's matches in these seasons as plain rows with everything the next step needs,
    opponents included: one hand-written query, no model instances. Building ~12 objects per
    match was most of the home page's time, and then compiling the ORM's version of this query
    (four subqueries) was three times the time PostgreSQL took to run it."""
    from .next_step import MyMatch, Opponent

    season_ids = [season.pk for season in seasons]
    if not season_ids:
        return []
    sql = MY_MATCHES_SQL.format(seasons=", ".join(["%s"] * len(season_ids)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [profile.pk, *season_ids])
        rows = cursor.fetchall()
    matches: dict[int, MyMatch] = {}
    for *fields, first, last, email in rows:
        match = matches.get(fields[0])
        if match is None:
            fields[2], fields[3] = _moment(fields[2]), _moment(fields[3])
            fields[-1] = bool(fields[-1])  # SQLite's EXISTS is 0 or 1
            match = matches[fields[0]] = MyMatch(*fields)
        if email is not None:
            match.opponents.append(Opponent(f"{first} {last}".strip(), first, email))
    return list(matches.values())

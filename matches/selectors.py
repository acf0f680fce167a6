import json

from django.db import connection
from django.db.models import Prefetch, Q

from accounts import roles

from .models import AuditEvent, Match, ResultReport, ScheduleProposal, Seat


def match_for_page(pk: int) -> Match | None:
    """A match with everything its page shows, in a fixed number of queries."""
    return (
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
                queryset=ResultReport.objects.filter(
                    status__in=["pending", "confirmed", "disputed"]
                ).select_related("submitted_by__user", "dispute"),
                to_attr="live_reports",
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


# The columns in the order of ``next_step.MyMatch``'s fields, the opponents last.
MY_MATCHES_SQL = """
SELECT m.id, m.status, m.deadline, m.scheduled_at, league.name, round.number, seat.outcome,
    (SELECT proposal.proposed_by_id FROM matches_scheduleproposal proposal
        WHERE proposal.match_id = m.id AND proposal.status = 'open'
        ORDER BY proposal.id DESC LIMIT 1),
    report.status, report.submitted_by_id,
    EXISTS (SELECT 1 FROM matches_contactissue issue
        WHERE issue.match_id = m.id AND issue.resolved_at IS NULL),
    (SELECT json_agg(json_build_array(person.first_name, person.last_name, person.email)
            ORDER BY other."order")
        FROM matches_seat other
        JOIN accounts_playerprofile profile ON profile.id = other.player_id
        JOIN accounts_user person ON person.id = profile.user_id
        WHERE other.match_id = m.id AND other.player_id <> seat.player_id)::text
FROM matches_seat seat
JOIN matches_match m ON m.id = seat.match_id
JOIN league_league league ON league.id = m.league_id
JOIN league_round round ON round.id = m.round_id
LEFT JOIN LATERAL (
    SELECT live.status, live.submitted_by_id FROM matches_resultreport live
    WHERE live.match_id = m.id AND live.status IN ('pending', 'confirmed', 'disputed')
    ORDER BY live.submitted_at DESC LIMIT 1
) report ON true
WHERE seat.player_id = %s AND league.season_id = ANY(%s)
ORDER BY m.deadline, m.id
"""


def my_matches(profile, *, seasons) -> list:
    """A player's matches in these seasons as plain rows with everything the next step needs,
    opponents included: one hand-written query, no model instances. Building ~12 objects per
    match was most of the home page's time, and then compiling the ORM's version of this query
    (four subqueries) was three times the time PostgreSQL took to run it."""
    from .next_step import MyMatch, Opponent

    season_ids = [season.pk for season in seasons]
    if not season_ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(MY_MATCHES_SQL, [profile.pk, season_ids])
        rows = cursor.fetchall()
    matches = []
    for *fields, opponents in rows:
        match = MyMatch(*fields)
        for first, last, email in json.loads(opponents) if opponents else []:
            match.opponents.append(Opponent(f"{first} {last}".strip(), first, email))
        matches.append(match)
    return matches

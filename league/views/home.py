"""The home page (`/`): a visitor's (what this is, what there is to watch), a student's (their
eligibility and My matches, each with the next step, their slips), the front desk's (their work,
today's doors first) and a helper's (their format's page)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts import roles
from accounts.selectors import current_season, eligibility_of, next_step_for
from core.fragments import rendered
from matches.deadlines import deadline_text
from matches.next_step import next_step

from .. import formats
from ..models import League
from ..selectors import my_matches
from ..visitors import public_leagues_now
from .doors import todays_doors


def home(request: HttpRequest) -> HttpResponse:
    """Visitors: what this is. Students: eligibility and "My matches", each with the next step."""

    context = {}
    # The authentication backend loaded the profile and its institution with the user.
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    if profile and not profile.campus_id:
        # Not a student: staff, or a helper whose home is their format's (a volunteer scorer's
        # scoring table).
        if not roles.is_front_desk_of(request.user, profile.institution):
            if (helping := formats.helper_home(request)) is not None:
                return helping
    if profile:
        season = current_season(profile.institution)
        eligibility = eligibility_of(profile, season) if season else None
        now = timezone.now()
        rows = [
            {"match": match, "step": next_step(match, profile.pk, now)}
            for match in my_matches(profile, seasons=[season] if season else [])
        ]
        rows.sort(
            key=lambda row: (
                not row["step"].needs_you,
                row["match"].is_final,
                row["match"].deadline,
            )
        )
        tz = profile.institution.tz
        for row in rows:
            row["html"] = _my_match_row(row["match"], row["step"], tz)
        # Leagues joined whose rounds are not drawn yet: home says so, and when they will be.
        joined = (
            list(
                League.objects.filter(
                    season=season,
                    entries__player=profile,
                    entries__withdrawn_at__isnull=True,
                    rounds__isnull=True,
                )
                .select_related("season")
                .order_by("name")
            )
            if season
            else []
        )
        is_front_desk = roles.is_front_desk_of(request.user, profile.institution)
        context.update(
            # On an event's day the front desk's way to its door comes first.
            doors=todays_doors(request, profile.institution) if is_front_desk else "",
            home_parts=formats.student_home_parts(request, profile),
            profile=profile,
            season=season,
            eligibility=eligibility,
            next_step=next_step_for(eligibility) if eligibility else "",
            rows=rows,
            joined=joined,
            tz=profile.institution.tz,
            is_front_desk=is_front_desk,
            is_director=roles.is_director_of(request.user, profile.institution),
        )
    elif not request.user.is_authenticated:
        # A visitor: what there is to watch, today's events first (their formats' parts).
        leagues, more = public_leagues_now()
        context.update(
            visitor_parts=formats.visitor_home_parts(request),
            public_leagues=leagues,
            more_leagues=more,
        )
    return render(request, "league/home.html", context)


def _my_match_row(match, step, tz) -> str:
    """A row of My matches, from the fragments kept by what they show (core/fragments.py): each
    opponent by the name they go by on the match page, in full."""

    return rendered(
        "league/_my_match_row.html",
        {
            "match_id": match.id,
            "needs_you": step.needs_you,
            "step": step.text,
            "opponents": tuple((each.name, each.email) for each in match.opponents),
            # Before the game only (R1): each rated opponent's rating and the reader's chances;
            # none once a result is reported, confirmed or not, or its card entered.
            "odds": tuple(
                (each.name, each.rating, each.chance)
                for each in match.opponents
                if each.chance is not None
            )
            if _before_the_game(match)
            else (),
            "placings": match.placings,
            "league_name": match.league_name,
            "round_number": match.round_number,
            "table": match.table,
            "due": ""
            if match.is_final
            else deadline_text(match.deadline, tz, match.report_window_days),
        },
    )


def _before_the_game(match) -> bool:
    """Nothing of the game is known yet: not final, no live report (pending, disputed or
    confirmed), no place or score on the player's seat."""
    return (
        not match.is_final
        and match.report_status is None
        and match.my_place is None
        and match.my_score is None
    )

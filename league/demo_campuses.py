"""More campuses beside the demo institution (`seed_demo --campuses N`): one deployment serving a
regional provider or a conference of schools, for measuring the night shared by workers and the
pages at ten times the data.

Each campus is an institution of its own on a made-up domain under the reserved top-level
domain .example (campus001.example, …): a domain of its own, as the institutions' e-mail rule
asks (no two institutions' domains may overlap), which a subdomain of the demo's example.edu
would break. Each is in one of four time zones, with a director, its students and leagues
made in bulk as `--matches` makes the demo institution's. They have no club or events: those are
the demo institution's, to try by hand.
"""

import random
from collections.abc import Callable

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction

from accounts import roles
from accounts.models import Institution, PlayerProfile

from .demo import DEMO_PASSWORD, current_term, make_students, user_of
from .rating_runs import rate
from .scale import analyze_all, bulk_leagues_of_season

TIME_ZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"]
# Fresh planner statistics after the first campus and then every so many: a bulk load the
# planner has not seen makes it pick plans a hundred times slower (see scale.analyze_all).
ANALYZE_EVERY = 20


def campus_slug(number: int) -> str:
    return f"campus-{number:03d}"


def campus_domain(number: int) -> str:
    return f"campus{number:03d}.example"


def build_campuses(
    *,
    count: int,
    players: int,
    leagues: int,
    matches: int,
    seed: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> int:
    """Campuses 1..`count`, each of `players` students and `leagues` leagues with about `matches`
    matches; a campus already there is left as it is. Returns how many were made."""
    say = progress or (lambda step, done, total: None)
    password_hash = make_password(DEMO_PASSWORD)  # once: hashing costs ~0.27 s a password
    made = 0
    for number in range(1, count + 1):
        if Institution.objects.filter(slug=campus_slug(number)).exists():
            continue
        rng = random.Random(seed * 1000 + number)
        _campus(number, players, leagues, matches, password_hash, rng, made % ANALYZE_EVERY == 0)
        made += 1
        say("campuses", number, count)
    if made:
        analyze_all()
    return made


def _campus(number, players, leagues, matches, password_hash, rng, analyze) -> None:
    domain = campus_domain(number)
    quiet = lambda step, done, total: None  # noqa: E731 (the campuses' count is the progress)
    with transaction.atomic():
        institution = Institution.objects.create(
            name=f"Example Campus {number:03d}",
            slug=campus_slug(number),
            email_domains=domain,
            campus_id_pattern=r"\d{7}",
            campus_id_hint="seven digits",
            timezone=TIME_ZONES[number % len(TIME_ZONES)],
            default_venue="Student Center, Games Room",
            front_desk_location="the Recreation Center front desk",
        )
        season = current_term(institution)
        director = user_of(f"director@{domain}", "Dana", f"Director {number:03d}", password_hash)
        director.is_staff = True
        director.save()
        PlayerProfile.objects.create(user=director, institution=institution, campus_id="")
        director.groups.add(Group.objects.get(name=roles.DIRECTORS))
        EmailAddress.objects.create(
            user=director, email=director.email, verified=True, primary=True
        )
        make_students(institution, season, players, password_hash, rng, quiet, domain=domain)
    if leagues:
        bulk_leagues_of_season(
            institution,
            season,
            leagues,
            matches,
            rng,
            quiet,
            analyze=analyze,
            first_number=1,
            slug_prefix=f"{institution.slug}-",
        )
    rate(institution)

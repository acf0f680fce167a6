"""The demo and scale data: a made-up institution on the reserved example.edu domain.

It grows with each capability. Everything is bulk-inserted with one precomputed password hash so
the large data sets of the benchmark take minutes, not hours.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from accounts import roles
from accounts.models import (
    CampusSignIn,
    Checkout,
    Eligibility,
    EligibilitySource,
    EligibilityStatus,
    EquipmentItem,
    Institution,
    PlayerProfile,
    Protocol,
    RosterEntry,
    Season,
    User,
)

from . import formats
from .demo_leagues import make_league, make_open_league
from .models import League
from .pages import render_pages
from .rating_runs import rate
from .scale import bulk_leagues_of_season

DEMO_SLUG = "example-state"
DEMO_PASSWORD = "scrabble-demo"
SITE_ADMIN_EMAIL = "admin@example.edu"
FIRST_NAMES = [
    "Avery", "Blair", "Casey", "Dana", "Emery", "Finley", "Greer", "Harper", "Indy", "Jules",
    "Kai", "Lane", "Marlow", "Noor", "Oakley", "Parker", "Quinn", "Rowan", "Sage", "Tatum",
]  # fmt: skip
LAST_NAMES = [
    "Abernathy", "Brightwater", "Castellan", "Dunmore", "Everhart", "Fairbanks", "Galloway",
    "Hollister", "Ives", "Jessup", "Kettering", "Lindqvist", "Marchetti", "Northcott", "Okafor",
    "Pemberton", "Quillfeather", "Ravensworth", "Stroud", "Thistlewood",
]  # fmt: skip
BATCH = 2000


@dataclass
class DemoLogin:
    role: str
    email: str
    password: str


def build_demo(
    *,
    players: int = 12,
    leagues: int = 1,
    matches: int = 0,
    seed: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[DemoLogin]:
    """With `matches`, the first league is made through the services and the others in bulk
    (league/scale.py) up to about that many matches: the benchmark's large institution."""
    """Create the demo institution unless it exists; return the demo logins either way."""
    rng = random.Random(seed)
    say = progress or (lambda step, done, total: None)
    if Institution.objects.filter(slug=DEMO_SLUG).exists():
        return demo_logins()
    with transaction.atomic():
        roles.sync_groups()
        institution = Institution.objects.create(
            name="Example State University",
            slug=DEMO_SLUG,
            email_domains="example.edu",
            campus_id_pattern=r"\d{7}",
            campus_id_hint="seven digits",
            timezone="America/Chicago",
            default_venue="Student Union, Games Room (2nd floor)",
            front_desk_location="the Recreation Center front desk",
        )
        # The campus sign-in button, with no identity provider behind it: it leads to a page
        # saying so and how the site admin connects one.
        CampusSignIn.objects.create(
            institution=institution, protocol=Protocol.OIDC, button_name="Example State"
        )
        season = current_term(institution)
        password_hash = make_password(DEMO_PASSWORD)  # once: hashing costs ~0.27 s a password
        director = user_of("director@example.edu", "Dana", "Director", password_hash)
        desk = user_of("frontdesk@example.edu", "Finley", "Frontdesk", password_hash)
        # The person who runs the installation: every institution, the whole admin.
        site_admin = user_of(SITE_ADMIN_EMAIL, "Sam", "Siteadmin", password_hash)
        site_admin.is_staff = site_admin.is_superuser = True
        for user in (director, desk, site_admin):
            user.save()
        director.is_staff = True
        director.save(update_fields=["is_staff"])
        PlayerProfile.objects.bulk_create(
            [
                PlayerProfile(user=director, institution=institution, campus_id=""),
                PlayerProfile(user=desk, institution=institution, campus_id=""),
            ]
        )
        director.groups.add(Group.objects.get(name=roles.DIRECTORS))
        desk.groups.add(Group.objects.get(name=roles.FRONT_DESK))
        EmailAddress.objects.bulk_create(
            [
                EmailAddress(user=u, email=u.email, verified=True, primary=True)
                for u in (director, desk, site_admin)
            ]
        )
        make_students(institution, season, players, password_hash, rng, say)
        _make_equipment(institution, desk)
    if matches and leagues > 1:
        make_league(institution, season, director, 1, rng)
        bulk_leagues_of_season(institution, season, leagues - 1, matches, rng, say)
    else:
        for number in range(1, leagues + 1):
            make_league(institution, season, director, number, rng)
            say("leagues", number, leagues)
    make_open_league(institution, season, director)
    for spec in formats.registered():  # the club's nights, the events (in that order)
        if spec.demo is not None:
            spec.demo(institution, season, director, desk, rng, DEMO_PASSWORD)
    # Its games rated, as a night would (R2), and its pages rendered again to show the ratings
    # (R1); at the benchmark's sizes the harness rates it and the nightly renders.
    rate(institution)
    if not matches:
        render_pages(League.objects.filter(season=season).values_list("pk", flat=True))
    return demo_logins()


def current_term(institution) -> Season:
    """The demo's season: a month in, registration open two more weeks."""
    today = institution.today()
    return Season.objects.create(
        institution=institution,
        name="Current term",
        slug="current",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=90),
        registration_deadline=today + timedelta(days=14),
    )


def user_of(email: str, first: str, last: str, password_hash: str) -> User:
    return User(email=email, first_name=first, last_name=last, password=password_hash)


# The demo student the registrar's roster says withholds their directory information (P2): a
# number on every public page, named to their opponents and staff. A demo login.
WITHHELD_STUDENT = 2


def make_students(
    institution, season, count, password_hash, rng, say, domain: str = "example.edu"
) -> None:
    """Students 1..count, studentNNNNN@`domain`: most on the roster (eligible), a few pending,
    one ruled ineligible."""
    students_group = Group.objects.get(name=roles.STUDENTS)
    membership = User.groups.through
    names = unique_names(count, rng)
    for start in range(0, count, BATCH):
        numbers = range(start + 1, min(start + BATCH, count) + 1)
        users = User.objects.bulk_create(
            [user_of(f"student{n:05d}@{domain}", *names[n - 1], password_hash) for n in numbers]
        )
        profiles = PlayerProfile.objects.bulk_create(
            [
                PlayerProfile(
                    user=u,
                    institution=institution,
                    campus_id=f"{2000000 + n}",
                    registrar_withholds=n == WITHHELD_STUDENT,
                )
                for u, n in zip(users, numbers, strict=True)
            ]
        )
        EmailAddress.objects.bulk_create(
            [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users]
        )
        membership.objects.bulk_create(
            [membership(user_id=u.pk, group_id=students_group.pk) for u in users]
        )
        # Every seventh student is not on the roster yet (pending); student 3 was ruled ineligible.
        RosterEntry.objects.bulk_create(
            [
                RosterEntry(
                    season=season,
                    campus_id=p.campus_id,
                    first_name=p.user.first_name,
                    last_name=p.user.last_name,
                    withholds_name=n == WITHHELD_STUDENT,
                )
                for p, n in zip(profiles, numbers, strict=True)
                if n % 7 != 0
            ]
        )
        Eligibility.objects.bulk_create(
            [
                Eligibility(
                    profile=p,
                    season=season,
                    status=EligibilityStatus.INELIGIBLE if n == 3 else EligibilityStatus.ELIGIBLE,
                    source=EligibilitySource.DIRECTOR if n == 3 else EligibilitySource.ROSTER,
                    reason="Not enrolled this term (registrar)"
                    if n == 3
                    else "On the registrar's roster",
                )
                for p, n in zip(profiles, numbers, strict=True)
                if n % 7 != 0
            ]
        )
        say("students", numbers[-1], count)


def unique_names(count: int, rng: random.Random) -> list[tuple[str, str]]:
    """`count` (first, last) names, no two alike (two students of one name confuse everyone
    trying the demo): the 400 pairs of the lists in a random order, then, for a benchmark's
    thousands, double-barrelled surnames and middle initials."""
    pairs = [(first, last) for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(pairs)
    names = []
    for index in range(count):
        first, last = pairs[index % len(pairs)]
        round_ = index // len(pairs)  # 0 for the first 400
        if round_:
            last = f"{last}-{LAST_NAMES[round_ % len(LAST_NAMES)]}"
            initial = round_ // len(LAST_NAMES)
            if initial:
                first = f"{first} {chr(ord('A') + (initial - 1) % 26)}."
        names.append((first, last))
    return names


def demo_logins() -> list[DemoLogin]:
    """The accounts a visitor can try: the director, the front desk and a few students."""
    logins = [
        DemoLogin("director", "director@example.edu", DEMO_PASSWORD),
        DemoLogin("front_desk", "frontdesk@example.edu", DEMO_PASSWORD),
    ]
    if User.objects.filter(email=SITE_ADMIN_EMAIL).exists():
        logins.append(DemoLogin("site_admin", SITE_ADMIN_EMAIL, DEMO_PASSWORD))
    students = User.objects.filter(
        email__startswith="student", email__endswith="@example.edu"
    ).order_by("email")[:4]
    logins += [DemoLogin("student", user.email, DEMO_PASSWORD) for user in students]
    for spec in formats.registered():
        if spec.demo_logins is not None:
            logins += [DemoLogin(role, email, DEMO_PASSWORD) for role, email in spec.demo_logins()]
    return logins


def _make_equipment(institution, desk) -> None:
    """Boards, dictionaries and a clock at the front desk (L3), one out and one overdue."""
    items = EquipmentItem.objects.bulk_create(
        [
            EquipmentItem(institution=institution, kind="board", label=f"Board {n}")
            for n in range(1, 7)
        ]
        + [
            EquipmentItem(institution=institution, kind="dictionary", label=f"OSPD6 #{n}")
            for n in range(1, 4)
        ]
        + [EquipmentItem(institution=institution, kind="clock", label="Chess clock 1")]
    )
    students = list(
        PlayerProfile.objects.filter(institution=institution)
        .exclude(campus_id="")
        .order_by("campus_id")[:2]
    )
    now = timezone.now()
    Checkout.objects.bulk_create(
        [
            Checkout(
                item=items[0],
                profile=students[0],
                checked_out_by=desk,
                checked_out_at=now - timedelta(hours=1),
                due_at=now + timedelta(hours=2),
            ),
            Checkout(
                item=items[6],
                profile=students[1],
                checked_out_by=desk,
                checked_out_at=now - timedelta(hours=6),
                due_at=now - timedelta(hours=3),
            ),
        ]
    )

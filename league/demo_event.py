"""The demo's one-day event (E3): a Scrabble Fest tonight with 40 entrants in three categories
(students and guests), four corporate teams, a volunteer scorer, round 1 played and entered
from its cards, round 2 paired. All through the real services, as the director, the door and
the scoring table would."""

import random
from datetime import datetime, time, timedelta

from django.contrib.auth.hashers import make_password
from django.utils import timezone

from accounts.models import EligibilityStatus, PlayerProfile
from matches import services as match_services

from . import events
from .event_files import event_league_save, read_event_file
from .models import League

VOLUNTEER_EMAIL = "volunteer@example.edu"
STUDENTS = 8
# (category, how many): 40 in all; Corporate Team entrants come in four teams of three.
ENTRANTS = [("Competitive", 11), ("Just for Fun", 17), ("Corporate Team", 12)]
TEAMS = ["Kalamazoo Kilns", "Portage Paper Co.", "Riverside Robotics", "Westnedge Bakery"]
GUEST_FIRST = [
    "Alden", "Bex", "Cato", "Della", "Ezra", "Fern", "Gideon", "Hollis", "Iris", "Jasper",
    "Keira", "Linus", "Maren", "Nico", "Opal", "Pax", "Rhea", "Silas", "Tova", "Uma",
]  # fmt: skip
GUEST_LAST = [
    "Ashgrove", "Bellweather", "Copperfield", "Dovetail", "Elderberry", "Foxglove",
    "Greenbriar", "Hazelwood", "Inkwell", "Juniper",
]  # fmt: skip


def fest_settings(day) -> dict:
    """The event's settings file (the contract's create_event), as next year would export it."""
    return {
        "name": "Scrabble Fest",
        "slug": "scrabble-fest",
        "format": "event",
        "date": day.isoformat(),
        "public": True,
        "campus_only": False,
        "rounds": [
            {"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]},
            {"number": 2, "periods": [{"starts": "19:00", "minutes": 45}]},
            {"number": 3, "periods": [{"starts": "20:00", "minutes": 45}]},
        ],
        "categories": [
            {"name": "Competitive", "pairing_group": "Competitive", "turn_seconds": 150},
            {"name": "Just for Fun", "pairing_group": "Just for Fun", "turn_seconds": None},
            {"name": "Corporate Team", "pairing_group": "Just for Fun", "turn_seconds": None},
        ],
        "champion_category": "Competitive",
    }


def make_event(institution, season, director, desk, rng: random.Random, password: str) -> League:
    today = institution.today()
    league, _ = event_league_save(
        actor=director, season=season, event=read_event_file(fest_settings(today))
    )
    students = list(
        PlayerProfile.objects.filter(
            eligibilities__season=season, eligibilities__status=EligibilityStatus.ELIGIBLE
        )
        .order_by("campus_id")
        .select_related("user")[:STUDENTS]
    )
    guests = iter(rng.sample([(first, last) for first in GUEST_FIRST for last in GUEST_LAST], 40))
    people = []
    for category, count in ENTRANTS:
        for index in range(count):
            team = TEAMS[index // 3] if category == "Corporate Team" else ""
            if category == "Competitive" and students:
                student = students.pop()
                details = events.EntrantDetails(campus_id=student.campus_id, category=category)
            else:
                first, last = next(guests)
                email = f"{first}.{last}@example.edu".lower() if index % 3 == 0 else ""
                details = events.EntrantDetails(
                    name=f"{first} {last}", category=category, team=team, email=email
                )
            people.append(details)
    for details in people:
        events.entrant_save(actor=desk, league=league, details=details)
    six = timezone.make_aware(datetime.combine(today, time(17, 40)), institution.tz)
    for entry in league.entries.all():
        events.event_check_in(actor=desk, league=league, entry=entry, now=six)
    volunteer, _ = events.scorer_create(
        actor=director, league=league, name="Vic Volunteer", email=VOLUNTEER_EMAIL
    )
    volunteer.password = make_password(password)
    volunteer.save(update_fields=["password"])
    first, second = league.rounds.order_by("number")[:2]
    tables, _ = events.pair_event_round(actor=director, round=first, seed=2026, now=six)
    handed_in = six + timedelta(minutes=70)
    for table in tables:
        seats = table.seats.count()
        match_services.card_enter(
            actor=volunteer,
            match=table,
            scores=[rng.randint(250, 460) for _ in range(seats)],
            now=handed_in,
        )
    events.pair_event_round(actor=director, round=second, seed=2027, now=handed_in)
    return league

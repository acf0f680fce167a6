"""The demo's one-day event (E3): a Scrabble Fest tonight with 40 entrants in three categories
(students and guests), four corporate teams, a volunteer scorer, round 1 played and entered
from its cards, round 2 paired. All through the real services, as the director, the door and
the scoring table would."""

import random
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.utils import timezone

from accounts.models import EligibilityStatus, PlayerProfile
from events import services as events
from events.files import event_league_save, read_event_file
from events.services.assists import sale_record
from league.models import League

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


GUEST_NAMES = [(first, last) for first in GUEST_FIRST for last in GUEST_LAST]


def _to_five(moment: datetime, *, up: bool) -> datetime:
    """`moment` on the five minutes, down or up, seconds dropped."""
    moment = moment.replace(second=0, microsecond=0)
    extra = moment.minute % 5
    if not extra:
        return moment
    return moment + timedelta(minutes=5 - extra) if up else moment - timedelta(minutes=extra)


@dataclass(frozen=True)
class FestTimes:
    """The demo's Fest around the moment the demo is made, whatever the hour: round 1 played
    and its cards in before that moment, round 2 paired and starting soon after it."""

    doors: datetime
    rounds: tuple[datetime, datetime, datetime]
    handed_in: datetime

    @classmethod
    def around(cls, now: datetime) -> "FestTimes":
        first = _to_five(now - timedelta(minutes=75), up=False)  # 45 minutes, over 30 before
        second = _to_five(now + timedelta(minutes=15), up=True)
        return cls(
            doors=first - timedelta(minutes=20),
            rounds=(first, second, second + timedelta(minutes=60)),
            handed_in=first + timedelta(minutes=50),
        )


def fest_settings(times: FestTimes) -> dict:
    """The event's settings file (the contract's create_event), as next year would export it:
    its day is round 1's, and a round after midnight falls on the next (events.files.round_days)."""
    return {
        "name": "Scrabble Fest",
        "slug": "scrabble-fest",
        "format": "event",
        "date": times.rounds[0].date().isoformat(),
        "public": True,
        "campus_only": False,
        "rounds": [
            {"number": number, "periods": [{"starts": f"{starts:%H:%M}", "minutes": 45}]}
            for number, starts in enumerate(times.rounds, start=1)
        ],
        "categories": [
            {"name": "Competitive", "pairing_group": "Competitive", "turn_seconds": 150},
            {"name": "Just for Fun", "pairing_group": "Just for Fun", "turn_seconds": None},
            {"name": "Corporate Team", "pairing_group": "Just for Fun", "turn_seconds": None},
        ],
        "champion_category": "Competitive",
    }


def make_event(
    institution, season, director, desk, rng: random.Random, password: str, now=None
) -> League:
    times = FestTimes.around(timezone.localtime(now or timezone.now(), institution.tz))
    league, _ = event_league_save(
        actor=director, season=season, event=read_event_file(fest_settings(times))
    )
    students = list(
        PlayerProfile.objects.filter(
            eligibilities__season=season, eligibilities__status=EligibilityStatus.ELIGIBLE
        )
        .order_by("campus_id")
        .select_related("user")[:STUDENTS]
    )
    guests = iter(rng.sample(GUEST_NAMES, 40))
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
        events.entrant_save(actor=desk, league=league, details=details, refresh=False)
    # One student at the Fest chose on their profile to withhold their name (P2).
    first_student = league.entries.filter(player__user__isnull=False).order_by("player_number")
    PlayerProfile.objects.filter(pk__in=first_student.values("player_id")[:1]).update(
        withholds_name=True
    )
    six = times.doors
    for entry in league.entries.all():
        events.event_check_in(actor=desk, league=league, entry=entry, now=six)
    # Invited as a director would (an account of the institution, a log-in link mailed, which
    # the demo never sends); the demo's volunteer also logs in at once with the printed login.
    volunteer = events.scorer_invite(
        actor=director, league=league, name="Vic Volunteer", email=VOLUNTEER_EMAIL, now=six
    ).user
    volunteer.password = make_password(password)
    volunteer.save(update_fields=["password"])
    EmailAddress.objects.filter(user=volunteer).update(verified=True)
    first, second = league.rounds.order_by("number")[:2]
    tables = events.pair_event_round(actor=director, round=first, seed=2026, now=six).tables
    handed_in = times.handed_in
    for table in tables:
        seats = table.seats.count()
        events.card_enter(
            actor=volunteer,
            match=table,
            scores=[rng.randint(250, 460) for _ in range(seats)],
            now=handed_in,
        )
    events.pair_event_round(actor=director, round=second, seed=2027, now=handed_in)
    return league


COMPANIES = [
    "Acorn Insurance", "Birchwood Bank", "Cobalt Logistics", "Driftwood Design",
    "Elmstreet Energy", "Fernhill Foods", "Granite Telecom", "Harbor Health",
    "Ironbark Software", "Juniper Legal", "Keystone Media", "Lakeside Labs",
]  # fmt: skip


@dataclass(frozen=True)
class ChallengeTimes:
    """The demo's challenge around the moment the demo is made: round 1's two periods played,
    assists sold in both, the sheets in before that moment; round 2 starting soon after."""

    doors: datetime
    periods: tuple[datetime, datetime]  # round 1's, 30 minutes each
    second_round: datetime
    handed_in: datetime

    @classmethod
    def around(cls, now: datetime) -> "ChallengeTimes":
        first = _to_five(now - timedelta(minutes=105), up=False)
        later = first + timedelta(minutes=40)
        if later.date() != first.date():  # a round's periods fall on one day: both before 0:00
            later = datetime.combine(first.date(), time(23, 15), tzinfo=first.tzinfo)
            first = later - timedelta(minutes=40)
        return cls(
            doors=first - timedelta(minutes=20),
            periods=(first, later),
            second_round=_to_five(now + timedelta(minutes=20), up=True),
            handed_in=later + timedelta(minutes=35),
        )


def challenge_settings(day, times: ChallengeTimes | None = None) -> dict:
    """A charity's corporate challenge (004, E5): teams of four at four-seat tables, one game in
    two periods of 30 minutes, 3-minute turns, the out-bonus ending, assists that cost more
    from the second period on. Without `times`, an evening from 6:30 PM on `day`."""
    starts = (
        (f"{times.periods[0]:%H:%M}", f"{times.periods[1]:%H:%M}", f"{times.second_round:%H:%M}")
        if times
        else ("18:30", "19:30", "20:30")
    )
    return {
        "name": "Corporate Scrabble Challenge",
        "slug": "corporate-challenge",
        "format": "event",
        "date": (times.periods[0].date() if times else day).isoformat(),
        "public": True,
        "campus_only": False,
        "seats_per_table": 4,
        "team_size": 4,
        "short_team": "average_fill",
        "end_of_game_rule": "out_bonus",
        "lexicon": "OSPD6",
        # The scorekeeper enters the table's sheet from a phone, the others confirm (S1).
        "self_entry": True,
        "rounds": [
            {
                "number": 1,
                "periods": [
                    {"starts": starts[0], "minutes": 30},
                    {"starts": starts[1], "minutes": 30},
                ],
            },
            {"number": 2, "periods": [{"starts": starts[2], "minutes": 45}]},
        ],
        "categories": [{"name": "Corporate", "pairing_group": "Corporate", "turn_seconds": 180}],
        "assists": [
            {"name": "Q/Z/X word list", "first_cents": 500, "later_cents": 1000},
            {"name": "Ringer", "first_cents": 1000, "later_cents": 2000},
            {"name": "Power Play", "first_cents": 2000, "later_cents": 4000},
            {"name": "Instant Replay", "first_cents": 500, "later_cents": 1000},
        ],
    }


def make_challenge(institution, season, director, desk, rng: random.Random, now=None) -> League:
    """Twelve teams of four (one of three) checked in, round 1 seated and its score sheets'
    totals entered, assists sold in both price tiers."""
    times = ChallengeTimes.around(timezone.localtime(now or timezone.now(), institution.tz))
    league, _ = event_league_save(
        actor=director,
        season=season,
        event=read_event_file(challenge_settings(None, times)),
    )
    names = iter(rng.sample(GUEST_NAMES, 47))
    for index, company in enumerate(COMPANIES):
        for _ in range(3 if index == len(COMPANIES) - 1 else 4):
            first, last = next(names)
            events.entrant_save(
                actor=desk,
                league=league,
                details=events.EntrantDetails(name=f"{first} {last}", team=company),
                refresh=False,  # pairing refreshes the pages
            )
    doors = times.doors
    for entry in league.entries.all():
        events.event_check_in(actor=desk, league=league, entry=entry, now=doors)
    first_round = league.rounds.get(number=1)
    tables = events.pair_event_round(actor=director, round=first_round, seed=4, now=doors).tables
    items = list(league.assist_items.all())
    entries = list(league.entries.all())
    for period, sales in ((times.periods[0], 14), (times.periods[1], 10)):  # both price tiers
        moment = period + timedelta(minutes=12)
        for _ in range(sales):
            sale_record(
                actor=desk,
                league=league,
                entry=rng.choice(entries),
                item=rng.choice(items),
                quantity=rng.choice([1, 1, 1, 2]),
                round=first_round,
                now=moment,
            )
    handed_in = times.handed_in
    for table in tables:
        events.card_enter(
            actor=desk,
            match=table,
            scores=[rng.randint(180, 420) for _ in range(table.seats.count())],
            ended_by="time_up",
            now=handed_in,
        )
    return league

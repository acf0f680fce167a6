"""Made-up people and places on the reserved example.edu / example.org domains, and the
scenarios tests start from (a reported match, a confirmed game, an open dispute, entrants)."""

from datetime import timedelta

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts import roles
from accounts.models import Institution, PlayerProfile, RosterEntry, Season, User
from accounts.services import eligibility_rule
from league.models import Entry
from matches import services

PASSWORD = "correct-horse-battery"


class InstitutionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Institution
        django_get_or_create = ["slug"]

    name = factory.Sequence(lambda n: f"Example College {n}")
    slug = factory.Sequence(lambda n: f"example-{n}")
    email_domains = factory.LazyAttribute(lambda o: f"{o.slug}.example.edu")
    campus_id_pattern = r"\d{7}"
    campus_id_hint = "seven digits"
    timezone = "America/Chicago"
    default_venue = "Student Union, Games Room"
    front_desk_location = "the Recreation Center front desk"


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    institution = factory.SubFactory(InstitutionFactory)
    name = "Fall term"
    slug = factory.Sequence(lambda n: f"term-{n}")
    starts_on = factory.LazyFunction(lambda: timezone.now().date() - timedelta(days=10))
    ends_on = factory.LazyFunction(lambda: timezone.now().date() + timedelta(days=80))
    registration_deadline = factory.LazyFunction(lambda: timezone.now().date() + timedelta(days=5))


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    first_name = factory.Sequence(lambda n: f"Avery{n}")
    last_name = "Quillfeather"
    email = factory.Sequence(lambda n: f"person{n}@example.edu")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def verified(user, create, extracted, **kwargs):
        if create and extracted is not False:
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


class ProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerProfile
        skip_postgeneration_save = True

    institution = factory.SubFactory(InstitutionFactory)
    user = factory.SubFactory(
        UserFactory,
        email=factory.LazyAttributeSequence(
            lambda o, n: f"student{n}@{o.factory_parent.institution.domains[0]}"
        ),
    )
    campus_id = factory.Sequence(lambda n: f"{1000000 + n}")

    @factory.post_generation
    def student_role(profile, create, extracted, **kwargs):
        """Whoever has a campus ID signed up as a student (staff fixtures pass campus_id="")."""
        if create and profile.campus_id:
            profile.user.groups.add(Group.objects.get_or_create(name=roles.STUDENTS)[0])


def with_role(profile: PlayerProfile, group_name: str) -> PlayerProfile:
    profile.user.groups.add(Group.objects.get_or_create(name=group_name)[0])
    if group_name == roles.DIRECTORS:
        profile.user.is_staff = True
        profile.user.save(update_fields=["is_staff"])
    return profile


def staff_member(institution: Institution, group_name: str) -> PlayerProfile:
    """Someone working for the institution in `group_name`: no campus ID, so no student role."""
    return with_role(ProfileFactory(institution=institution, campus_id=""), group_name)


def roster_entry(season: Season, campus_id: str) -> RosterEntry:
    return RosterEntry.objects.create(season=season, campus_id=campus_id)


# --- Leagues and matches -------------------------------------------------------------------------


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "league.League"

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Tuesday League {n}")
    slug = factory.Sequence(lambda n: f"tuesday-{n}")
    venue = "Student Union, Games Room"


def eligible(profile: PlayerProfile, season: Season) -> PlayerProfile:
    from accounts.models import Eligibility

    Eligibility.objects.update_or_create(
        profile=profile, season=season, defaults={"status": "eligible", "source": "roster"}
    )
    return profile


def match_between(
    league, first: PlayerProfile, second: PlayerProfile, *, play_by=None, number=None
):
    """A two-player match in its own round, due `play_by` (default: in a week)."""
    return table_of(league, [first, second], play_by=play_by, number=number)


def table_of(league, players, *, play_by=None, number=None, scorekeeper: int = 1):
    """A match of these players in seat order (two to four, G9) in its own round, due
    `play_by` (default: in a week)."""
    from league.models import Round
    from matches.services import NewMatch, matches_create

    play_by = play_by or (timezone.now().date() + timedelta(days=7))
    number = number or (league.rounds.count() + 1)
    round_ = Round.objects.create(league=league, number=number, play_by=play_by)
    new = NewMatch(round=round_, players=[player.pk for player in players], scorekeeper=scorekeeper)
    return matches_create(actor=None, new=[new])[0]


def round_of(league, count: int, *, play_by=None, number=None):
    """A round of `count` two-player matches between new eligible students, due `play_by`
    (default: in a week); returns (the round, its matches in id order)."""
    from league.models import Round
    from matches.services import NewMatch, matches_create

    play_by = play_by or (timezone.now().date() + timedelta(days=7))
    number = number or (league.rounds.count() + 1)
    round_ = Round.objects.create(league=league, number=number, play_by=play_by)
    new = [
        NewMatch(
            round=round_,
            players=[eligible_student(league.season).pk, eligible_student(league.season).pk],
        )
        for _ in range(count)
    ]
    return round_, matches_create(actor=None, new=new)


# --- Scenarios -----------------------------------------------------------------------------------
# What a test starts from. Rulings, reports, confirmations and disputes go through the real
# services, as the director or a player would, so a test's setup keeps exercising the code it
# depends on. Scores are in seat order (seat 1's first) unless a name says otherwise.


def eligible_student(season: Season, *, first_name=None, last_name=None) -> PlayerProfile:
    """A student of the season's institution, eligible for it."""
    names = {"user__first_name": first_name, "user__last_name": last_name}
    profile = ProfileFactory(
        institution=season.institution, **{key: value for key, value in names.items() if value}
    )
    return eligible(profile, season)


def ruled_ineligible(profile: PlayerProfile, season: Season, *, director, reason="Suspended"):
    """The director's ruling (L10), which outranks ID checks and the roster."""
    eligibility_rule(
        actor=director.user, profile=profile, season=season, status="ineligible", reason=reason
    )
    return profile


def entrant(league, *, first_name=None, last_name=None) -> PlayerProfile:
    """An eligible student entered in `league`."""
    profile = eligible_student(league.season, first_name=first_name, last_name=last_name)
    Entry.objects.create(league=league, player=profile)
    return profile


def new_match(league, **when):
    """A match between two new eligible students; `when` (play_by, number) as in match_between."""
    first, second = eligible_student(league.season), eligible_student(league.season)
    return match_between(league, first, second, **when)


def submitted_report(match, *, by: PlayerProfile, scores=(420, 380), **details):
    """`by` reports the result, every seat's score in seat order; it waits for the other
    seats' confirmation (L6, L7, G9)."""
    return services.report_submit(actor=by.user, match=match, scores=list(scores), **details)


def confirmed_game(match, *, winner: PlayerProfile, loser: PlayerProfile, scores=(400, 350)):
    """`winner` reports `scores` (theirs first, whichever seat they sit in), `loser` confirms.
    For a tie either player may stand as the winner."""
    winner_sits_first = match.seats.get(order=1).player_id == winner.pk
    by_seat = scores if winner_sits_first else (scores[1], scores[0])
    report = submitted_report(match, by=winner, scores=by_seat)
    services.report_confirm(actor=loser.user, report=report)
    report.refresh_from_db()
    return report


def open_dispute(
    match,
    *,
    reported=(420, 380),
    disputed=(400, 410),
    note="Turn 12 was scored 32, not 12.",
    **details,
):
    """Seat 1 reports `reported`, seat 2 disputes it with `disputed` (L9); `details` (turn,
    move, the scores at the turn) go with the dispute."""
    first, second = (seat.player for seat in match.seats.order_by("order"))
    report = submitted_report(match, by=first, scores=[reported[0], reported[1]])
    return services.report_dispute(
        actor=second.user,
        report=report,
        scores=[disputed[0], disputed[1]],
        note=note,
        **details,
    )

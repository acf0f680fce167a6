"""Made-up people and places on the reserved example.edu / example.org domains."""

from datetime import timedelta

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts import roles
from accounts.models import Institution, PlayerProfile, RosterEntry, Season, User

PASSWORD = "correct-horse-battery"


class InstitutionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Institution
        django_get_or_create = ["slug"]

    name = factory.Sequence(lambda n: f"Example College {n}")
    slug = factory.Sequence(lambda n: f"example-{n}")
    email_domains = factory.LazyAttribute(lambda o: f"{o.slug}.example.edu")
    campus_id_label = "Student ID"
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
    from league.models import Round
    from matches.services import match_create

    play_by = play_by or (timezone.now().date() + timedelta(days=7))
    number = number or (league.rounds.count() + 1)
    round_ = Round.objects.create(league=league, number=number, play_by=play_by)
    return match_create(actor=None, round=round_, players=[first.pk, second.pk])

"""How players are named in public (P1) and a withheld name (P2): the institution's setting, a
league's stricter one, the student's own choice and the registrar's roster column, on the
stored pages and their JSON."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts import privacy
from accounts.services import name_withhold, roster_import
from league.pages import render_pages
from tests.support import LeagueFactory, confirmed_game, entrant, match_between


@pytest.fixture
def league(db):
    return LeagueFactory()


@pytest.fixture
def ada(league):
    return entrant(league, first_name="Ada", last_name="Quill")


@pytest.fixture
def bo(league):
    return entrant(league, first_name="Bo", last_name="Vance")


@pytest.fixture
def played(league, ada, bo, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
    return league


def _standings(client, league) -> str:
    return client.get(reverse("league_standings", args=[league])).content.decode()


def _json_players(league) -> list[str]:
    body = Client().get(reverse("league_standings_json", args=[league])).content
    return [row["player"] for row in json.loads(body)["standings"]]


def _member(profile) -> Client:
    client = Client()
    client.force_login(profile.user)
    return client


def test_anonymous_numbers_are_distinct_and_start_at_four_digits():
    numbers = [privacy.anonymous_number(pk) for pk in range(1, 20001)]
    assert len(set(numbers)) == len(numbers)
    assert min(numbers) == 1000 and all(n >= 1000 for n in numbers)
    assert all(privacy.profile_id_of(n) == pk for pk, n in enumerate(numbers, start=1))


def test_p2_staff_find_whose_number_it_is_in_the_admin(client, ada):
    from tests.support import staff_member

    client.force_login(staff_member(ada.institution, "Directors").user)
    url = reverse("admin:accounts_playerprofile_changelist")
    page = client.get(url, {"q": privacy.anonymous_name(ada.pk)}).content.decode()
    assert "Ada Quill" in page and "1 result" in page


def test_p1_the_names_a_style_shows():
    assert privacy.shown_name(7, "Ada Quill", style="full", withheld=False) == "Ada Quill"
    assert privacy.shown_name(7, "Ada Quill", style="short", withheld=False) == "Ada Q."
    number = privacy.anonymous_name(7)
    assert privacy.shown_name(7, "Ada Quill", style="number", withheld=False) == number
    assert privacy.shown_name(7, "Ada Quill", style="full", withheld=True) == number
    assert privacy.shown_name(7, "ada@example.edu", style="full", withheld=False) == number
    assert privacy.shown_name(7, "Ada Quill", style="full", withheld=False, erased=True) == (
        privacy.former_name(7)
    )


def test_p1_first_name_and_last_initial_in_public_full_names_to_members(played, ada, bo):
    institution = played.season.institution
    institution.public_names = "short"
    institution.save()
    render_pages([played.pk])

    public = _standings(Client(), played)
    assert "Ada Q." in public and "Ada Quill" not in public
    assert _json_players(played) == ["Ada Q.", "Bo V."]
    assert "Ada Quill" in _standings(_member(bo), played)


def test_p1_a_league_can_be_stricter_than_its_institution_not_looser(played, ada):
    played.public_names = "number"
    played.save()
    render_pages([played.pk])
    assert _json_players(played)[0] == privacy.anonymous_name(ada.pk)

    institution = played.season.institution
    institution.public_names = "number"
    institution.save()
    played.public_names = "full"
    played.save()
    render_pages([played.pk])
    assert _json_players(played)[0] == privacy.anonymous_name(ada.pk)


def test_p2_a_student_who_withholds_their_name_is_a_number_to_classmates_and_strangers(
    played, ada, bo, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        name_withhold(actor=ada.user, profile=ada, withhold=True)

    number = privacy.anonymous_name(ada.pk)
    assert _json_players(played) == [number, "Bo Vance"]
    classmate = entrant(LeagueFactory(season=played.season))
    for reader in (Client(), _member(classmate), _member(bo)):
        page = _standings(reader, played)
        assert number in page and "Ada Quill" not in page
    match = played.rounds.get().matches.get()
    assert "Ada Quill" in _member(bo).get(match.get_absolute_url()).content.decode()


def test_p2_the_profile_page_withholds_and_shows_the_name_again(client, ada):
    client.force_login(ada.user)
    client.post(reverse("profile_privacy"), {"withhold": "1"})
    ada.refresh_from_db()
    assert ada.withholds_name
    page = client.get(reverse("profile")).content.decode()
    assert privacy.anonymous_name(ada.pk) in page

    client.post(reverse("profile_privacy"), {})
    ada.refresh_from_db()
    assert not ada.withholds_name


def test_p2_a_student_cannot_withhold_someone_elses_name(ada, bo):
    from core.errors import NotAllowed

    with pytest.raises(NotAllowed):
        name_withhold(actor=bo.user, profile=ada, withhold=True)
    ada.refresh_from_db()
    assert not ada.withholds_name


def test_p2_the_registrars_roster_column_withholds_and_releases(
    played, ada, bo, django_capture_on_commit_callbacks
):
    from accounts.models import RosterEntry
    from tests.support import staff_member

    director = staff_member(played.season.institution, "Directors")
    csv = f"campus_id,withhold\n{ada.campus_id},yes\n{bo.campus_id},\n".encode()
    with django_capture_on_commit_callbacks(execute=True):
        result = roster_import(actor=director.user, season=played.season, data=csv)
    assert result.names_withheld == 1
    assert "1 registered students' names are withheld" in result.summary()
    ada.refresh_from_db()
    assert ada.registrar_withholds and ada.withheld
    assert RosterEntry.objects.get(campus_id=ada.campus_id).withholds_name
    assert _json_players(played)[0] == privacy.anonymous_name(ada.pk)

    csv = f"campus_id,ferpa_hold\n{ada.campus_id},no\n".encode()
    with django_capture_on_commit_callbacks(execute=True):
        roster_import(actor=director.user, season=played.season, data=csv)
    ada.refresh_from_db()
    assert not ada.registrar_withholds
    assert _json_players(played)[0] == "Ada Quill"


def test_p2_a_roster_row_with_a_withhold_value_that_is_not_yes_or_no_is_refused_by_line(
    league, ada
):
    from tests.support import staff_member

    director = staff_member(league.season.institution, "Directors")
    csv = f"campus_id,withhold\n{ada.campus_id},maybe\n".encode()
    result = roster_import(actor=director.user, season=league.season, data=csv)
    assert result.rejected == [(2, "withhold 'maybe' is not yes or no (empty means no)")]
    ada.refresh_from_db()
    assert not ada.registrar_withholds


def test_p2_every_calendar_feed_names_a_withheld_student_by_number(league, ada, bo):
    """A feed is read by whoever holds its link: the opponent's own feed, her own feed and the
    league's feed all name her as Player N, as the JSON feeds do."""
    match = match_between(league, ada, bo)
    match.scheduled_at = match.deadline - timedelta(days=2)
    match.save(update_fields=["scheduled_at"])
    name_withhold(actor=ada.user, profile=ada, withhold=True)
    ada.refresh_from_db()
    number = privacy.anonymous_name(ada.pk)

    feeds = {
        "hers": reverse("player_calendar", args=[ada.calendar_token]),
        "his": reverse("player_calendar", args=[bo.calendar_token]),
        "league": reverse("league_calendar", args=[league]),
    }
    for whose, url in feeds.items():
        body = Client().get(url).content.decode()
        assert "Ada" not in body and "Quill" not in body, whose
        assert number in body, whose
    assert f"SUMMARY:Scrabble: {number} v Bo Vance" in Client().get(feeds["his"]).content.decode()

"""Each campus its own addresses (issue 50): two campuses with a league and an event of the same
slug run side by side. Every page, feed, command and printable reaches its own; old addresses
redirect, method kept, to the league pinned to them; no refusal speaks of another campus."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone

from accounts import roles
from accounts.models import Institution
from events.models import TableCard
from league.addresses import LeagueAddress
from league.models import CheckIn, Entry, League, LeagueFormat, OldLeagueAddress, Round
from league.services import league_join
from matches.models import Match, Seat
from tests.support import (
    FEST,
    LeagueFactory,
    SeasonFactory,
    create_event,
    eligible_student,
    refused,
    run,
    staff_member,
    write,
)


@pytest.fixture
def two_campuses(institution, other_institution, tmp_path):
    """A `fall-league` and a `fest` on each campus, each league with one player of its own."""
    world = {}
    for campus in (institution, other_institution):
        season = SeasonFactory(institution=campus, name="Fall", slug="fall")
        league = LeagueFactory(
            season=season, name=f"Fall League of {campus.slug}", slug="fall-league"
        )
        student = eligible_student(season)
        league_join(actor=student.user, league=league, today=season.starts_on)
        create_event(
            season,
            tmp_path,
            {**FEST, "name": f"Fest of {campus.slug}", "date": campus.today().isoformat()},
            f"{campus.slug}.json",
        )
        fest = League.objects.select_related("season__institution").get(campus=campus, slug="fest")
        run(
            "import_entrants",
            write(tmp_path, f"{campus.slug}.csv", "name\nAl\nBo\n"),
            "--league",
            f"{campus.slug}/fest",
        )
        run("pair_round", "--league", f"{campus.slug}/fest", "--all-entrants")
        world[campus.slug] = {"league": league, "fest": fest, "student": student}
    return world


def test_a_slug_is_unique_within_its_campus_only(two_campuses, institution):
    mine = two_campuses[institution.slug]["league"]
    assert League.objects.filter(slug="fall-league").count() == 2
    with pytest.raises(IntegrityError):  # the database's own constraint: same campus, same slug
        LeagueFactory(season=mine.season, slug="fall-league")


def test_every_public_page_and_feed_reaches_its_own_campus(client, two_campuses):
    for campus, things in two_campuses.items():
        league, fest = things["league"], things["fest"]
        assert reverse("league_detail", args=[league]) == f"/{campus}/leagues/fall-league/"
        assert league.name in client.get(reverse("league_detail", args=[league])).content.decode()
        standings = client.get(reverse("league_standings_json", args=[league])).json()
        assert standings["institution"] == campus and standings["league"] == "fall-league"
        assert [row["player"] for row in standings["standings"]] == [
            things["student"].user.get_full_name()
        ]
        bracket = client.get(reverse("league_bracket_json", args=[league])).json()
        assert bracket["institution"] == campus
        event = client.get(reverse("event_json", args=[fest])).json()
        assert event["institution"] == campus and event["league"] == "fest"
        assert (
            f"Fest of {campus}"
            in client.get(reverse("league_detail", args=[fest])).content.decode()
        )
        for name, extra in (
            ("event_leaderboard", []),
            ("event_projector", []),
            ("event_round", [1]),
            ("event_table", [1, 1]),
            ("league_calendar", []),
            ("league_standings", []),
            ("two_letter_words", []),
        ):
            target = fest if name.startswith("event") else league
            assert client.get(reverse(name, args=[target, *extra])).status_code == 200, name


def test_a_campus_lists_its_own_public_leagues(client, two_campuses, institution):
    page = client.get(f"/{institution.slug}/leagues/").content.decode()
    assert f"Fall League of {institution.slug}" in page and f"Fest of {institution.slug}" in page
    assert "Fall League of elsewhere" not in page and "Fest of elsewhere" not in page
    assert client.get("/no-such-campus/leagues/").status_code == 404


def test_staff_reach_their_own_campus_event_and_never_the_other(client, two_campuses, institution):
    desk = staff_member(institution, roles.FRONT_DESK)
    client.force_login(desk.user)
    mine, theirs = two_campuses["example-state"]["fest"], two_campuses["elsewhere"]["fest"]
    assert client.get(reverse("event_desk", args=[mine])).status_code == 200
    assert client.get(reverse("event_scores", args=[mine, 1])).status_code == 200
    assert client.get(reverse("event_print", args=[mine, 1, "cards"])).status_code == 200
    for name, extra in (("event_desk", []), ("event_scores", [1]), ("event_print", [1, "cards"])):
        assert client.get(reverse(name, args=[theirs, *extra])).status_code == 404, name
    # Posting to the other campus's door changes nothing there.
    client.post(reverse("event_walk_in", args=[theirs]), {"name": "Intruder"})
    assert not theirs.entries.filter(player__user__first_name="Intruder").exists()


def test_director_pages_read_the_slug_within_the_directors_campus(
    client, two_campuses, director, other_director
):
    for person, campus in ((director, "example-state"), (other_director, "elsewhere")):
        client.force_login(person.user)
        page = client.get(reverse("director_league", args=["fall-league"])).content.decode()
        assert f"Fall League of {campus}" in page
        csv = client.get(reverse("export_standings", args=["fall-league"])).content.decode()
        assert two_campuses[campus]["student"].user.first_name in csv
        other = "elsewhere" if campus == "example-state" else "example-state"
        assert two_campuses[other]["student"].user.first_name not in csv


def test_a_command_takes_campus_slash_slug_and_a_bare_slug_only_where_one_campus_has_it(
    two_campuses, tmp_path
):
    error = refused("pair_round", "--league", "fest")
    assert "2 campuses (elsewhere, example-state)" in str(error) and "elsewhere/fest" in str(error)
    run("import_entrants", write(tmp_path, "more.csv", "name\nCy\n"), "--league", "elsewhere/fest")
    assert two_campuses["elsewhere"]["fest"].entries.count() == 3
    assert two_campuses["example-state"]["fest"].entries.count() == 2
    assert "No league 'fest' at 'nowhere'" in str(refused("pair_round", "--league", "nowhere/fest"))
    exported = json.loads(
        run("create_event", "--export", "elsewhere/fest", "--slug", "fest-2027")[0]
    )
    assert exported["name"] == "Fest of elsewhere" and "institution" not in exported


def test_the_same_slug_on_another_campus_is_no_refusal_and_a_refusal_names_no_other_campus(
    client, institution, other_director, director, tmp_path
):
    """Before campus addresses, B's director uploading A's slug read about A's league."""
    mine = SeasonFactory(institution=institution, slug="fall")
    theirs = SeasonFactory(institution=other_director.institution, slug="fall")
    day = {"date": institution.today().isoformat()}
    create_event(mine, tmp_path, {**FEST, **day, "slug": "b-fest"})
    # The other campus takes the same slug from the web, no refusal.
    client.force_login(other_director.user)
    upload = write(tmp_path, "b.json", json.dumps({**FEST, **day, "slug": "b-fest"}))
    with open(upload, "rb") as file:
        response = client.post("/director/events/new/", {"season": theirs.pk, "file": file})
    assert response.status_code == 302
    assert League.objects.filter(slug="b-fest").count() == 2
    # Uploading it again is refused in the campus's own words, with the page's way to change it.
    with open(upload, "rb") as file:
        page = client.post("/director/events/new/", {"season": theirs.pk, "file": file})
    text = page.content.decode()
    assert "Your campus already has a league" in text and "Change the existing" in text
    assert "--update" not in text and institution.name not in text
    # The command says its own flag.
    error = refused("create_event", upload, "--institution", "elsewhere", "--season", "fall")
    assert "--update" in str(error)


def test_old_addresses_redirect_with_their_method_to_the_pinned_league(client, two_campuses):
    """Printed QR codes, subscribed calendars and forms posted from an old page keep working."""
    pinned = two_campuses["example-state"]["fest"]
    OldLeagueAddress.objects.create(slug="fest", league=pinned)
    answer = client.get("/leagues/fest/rounds/1/tables/1/?from=qr")
    assert answer.status_code == 308
    assert answer["Location"] == "/example-state/leagues/fest/rounds/1/tables/1/?from=qr"
    posted = client.post("/leagues/fest/rounds/1/tables/1/card/", {"score_1": "400"})
    assert posted.status_code == 308
    assert posted["Location"] == "/example-state/leagues/fest/rounds/1/tables/1/card/"
    assert client.get("/leagues/fest/").status_code == 308
    # A league of the same slug elsewhere, or made later, never takes the address over.
    assert client.get("/leagues/fall-league/").status_code == 404


def test_a_campus_slug_is_never_a_word_the_sites_addresses_use(institution):
    for word in ("admin", "leagues", "director", "accounts", "slip", "static"):
        campus = Institution(name="X", slug=word, email_domains="x.example.edu")
        with pytest.raises(ValidationError) as caught:
            campus.full_clean()
        assert "site's own addresses" in str(caught.value)


def test_a_league_address_is_never_built_from_a_bare_slug():
    """The converter writes an address from a league (or the address a view was given) only."""
    from django.urls import NoReverseMatch

    with pytest.raises(NoReverseMatch):
        reverse("league_detail", args=["fall-league"])
    assert reverse("league_detail", args=[LeagueAddress("a", "b")]) == "/a/leagues/b/"


def league_routes():
    """Every URL pattern below a league's address, by name: (name, its other arguments)."""
    found = {}

    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
            elif "address" in pattern.pattern.converters:
                found[pattern.name] = [
                    name for name in pattern.pattern.converters if name != "address"
                ]

    walk(get_resolver().url_patterns)
    return found


ARGUMENTS = {"number": 1, "table": 1, "kind": "cards"}


def test_no_persona_of_one_campus_reads_or_writes_anything_of_the_other(
    client, two_campuses, institution, other_institution, director, staff, tmp_path
):
    """The permission walk: every route below a league's address, GET and POST, as each persona
    of one campus (director, front desk, student, a volunteer, nobody signed in), aimed at the
    other campus's private league, event and club of the same slugs: never a page, never a
    change."""
    theirs = two_campuses[other_institution.slug]
    club = LeagueFactory(season=theirs["league"].season, format=LeagueFormat.CLUB, slug="club")
    LeagueFactory(
        season=two_campuses[institution.slug]["league"].season,
        format=LeagueFormat.CLUB,
        slug="club",
    )
    night = Round.objects.create(league=club, number=1, play_by=other_institution.today())
    table = Match.objects.create(league=club, round=night, deadline=timezone.now())
    League.objects.filter(campus=other_institution).update(public=False)
    targets = {"event": theirs["fest"], "club": club, "league": theirs["league"]}
    personas = {
        "director": director.user,
        "front desk": staff.user,
        "student": two_campuses[institution.slug]["student"].user,
        "nobody": None,
    }

    def their_rows():
        return (
            [
                model.objects.filter(league__campus=other_institution).count()
                for model in (Entry, Match, Round)
            ]
            + [Seat.objects.filter(match__league__campus=other_institution).count()]
            + [TableCard.objects.count(), CheckIn.objects.count()]
        )

    before = their_rows()
    read = []
    for persona, user in personas.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for name, others in league_routes().items():
            kind = (
                "event"
                if name.startswith("event_")
                else "club"
                if name.startswith("club_")
                else "league"
            )
            extra = [table.pk if other == "match_id" else ARGUMENTS[other] for other in others]
            url = reverse(name, args=[targets[kind], *extra])
            for method in (client.get, client.post):
                answer = method(url, follow=True)
                final = answer.redirect_chain[-1][0] if answer.redirect_chain else url
                if answer.status_code == 200 and not final.startswith("/accounts/login/"):
                    read.append((persona, method.__name__, url, final))
    assert read == []
    assert their_rows() == before

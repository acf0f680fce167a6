"""`seed_demo` (public contract): a demo institution on example.edu, one line per login."""

import re

from django.test import Client
from django.urls import reverse

from accounts import privacy
from accounts.models import Institution, PlayerProfile
from league.models import Entry, League
from matches.models import Seat
from tests.support import poppler, run


def test_seed_demo_prints_one_line_per_login_role_email_password(demo, db):
    lines = demo

    assert lines[0].split()[:2] == ["director", "director@example.edu"]
    assert lines[1].split()[:2] == ["front_desk", "frontdesk@example.edu"]
    assert all(re.fullmatch(r"\w+ \S+@example\.edu \S+", line) for line in lines)
    assert sum(line.startswith("student ") for line in lines) >= 3


def test_every_printed_login_works(demo, db):
    for line in demo:
        role, email, password = line.split()
        assert Client().login(email=email, password=password), line


def test_running_it_again_reuses_what_is_there(demo, db):
    again = run("seed_demo")[0].splitlines()
    assert again == demo
    assert Institution.objects.count() == 1


def test_the_demo_league_has_matches_in_every_state_of_their_life(demo, db):
    from matches.models import ContactIssue, Match

    statuses = set(Match.objects.values_list("status", flat=True))
    assert {
        "unscheduled",
        "scheduled",
        "reported",
        "disputed",
        "confirmed",
        "resolved",
        "forfeit",
        "double_forfeit",
    } <= statuses
    assert ContactIssue.objects.filter(resolved_at__isnull=True).exists()


def test_e4_the_demo_club_has_three_past_nights_in_every_state_and_one_tonight(demo, db):
    from league.models import League
    from matches.models import Match

    club = League.objects.get(format="club")
    nights = list(club.rounds.order_by("number"))
    assert len(nights) == 4 and nights[-1].play_by == club.season.institution.today()
    sizes = {table.seats.count() for table in Match.objects.filter(league=club)}
    assert sizes == {3, 4}
    past = set(
        Match.objects.filter(league=club, round__in=nights[:3]).values_list("status", flat=True)
    )
    assert {"confirmed", "resolved", "double_forfeit"} <= past
    tonight = set(Match.objects.filter(round=nights[3]).values_list("status", flat=True))
    assert tonight == {"reported", "scheduled"}
    assert club.standings.filter(games__gt=0).exists()


def test_e4_the_demo_club_meets_on_the_weekday_it_is_named_for(demo, db):
    """Tonight is one of its nights, so the club meets on the weekday the demo was loaded and
    is named for it: every night falls on that weekday."""
    club = League.objects.get(format="club")
    weekdays = {night.play_by.strftime("%A") for night in club.rounds.all()}

    assert len(weekdays) == 1
    (weekday,) = weekdays
    assert club.name == f"{weekday} Scrabble Club" and club.slug == "scrabble-club"


def test_e3_the_demo_event_has_forty_entrants_round_one_entered_and_round_two_paired(demo, db):
    from events import selectors as event_selectors
    from events.models import Team
    from league.models import League
    from matches.models import Match

    fest = League.objects.get(slug="scrabble-fest")
    assert fest.entries.count() == 40 and Team.objects.filter(league=fest).count() == 4
    assert fest.entries.filter(player__user__isnull=True).count() > 20  # guests
    assert {c.name for c in fest.categories.all()} == {
        "Competitive",
        "Just for Fun",
        "Corporate Team",
    }
    first, second, third = fest.rounds.order_by("number")
    assert set(Match.objects.filter(round=first).values_list("status", flat=True)) <= {
        "confirmed",
        "bye",
    }
    assert Match.objects.filter(round=second, status="scheduled").exists()
    assert not third.matches.exists()
    board = event_selectors.event_state(fest).board
    assert all(len(board.categories[name]) >= 3 for name in board.categories)
    assert len(board.teams) == 4
    assert "event_scorer volunteer@example.edu scrabble-demo" in demo


def test_e5_the_demo_challenge_has_twelve_teams_apart_round_one_scored_and_assists_sold(demo, db):
    from events import selectors as event_selectors
    from events.assist_ledger import ledger
    from events.models import AssistSale
    from league.models import League
    from matches.models import Match

    challenge = League.objects.get(slug="corporate-challenge")
    assert challenge.entries.count() == 47 and challenge.teams.count() == 12
    tables = Match.objects.filter(round__league=challenge, round__number=1)
    assert sorted(table.seats.count() for table in tables) == [3] + [4] * 11
    for table in tables:
        teams = [
            seat.player.entries.get(league=challenge).entrant.team_id for seat in table.seats.all()
        ]
        assert len(set(teams)) == len(teams)  # E5: no two teammates at a table
        assert table.status == "confirmed" and table.ended_by == "time_up"
    prices = set(
        AssistSale.objects.filter(league=challenge).values_list("item__name", "unit_cents")
    )
    assert ("Ringer", 1000) in prices or ("Ringer", 2000) in prices
    tiers = {
        cents == item_first
        for cents, item_first in AssistSale.objects.filter(league=challenge).values_list(
            "unit_cents", "item__first_cents"
        )
    }
    assert tiers == {True, False}  # sold at the first price and at the later one
    assert ledger(challenge).total_cents > 0
    board = event_selectors.event_state(challenge).board
    assert len(board.teams) == 12 and next(t for t in board.teams if t.filled == 1)


def test_the_demo_prints_a_site_admin_who_reaches_the_whole_admin(demo, db):
    """The person who runs the installation has a login of their own."""
    admin = next(line for line in demo if line.startswith("site_admin "))
    _, email, password = admin.split()
    client = Client()
    assert client.login(email=email, password=password)
    assert client.get("/admin/accounts/institution/").status_code == 200


def test_the_demo_has_a_league_open_to_join_and_no_two_students_share_a_name(demo, db):
    from league.models import League
    from league.policies import join_refusal

    league = League.objects.get(slug="wednesday-open")
    assert not league.rounds.exists()
    student = PlayerProfile.objects.get(user__email="student00001@example.edu")
    assert not league.entries.filter(player=student).exists()
    refusal = join_refusal(
        league,
        joined=False,
        players=league.entries.count(),
        started=False,
        eligibility="eligible",
    )
    assert refusal is None
    names = [
        (p.user.first_name, p.user.last_name)
        for p in PlayerProfile.objects.select_related("user").filter(user__isnull=False)
    ]
    assert len(names) == len(set(names))


def test_unique_names_stay_unique_at_the_benchmarks_size():
    import random

    from league.demo import unique_names

    names = unique_names(20000, random.Random(1))
    assert len(set(names)) == 20000


# --- Privacy on every public surface of the demo (P1-P3) -------------------------------------
# A student who withholds their name is a number on every public page, JSON feed, calendar,
# projector and printable, to strangers and classmates alike; pages that name players ask search
# engines not to index them. Here, to share the seeded demo.


def _withheld():
    return list(
        PlayerProfile.objects.filter(user__isnull=False, campus_id__gt="")
        .filter(registrar_withholds=True)
        .union(
            PlayerProfile.objects.filter(user__isnull=False, campus_id__gt="", withholds_name=True)
        )
    )


def _public_urls() -> list[str]:
    """Every page and feed of every league a visitor can open, an event's rounds, tables and
    projector included."""
    urls = ["/", reverse("league_list"), reverse("campus_leagues", args=["example-state"])]
    for league in (
        League.objects.filter(public=True).select_related("season__institution").order_by("pk")
    ):
        slug = league
        urls += [
            reverse(name, args=[slug])
            for name in (
                "league_detail",
                "league_standings",
                "league_standings_json",
                "league_bracket",
                "league_bracket_json",
                "league_calendar",
            )
        ]
        if league.format == "event":
            urls += [
                reverse(name, args=[slug])
                for name in (
                    "event_json",
                    "event_leaderboard",
                    "event_projector",
                    "event_projector_panel",
                )
            ]
            for round_ in league.rounds.order_by("number"):
                urls.append(reverse("event_round", args=[slug, round_.number]))
                for table in round_.matches.exclude(table=None).values_list("table", flat=True):
                    urls.append(reverse("event_table", args=[slug, round_.number, table]))
    return urls


def _printables(director: Client, withheld, tmp_path) -> dict[str, str]:
    """Every kind of printable, as its text, for the first round a withheld student plays in:
    each kind is drawn one way for every round and every event, and a PDF takes a second or
    two to make."""
    texts = {}
    for league in League.objects.filter(format="event"):
        paired = league.rounds.filter(matches__isnull=False).distinct().order_by("number")
        for round_ in paired.filter(matches__seats__player__in=withheld)[:1]:
            for kind in ("pairings", "cards", "sheets"):
                url = reverse("event_print", args=[league, round_.number, kind])
                response = director.get(url)
                assert response.status_code == 200, url
                texts[url] = poppler("pdftotext", response.content, tmp_path)
    return texts


def _traces(profile) -> list[str]:
    user = profile.user
    return [f"{user.first_name} {user.last_name}", profile.campus_id, user.email]


def _a_classmate(withheld) -> Client:
    """A signed-in student of the institution who never sat at a table with them."""
    theirs = Seat.objects.filter(player__in=withheld).values("match_id")
    shared = Seat.objects.filter(match_id__in=theirs).values("player_id")
    classmate = (
        PlayerProfile.objects.filter(user__email__startswith="student", campus_id__gt="")
        .exclude(pk__in=shared)
        .exclude(pk__in=[p.pk for p in withheld])
        .select_related("user")
        .first()
    )
    client = Client()
    client.force_login(classmate.user)
    client.label = "a classmate"
    return client


def test_p2_a_withheld_student_is_a_number_on_every_public_surface(demo, db, tmp_path):
    withheld = _withheld()
    assert len(withheld) == 2  # the registrar's opt-out and a student's own choice
    director = Client()
    director.login(email="director@example.edu", password=demo[0].split()[2])
    seen: dict[str, str] = {}
    stranger = Client()
    stranger.label = "a stranger"
    for reader in (stranger, _a_classmate(withheld)):
        for url in _public_urls():
            response = reader.get(url)
            if url in ("/", "/leagues/") and response.status_code == 302:
                continue  # the list asks a stranger to log in
            assert response.status_code == 200, url
            seen[f"{url} as {reader.label}"] = response.content.decode()
    printed = _printables(director, withheld, tmp_path)
    # At an event they go by their player number there, the one on their card (P2).
    at_events = Entry.objects.filter(player__in=withheld, league__format="event")
    numbers = [f"Player {entry.player_number}" for entry in at_events]
    assert numbers and any(number in text for text in printed.values() for number in numbers)
    seen.update(printed)

    for profile in withheld:
        for trace in _traces(profile):
            assert [url for url, text in seen.items() if trace in text] == [], trace
        number = privacy.anonymous_name(profile.pk)
        assert any(number in text for text in seen.values()), number


def test_p3_pages_that_name_players_ask_search_engines_not_to_index_them(demo, db):
    league = League.objects.filter(format="league").order_by("pk").first()
    for name in ("league_detail", "league_standings", "league_standings_json"):
        response = Client().get(reverse(name, args=[league]))
        assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "X-Robots-Tag" not in Client().get(reverse("league_list"))

    League.objects.filter(pk=league.pk).update(search_engines=True)
    for name in ("league_detail", "league_standings", "league_standings_json"):
        response = Client().get(reverse(name, args=[league]))
        assert response["X-Robots-Tag"] == "all"


def _totals(league) -> str:
    """A league's standings.json, or its event.json for an event, without the players' names."""
    name = "event_json" if league.format == "event" else "league_standings_json"
    document = Client().get(reverse(name, args=[league])).json()
    document.pop("updated", None)
    for row in document.get("standings", []):
        row.pop("player", None) or row.pop("name", None)
    for round_ in document.get("rounds", []):
        for table in round_["tables"]:
            for seat in table["seats"]:
                seat.pop("name")
    return document


def test_p4_forgetting_players_leaves_every_game_played_and_event_total_as_it_was(
    demo, db, django_capture_on_commit_callbacks
):
    """Three students who played in each kind of league are forgotten: every game played
    stays, every event's and club's totals too; the games they had left in the Tuesday Night
    League become forfeits to their opponents (their leaving, as a withdrawal's)."""
    from accounts.services import profile_forget
    from league import formats
    from matches.models import FINAL_STATUSES, Match

    kept = list(
        League.objects.filter(public=True, format__in=formats.with_trait("open_entry")).order_by(
            "pk"
        )
    )
    assert {league.format for league in kept} == {"event", "club"}
    before = {league.slug: _totals(league) for league in kept}
    played = set(_games_played())
    forgotten = []
    for kind in ("league", "event", "club"):  # a student who played in each kind of league
        played_in = Seat.objects.filter(match__league__format=kind).values("player_id")
        forgotten += list(
            PlayerProfile.objects.filter(pk__in=played_in, campus_id__gt="")
            .exclude(pk__in=[p.pk for p in forgotten])
            .select_related("user")
            .order_by("pk")[:1]
        )
    assert len(forgotten) == 3
    left = list(
        Match.objects.filter(seats__player__in=forgotten, league__format="league")
        .exclude(status__in=FINAL_STATUSES)
        .values_list("pk", flat=True)
    )
    assert left  # the demo's league is mid-season
    traces = [trace for profile in forgotten for trace in _traces(profile)]

    with django_capture_on_commit_callbacks(execute=True):
        for profile in forgotten:
            profile_forget(actor=profile.user, profile=profile)

    assert {league.slug: _totals(league) for league in kept} == before
    assert played <= set(_games_played())
    assert set(Match.objects.filter(pk__in=left).values_list("status", flat=True)) == {"forfeit"}
    pages = [Client().get(url).content.decode() for url in _public_urls()]
    assert [trace for trace in traces if any(trace in page for page in pages)] == []


def _games_played() -> list[tuple]:
    """Every final game's seats: the match, who sat, their score and outcome."""
    from matches.models import FINAL_STATUSES

    return list(
        Seat.objects.filter(match__status__in=FINAL_STATUSES).values_list(
            "match_id", "player_id", "score", "outcome"
        )
    )


def test_the_demo_shows_a_campus_sign_in_button_leading_to_a_page_saying_none_is_set_up(demo, db):
    client = Client()
    for name in ("account_login", "account_signup"):
        page = client.get(reverse(name)).content.decode()
        assert "Sign in with Example State" in page
    target = reverse("campus_sign_in", args=["example-state"])
    assert f'href="{target}"' in client.get(reverse("account_login")).content.decode()
    response = client.get(target)
    assert response.status_code == 200
    page = response.content.decode()
    assert "not set up yet" in page
    assert "client ID and client secret" in page

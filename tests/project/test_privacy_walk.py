"""Privacy on every public surface of the demo (P1–P3): a student who withholds their name is
a number on every public page, JSON feed, calendar, projector and printable, to strangers and
classmates alike; pages that name players ask search engines not to index them."""

from django.test import Client
from django.urls import reverse

from accounts import privacy
from accounts.models import PlayerProfile
from league.models import League
from matches.models import Seat
from tests.support import poppler


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
    urls = ["/", reverse("league_list")]
    for league in League.objects.filter(public=True).order_by("pk"):
        slug = league.slug
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


def _printables(director: Client, tmp_path) -> dict[str, str]:
    """Each paired round's printables of every event, as their text."""
    texts = {}
    for league in League.objects.filter(format="event"):
        for round_ in league.rounds.filter(matches__isnull=False).distinct():
            for kind in ("pairings", "cards", "sheets"):
                url = reverse("event_print", args=[league.slug, round_.number, kind])
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
    seen.update(_printables(director, tmp_path))

    for profile in withheld:
        for trace in _traces(profile):
            assert [url for url, text in seen.items() if trace in text] == [], trace
        number = privacy.anonymous_name(profile.pk)
        assert any(number in text for text in seen.values()), number


def test_p3_pages_that_name_players_ask_search_engines_not_to_index_them(demo, db):
    league = League.objects.filter(format="league").order_by("pk").first()
    for name in ("league_detail", "league_standings", "league_standings_json"):
        response = Client().get(reverse(name, args=[league.slug]))
        assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "X-Robots-Tag" not in Client().get(reverse("league_list"))

    League.objects.filter(pk=league.pk).update(search_engines=True)
    for name in ("league_detail", "league_standings", "league_standings_json"):
        response = Client().get(reverse(name, args=[league.slug]))
        assert response["X-Robots-Tag"] == "all"

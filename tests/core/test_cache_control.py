"""What belongs to a person never sits in a shared cache: signed-in pages, CSV exports, PDFs and
calendar feeds answer `Cache-Control: private, no-store`; public pages seen signed out stay
cacheable (issue 28: none of them sent a Cache-Control)."""

from django.urls import reverse


def test_a_signed_in_page_is_private_and_not_stored(client, player, league):
    client.force_login(player.user)
    for url in ("/", reverse("profile"), league.get_absolute_url()):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "private, no-store", url


def test_a_roster_export_is_private_and_not_stored(client, director):
    client.force_login(director.user)
    response = client.get(reverse("export_roster"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Cache-Control"] == "private, no-store"


def test_a_players_calendar_feed_is_private_and_not_stored(client, player):
    response = client.get(reverse("player_calendar", args=[player.calendar_token]))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


def test_a_public_page_seen_signed_out_stays_cacheable(client, league):
    response = client.get(league.get_absolute_url())
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")

"""The addresses the docs list as a form's (POST) answer GET with the page of their form, changing
nothing (`core/actions.py` · `posted_from`), rather than a blank 405; any other method is still
refused. The waitlist's, the draw's and the table cards' are tested beside their pages."""

import pytest
from django.urls import reverse

from league.models import Round
from matches.models import AuditEvent
from tests.events.self_entry_support import self_entry_event
from tests.support import at, round_of


def test_a_rounds_bulk_actions_opened_by_get_lead_to_the_leagues_director_page(
    client, director, league
):
    round_, _ = round_of(league, 2)
    client.force_login(director.user)
    before = AuditEvent.objects.count()

    for action in ("director_round_extend", "director_round_rule"):
        address = reverse(action, args=[league.slug, round_.number])
        response = client.get(address)

        assert response.status_code == 302, action
        assert response.url == reverse("director_league", args=[league.slug])
        assert client.put(address).status_code == 405
    assert AuditEvent.objects.count() == before


@pytest.mark.parametrize("action", ["event_pair", "event_swap", "event_close"])
def test_an_event_rounds_actions_opened_by_get_lead_to_the_rounds_page(
    client, director, season, tmp_path, action
):
    self_entry_event(season, tmp_path)
    client.force_login(director.user)
    second = Round.objects.get(league__slug="fest", number=2)

    response = client.get(reverse(action, args=[at("fest"), 2]))

    assert response.status_code == 302
    assert response.url == reverse("event_round", args=[at("fest"), 2])
    assert not second.matches.exists()  # round 2 is not paired by a GET


def test_the_name_change_opened_by_get_leads_to_the_profile(client, player):
    client.force_login(player.user)

    response = client.get(reverse("profile_name"))

    assert response.status_code == 302 and response.url == reverse("profile")
    player.user.refresh_from_db()
    assert player.user.first_name == "Rowan"

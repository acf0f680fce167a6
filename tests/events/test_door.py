"""The door (E3, issue 30): its counter counts those here among those still in the event, and
a scan or a typed number of someone marked as leaving brings them back, with a word to the
person at the desk; the walk-in form comes before the list."""

from datetime import timedelta

import pytest
from django.urls import reverse

from events import services as events
from league.models import CheckIn, Entry, League
from tests.support import FEST, at, create_event, run, write


@pytest.fixture
def fest(season, tmp_path):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Entrant {letter},Competitive\n" for letter in "ABCD")
    run("import_entrants", write(tmp_path, "in.csv", "name,category\n" + names), "--league", "fest")
    return League.objects.get(slug="fest")


def desk(client) -> str:
    return client.get(reverse("event_desk", args=[at("fest")])).content.decode()


def scan(client, number):
    return client.post(reverse("event_check_in", args=[at("fest")]), {"player": str(number)})


def test_e3_the_doors_counter_counts_those_here_among_those_still_in(fest, client, staff):
    client.force_login(staff.user)
    for entry in Entry.objects.filter(league=fest):
        scan(client, entry.player_number)
    leaver = Entry.objects.get(league=fest, player__display_name="Entrant A")
    events.entrant_leave(actor=staff.user, league=fest, entry=leaver)

    page = desk(client)

    assert "(3 of 3 here, 1 left)" in page


def test_e3_scanning_someone_who_left_brings_them_back_and_tells_the_desk(fest, client, staff):
    client.force_login(staff.user)
    leaver = Entry.objects.get(league=fest, player__display_name="Entrant B")
    scan(client, leaver.player_number)
    events.entrant_leave(actor=staff.user, league=fest, entry=leaver)

    response = scan(client, leaver.player_number)

    said = client.get(response["Location"]).content.decode()
    assert "Entrant B (number 2) had left and is back" in said
    leaver.refresh_from_db()
    assert leaver.withdrawn_at is None and CheckIn.objects.filter(entry=leaver).exists()
    assert "(1 of 4 here)" in said


def test_e3_the_walk_in_form_comes_before_the_list_of_entrants(fest, client, staff):
    client.force_login(staff.user)

    page = desk(client)

    assert page.index("Add a walk-in") < page.index('data-testid="check-in-list"')

"""Cards a scoring table's page kept offline and sends later (E3, issue 52): each typed card
carries a key, and a card sent again, even racing its first send on another connection, counts
once; the server's answer (counted, the same, refused with its reason) is the same every time."""

import json
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events import services as events
from events.models import SentCard
from league.models import League, Round
from matches.models import AuditEvent, Match, MatchStatus
from tests.support import at, rounds_started, run_together

ATTEMPTS = range(3)


@pytest.fixture
def fest(transactional_db, season, director, tmp_path):
    data = {
        "name": "Fest",
        "slug": "fest",
        "format": "event",
        "date": (season.starts_on + timedelta(days=10)).isoformat(),
    }
    path = tmp_path / "fest.json"
    path.write_text(json.dumps(data))
    call_command(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )
    entrants = tmp_path / "e.csv"
    entrants.write_text("name\n" + "".join(f"Entrant {i}\n" for i in range(1, 21)))
    call_command("import_entrants", str(entrants), "--league", "fest")
    call_command("pair_round", "--league", "fest", "--all-entrants")
    return rounds_started(League.objects.get(slug="fest"))


def send(actor, table, key, scores=(400, 300)):
    return events.card_send(
        actor=actor,
        round=table.round,
        key=key,
        device="device-1",
        typed_at=timezone.now(),
        table=table.table,
        scores=list(scores),
        enter=lambda now: events.card_enter(actor=actor, match=table, scores=list(scores), now=now),
    )


def entered(table) -> int:
    return AuditEvent.objects.filter(match=table, action="card_entered").count()


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_e3_a_card_sent_again_while_its_first_send_is_counted_lands_once(fest, director, attempt):
    """The Wi-Fi came back halfway: the page sends the card again before the first answer
    arrives. Both sends hear "counted", and the table has one card."""
    table = Match.objects.get(round__league=fest, round__number=1, table=1 + attempt)
    key = uuid.uuid4()
    first, second = run_together(
        lambda: send(director.user, table, key), lambda: send(director.user, table, key)
    )
    assert isinstance(first, SentCard) and isinstance(second, SentCard), (first, second)
    assert first.outcome == second.outcome == SentCard.Outcome.COUNTED
    assert SentCard.objects.filter(key=key).count() == 1
    assert entered(table) == 1
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED


def test_e3_a_card_sent_after_the_server_counted_it_changes_nothing(fest, director):
    table = Match.objects.get(round__league=fest, round__number=1, table=1)
    key = uuid.uuid4()
    assert send(director.user, table, key).outcome == SentCard.Outcome.COUNTED
    table.refresh_from_db()
    finalised = table.finalised_at
    again = send(director.user, table, key)
    assert again.outcome == SentCard.Outcome.COUNTED
    table.refresh_from_db()
    assert table.finalised_at == finalised and entered(table) == 1
    # Another device's card with the same scores is the same card: nothing changes either.
    other = send(director.user, table, uuid.uuid4())
    assert other.outcome == SentCard.Outcome.SAME and entered(table) == 1


def test_e3_two_devices_with_different_scores_for_one_table_make_a_conflict(fest, director):
    table = Match.objects.get(round__league=fest, round__number=1, table=2)
    assert send(director.user, table, uuid.uuid4()).outcome == SentCard.Outcome.COUNTED
    other = send(director.user, table, uuid.uuid4(), scores=(410, 300))
    assert other.outcome == SentCard.Outcome.REFUSED
    assert "already has 400–300, not 410–300" in other.reason
    table.refresh_from_db()
    assert [seat.score for seat in table.seats.order_by("order")] == [400, 300]


def card_data(table, key, scores=(400, 300), seen=None):
    seats = list(table.seats.order_by("order"))
    data = {
        "key": str(key),
        "device": "phone-a",
        "typed_at": "1800000000000",
        "table": str(table.table),
        "seen": seen or ",".join(str(seat.player_id) for seat in seats),
        "ended_by": "went_out",
    }
    data.update({f"score_{order}": str(score) for order, score in enumerate(scores, start=1)})
    return data


def test_e3_the_page_hears_each_cards_outcome_and_a_resend_hears_it_again(client, fest, director):
    table = Match.objects.get(round__league=fest, round__number=1, table=3)
    url = reverse("event_scores_send", args=[at("fest"), 1])
    client.force_login(director.user)
    key = uuid.uuid4()
    answers = [client.post(url, card_data(table, key)).json() for _ in range(2)]
    assert [answer["outcome"] for answer in answers] == ["counted", "counted"]
    assert entered(table) == 1
    assert SentCard.objects.get(key=key).typed_at.year == 2027  # the device's clock, kept


def test_e3_a_card_for_a_table_paired_again_comes_back_with_its_reason(client, fest, director):
    round_ = Round.objects.get(league=fest, number=1)
    table = Match.objects.get(round=round_, table=4)
    data = card_data(table, uuid.uuid4(), seen="1,2")  # players the table no longer seats
    client.force_login(director.user)
    answer = client.post(reverse("event_scores_send", args=[at("fest"), 1]), data).json()
    assert answer["outcome"] == "refused"
    assert "players changed since this page was loaded" in answer["reason"]
    assert entered(table) == 0


def test_e3_a_card_sent_after_the_sign_in_ended_waits_and_the_page_hears_why(client, fest):
    table = Match.objects.get(round__league=fest, round__number=1, table=5)
    response = client.post(
        reverse("event_scores_send", args=[at("fest"), 1]), card_data(table, uuid.uuid4())
    )
    assert response.status_code == 401 and response.json()["signed_out"]
    assert "sign in again" in response.json()["reason"]
    assert entered(table) == 0


def test_e3_someone_who_may_not_score_hears_the_table_is_not_theirs(client, fest, player):
    table = Match.objects.get(round__league=fest, round__number=1, table=5)
    client.force_login(player.user)
    response = client.post(
        reverse("event_scores_send", args=[at("fest"), 1]), card_data(table, uuid.uuid4())
    )
    assert response.status_code == 403 and response.json()["gone"]
    assert entered(table) == 0 and not SentCard.objects.exists()


def late_card(table, outcome=SentCard.Outcome.COUNTED, reason=""):
    arrived = timezone.now()
    return SentCard.objects.create(
        key=uuid.uuid4(),
        round=table.round,
        table=table.table,
        device="phone-b",
        scores=[400, 300],
        typed_at=arrived - timedelta(minutes=7),
        arrived_at=arrived,
        outcome=outcome,
        reason=reason,
    )


def test_e3_the_director_sees_each_devices_late_cards_in_the_same_queries_at_two_sizes(
    client, fest, director, staff
):
    tables = list(Match.objects.filter(round__league=fest, round__number=1).order_by("table"))
    late_card(tables[0])
    late_card(tables[1], SentCard.Outcome.REFUSED, "Table 2 already has 400–300, not 410–300")
    url = reverse("event_scores", args=[at("fest"), 1])
    client.force_login(director.user)
    with CaptureQueriesContext(connection) as small:
        page = client.get(url)
    listed = page.content.decode()
    assert "Cards sent late or refused (2)" in listed and "the device's own clock" in listed
    assert "phone-b" in listed and "Table 2 already has 400–300, not 410–300" in listed
    for table in tables[2:]:
        late_card(table)
    with CaptureQueriesContext(connection) as large:
        assert "Cards sent late or refused (10)" in client.get(url).content.decode()
    assert len(large) == len(small)
    # The list is the director's: the front desk types cards without it.
    client.force_login(staff.user)
    assert "Cards sent late" not in client.get(url).content.decode()


def test_e3_the_service_worker_is_served_from_the_root_and_the_pages_stay_uncached(
    client, fest, director
):
    worker = client.get(reverse("offline_worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("application/javascript")
    assert worker["Cache-Control"] == "no-cache"
    client.force_login(director.user)
    page = client.get(reverse("event_scores", args=[at("fest"), 1]))
    assert page["Cache-Control"] == "private, no-store"  # the device's copy is the worker's
    assert reverse("offline_worker") in page.content.decode()


def test_e3_signing_out_clears_what_the_device_kept(client, director):
    client.force_login(director.user)
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'

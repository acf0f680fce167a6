"""A table's card and its confirmations, kept on a player's phone offline and sent later (E3,
S1–S4, issue 52): each carries the key the page gave it, and one sent again, even racing its
first send on another connection, lands once and hears the same answer; a refusal (the table
paired again, a slip no longer valid, self-entry closed) comes back with its reason."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from events import services as events
from events.models import CardConfirmation, SentCard, TableCard
from league.models import Entry
from matches.models import AuditEvent, MatchStatus
from tests.events.self_entry_support import seats_of, self_entry_event, slip_of_seat, tables
from tests.support import run_together

ATTEMPTS = range(3)


@pytest.fixture
def fest(transactional_db, season, tmp_path, director):
    return self_entry_event(season, tmp_path, seats=2, entrants=8, students=0)


def phone(match, order) -> Client:
    """Seat `order`'s own phone, which opened the link on its slip (S4)."""
    client = Client()
    client.get(reverse("slip_page", args=[slip_of_seat(match, order).token]))
    return client


def send(client, match, key, kind="card", *, scores=(412, 377), card=None, match_pk=None):
    data = {
        "key": str(key),
        "device": "phone-1",
        "typed_at": "1700000000000",
        "kind": kind,
        "match": str(match_pk or match.pk),
        "ended_by": "went_out",
    }
    if kind == "card":
        data.update({f"score_{n}": str(s) for n, s in enumerate(scores, start=1)})
    else:
        data["card"] = str(card.pk)
    url = reverse("event_table_send", args=[match.league, 1, match.table])
    response = client.post(url, data)
    assert response.status_code == 200, response.content
    return response.json()


def entered(match) -> int:
    return AuditEvent.objects.filter(match=match, action="card_entered").count()


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_e3_s1_a_table_card_sent_again_while_its_first_send_lands_is_saved_once(fest, attempt):
    """The Wi-Fi came back halfway: the phone sends the card again before the first answer
    arrives. Both sends hear "saved", and the table has one card."""
    match = tables(fest)[attempt]
    keeper = phone(match, 1)
    key = uuid.uuid4()
    first, second = run_together(lambda: send(keeper, match, key), lambda: send(keeper, match, key))
    assert first["outcome"] == second["outcome"] == "saved", (first, second)
    assert [card.scores for card in TableCard.objects.filter(match=match)] == [[412, 377]]
    assert SentCard.objects.filter(key=key, kind=SentCard.Kind.TABLE_CARD).count() == 1


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_e3_s2_a_confirmation_sent_again_while_its_first_send_lands_counts_the_card_once(
    fest, attempt
):
    match = tables(fest)[attempt]
    send(phone(match, 1), match, uuid.uuid4())
    card = TableCard.objects.get(match=match)
    other = phone(match, 2)
    key = uuid.uuid4()
    first, second = run_together(
        lambda: send(other, match, key, "confirm", card=card),
        lambda: send(other, match, key, "confirm", card=card),
    )
    assert first["outcome"] == second["outcome"] == "counted", (first, second)
    assert CardConfirmation.objects.filter(card=card).count() == 1
    assert entered(match) == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert [seat.score for seat in seats_of(match)] == [412, 377]


def test_e3_a_card_and_confirmation_sent_after_they_landed_change_nothing(fest):
    match = tables(fest)[0]
    keeper, other = phone(match, 1), phone(match, 2)
    card_key, confirm_key = uuid.uuid4(), uuid.uuid4()
    assert send(keeper, match, card_key)["said"] == "Saved. Waiting for seat 2 to confirm it."
    card = TableCard.objects.get(match=match)
    assert send(other, match, confirm_key, "confirm", card=card)["outcome"] == "counted"
    again = send(keeper, match, card_key)
    assert (again["outcome"], again["reason"]) == ("saved", "")
    assert send(other, match, confirm_key, "confirm", card=card)["outcome"] == "counted"
    assert TableCard.objects.filter(match=match).count() == 1
    assert entered(match) == 1
    # A key made for one table's card is no other's.
    refused = send(keeper, tables(fest)[1], card_key)
    assert refused["outcome"] == "refused" and "another card" in refused["reason"]


def test_e3_s4_refusals_come_back_with_their_reasons(fest, director):
    """A table paired again since the page was loaded, a slip printed again (the old one no
    longer proves its seat), and self-entry closed by the director: each is refused, kept
    with its reason, and nothing lands."""
    one, two, three = tables(fest)[:3]
    paired_again = send(phone(one, 1), one, uuid.uuid4(), match_pk=one.pk + 1000)
    assert paired_again["outcome"] == "refused"
    assert "paired again meanwhile" in paired_again["reason"]

    keeper = phone(two, 1)
    seat = seats_of(two)[0]
    entry = Entry.objects.get(league=fest, player_id=seat.player_id)
    events.slip_print_again(actor=director.user, entry=entry)
    revoked = send(keeper, two, uuid.uuid4())
    assert revoked["outcome"] == "refused"
    assert "does not know your seat" in revoked["reason"]

    keeper = phone(three, 1)
    events.self_entry_close(actor=director.user, round=three.round, closed=True)
    closed = send(keeper, three, uuid.uuid4())
    assert closed["outcome"] == "refused"
    assert "entered at the scoring table" in closed["reason"]

    assert not TableCard.objects.filter(match__round__league=fest).exists()
    assert SentCard.objects.filter(outcome=SentCard.Outcome.REFUSED).count() == 3

"""Self-entry's races (S4), each pair that can meet on two database connections at once: a
confirmation and a correction, the last confirmation and a card typed at the scoring table,
the last confirmation and the worker counting cards at the round's end, two seats entering
different versions, a first card and a re-pairing. Whatever the order, one result counts, and
nothing entered is lost without its sender hearing why."""

from datetime import timedelta

import pytest

from core.errors import DomainError
from events import services as events
from events.models import TableCard
from matches.models import AuditEvent, Match, MatchStatus
from matches.services import CardConflict
from tests.events.self_entry_support import pending, proof, round_end, seats_of, self_entry_event
from tests.events.self_entry_support import tables as tables_of
from tests.support import run_together

ATTEMPTS = range(3)


@pytest.fixture
def fest(transactional_db, season, tmp_path, director):
    return self_entry_event(season, tmp_path, entrants=18)


def counted_once(match) -> None:
    """The table has one result, from one card: the card service wrote it once."""
    assert TableCard.objects.filter(match=match, state=TableCard.State.COUNTED).count() <= 1
    assert AuditEvent.objects.filter(match=match, action="card_entered").count() == 1


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_s4_a_confirmation_racing_a_correction(fest, attempt):
    table = tables_of(fest)[attempt]
    now = round_end(fest) - timedelta(minutes=5)
    card = events.table_card_enter(
        match=table, proof=proof(table, 1), scores=[400, 350, 300], now=now
    )
    events.table_card_confirm(match=table, card_id=card.pk, proof=proof(table, 2), now=now)
    confirmed, corrected = run_together(
        lambda: events.table_card_confirm(
            match=table, card_id=card.pk, proof=proof(table, 3), now=now
        ),
        lambda: events.table_card_enter(
            match=table, proof=proof(table, 1), scores=[400, 360, 300], now=now
        ),
    )
    table.refresh_from_db()
    if isinstance(confirmed, TableCard):
        # The confirmation came first and completed the card; the correction found it in.
        assert confirmed.state == TableCard.State.COUNTED
        assert isinstance(corrected, DomainError) and "already in" in corrected.message
        assert [seat.score for seat in seats_of(table)] == [400, 350, 300]
        counted_once(table)
    else:
        # The correction came first: the confirmation of the old scores is refused.
        assert isinstance(confirmed, DomainError) and "corrected" in confirmed.message
        assert [c.scores for c in pending(table)] == [[400, 360, 300]]
        assert table.status != MatchStatus.CONFIRMED


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_s4_the_last_confirmation_racing_the_same_card_typed_at_the_scoring_table(
    fest, director, attempt
):
    table = tables_of(fest)[attempt]
    now = round_end(fest) - timedelta(minutes=5)
    card = events.table_card_enter(
        match=table, proof=proof(table, 1), scores=[400, 350, 300], now=now
    )
    events.table_card_confirm(match=table, card_id=card.pk, proof=proof(table, 2), now=now)
    outcomes = run_together(
        lambda: events.table_card_confirm(
            match=table, card_id=card.pk, proof=proof(table, 3), now=now
        ),
        lambda: events.card_enter(actor=director.user, match=table, scores=[400, 350, 300]),
    )
    assert not any(isinstance(outcome, Exception) for outcome in outcomes), outcomes
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.COUNTED
    counted_once(table)


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_s4_a_self_entered_card_racing_a_different_card_typed_at_the_scoring_table(
    fest, director, attempt
):
    table = tables_of(fest)[attempt]
    now = round_end(fest) - timedelta(minutes=5)
    entered, typed = run_together(
        lambda: events.table_card_enter(
            match=table, proof=proof(table, 1), scores=[500, 350, 300], now=now
        ),
        lambda: events.card_enter(actor=director.user, match=table, scores=[400, 350, 300]),
    )
    table.refresh_from_db()
    if isinstance(typed, Match):
        # Staff first: the players' card is refused, never written over the typed one.
        assert isinstance(entered, DomainError) and "already in" in entered.message
        assert [seat.score for seat in seats_of(table)] == [400, 350, 300]
    else:
        # The players first: the typed card is a conflict for the director.
        assert isinstance(typed, CardConflict), typed
        assert table.status != MatchStatus.CONFIRMED and len(pending(table)) == 1


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_s2_s4_the_last_confirmation_racing_the_worker_at_the_rounds_end(fest, attempt):
    table = tables_of(fest)[attempt]
    late = round_end(fest) + timedelta(minutes=1)
    card = events.table_card_enter(
        match=table, proof=proof(table, 1), scores=[400, 350, 300], now=late - timedelta(minutes=20)
    )
    events.table_card_confirm(
        match=table, card_id=card.pk, proof=proof(table, 2), now=late - timedelta(minutes=20)
    )
    outcomes = run_together(
        lambda: events.table_card_confirm(
            match=table, card_id=card.pk, proof=proof(table, 3), now=late
        ),
        lambda: events.settle_due_cards(table.round, late),
    )
    assert not any(isinstance(outcome, Exception) for outcome in outcomes), outcomes
    counted_once(table)
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.COUNTED


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_s3_s4_two_seats_entering_different_versions_at_once_count_neither(fest, attempt):
    table = tables_of(fest)[attempt]
    late = round_end(fest) + timedelta(minutes=1)
    outcomes = run_together(
        lambda: events.table_card_enter(
            match=table, proof=proof(table, 1), scores=[400, 350, 300], now=late
        ),
        lambda: events.table_card_enter(
            match=table, proof=proof(table, 2), scores=[400, 360, 300], now=late
        ),
    )
    assert all(isinstance(outcome, TableCard) for outcome in outcomes), outcomes
    table.refresh_from_db()
    assert table.status != MatchStatus.CONFIRMED
    assert sorted(card.seat_order for card in pending(table)) == [1, 2]


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_s4_a_first_card_racing_a_re_pairing(fest, director, attempt):
    table = tables_of(fest)[attempt]
    round_ = table.round
    now = round_end(fest) - timedelta(minutes=5)
    # Read before the race: the re-pairing may delete the seats the proof is read from.
    first_seat = proof(table, 1)
    entered, paired = run_together(
        lambda: events.table_card_enter(
            match=table, proof=first_seat, scores=[400, 350, 300], now=now
        ),
        lambda: events.pair_event_round(
            actor=director.user, round=round_, repair=True, seed=attempt + 10
        ),
    )
    if isinstance(entered, TableCard):
        assert isinstance(paired, DomainError) and "scores entered" in paired.message
        assert pending(table)
    else:
        # The re-pairing came first: the table is gone, and its page says so (a 404 or the
        # view's message); no card was kept for players who no longer sit there.
        assert isinstance(entered, Match.DoesNotExist), entered
        assert not TableCard.objects.exists()

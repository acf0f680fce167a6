"""Players enter their own table's card (S1–S6): the scorekeeper enters, the others confirm,
a disagreement goes to staff; each entrant's own slip proves their seat and nothing else."""

from datetime import timedelta

import pytest
from django.core.management.base import CommandError

from core.errors import DomainError, NotAllowed
from events import services as events
from events.card_board import card_board
from events.models import CodeAttempt, TableCard
from events.selectors import scoring_tables
from events.slips import WRONG_CODES_PER_DEVICE, WRONG_CODES_PER_TABLE
from league.models import Entry
from matches.models import AuditEvent, MatchStatus
from matches.services import CardConflict, UnusualScores
from tests.events.self_entry_support import (
    pending,
    proof,
    round_end,
    seats_of,
    self_entry_event,
    slip_of_seat,
    tables,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fest(season, tmp_path):
    return self_entry_event(season, tmp_path)


@pytest.fixture
def early(fest):
    """A moment during the round, its time not up."""
    return round_end(fest) - timedelta(minutes=10)


@pytest.fixture
def late(fest):
    return round_end(fest) + timedelta(minutes=1)


def enter(match, order, scores, now, **more):
    return events.table_card_enter(
        match=match, proof=proof(match, order), scores=scores, now=now, **more
    )


def confirm(match, card, order, now, **more):
    return events.table_card_confirm(
        match=match, card_id=card.pk, proof=proof(match, order, **more), now=now
    )


def test_s1_s2_the_scorekeeper_enters_the_others_confirm_and_the_card_counts(fest, early):
    table = tables(fest)[0]
    card = enter(table, 1, [410, 380, 300], early)
    assert card.state == TableCard.State.PENDING
    table.refresh_from_db()
    assert table.status != MatchStatus.CONFIRMED
    confirm(table, card, 2, early)
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.PENDING  # seat 3 still
    card = confirm(table, card, 3, early)
    assert card.state == TableCard.State.COUNTED
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED
    assert [seat.score for seat in seats_of(table)] == [410, 380, 300]
    entry = AuditEvent.objects.filter(match=table, action="card_entered").get()
    assert entry.reason == "Entered at the table by seat 1, confirmed by seats 2, 3"


def test_s1_a_signed_in_entrant_is_known_by_their_login(fest, early):
    table = next(t for t in tables(fest) if any(s.player.user_id for s in seats_of(t)))
    ada = next(seat for seat in seats_of(table) if seat.player.user_id)
    keeper = 1 if ada.order != 1 else 2
    card = enter(table, keeper, [400, 350, 300], early)
    card = events.table_card_confirm(
        match=table, card_id=card.pk, proof=events.SeatProof(user=ada.player.user), now=early
    )
    assert {c.seat_order for c in card.confirmations.all()} == {ada.order}
    assert card.confirmations.get().user == ada.player.user


def test_s1_only_the_scorekeeper_enters_first_until_the_rounds_time_is_up(fest, early, late):
    table = tables(fest)[0]
    with pytest.raises(events.EventError, match="scorekeeper, seat 1"):
        enter(table, 2, [400, 350, 300], early)
    assert not pending(table)
    card = enter(table, 2, [400, 350, 300], late)
    assert card.seat_order == 2


def test_s1_g1_an_unusual_score_needs_yes_really_and_a_bad_one_is_refused(fest, early):
    table = tables(fest)[0]
    with pytest.raises(UnusualScores):
        enter(table, 1, [40, 350, 300], early)
    with pytest.raises(DomainError):
        enter(table, 1, [4000, 350, 300], early)
    assert not pending(table)
    assert enter(table, 1, [40, 350, 300], early, unusual_confirmed=True).scores == [40, 350, 300]


def test_s2_one_confirmation_counts_once_the_rounds_time_is_up(fest, early, late):
    table = tables(fest)[0]
    card = enter(table, 1, [400, 350, 300], early)
    confirm(table, card, 2, early)
    assert events.settle_due_cards(table.round, early) == 0
    assert events.settle_due_cards(table.round, late) == 1
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.COUNTED
    assert events.settle_due_cards(table.round, late) == 0  # twice changes nothing


def test_s2_a_card_nobody_confirmed_waits_for_a_person_and_the_round_cannot_close_on_it(
    fest, late, director
):
    table = tables(fest)[0]
    enter(table, 1, [400, 350, 300], late)
    board = card_board(fest, table.round, scoring_tables(table.round), late)
    assert [match.table for match, _ in board.unconfirmed] == [1]
    assert [match.table for match in board.missing] == [2]
    with pytest.raises(events.EventError, match="Table 1 has a card"):
        events.close_round(actor=director.user, round=table.round, now=late)
    table.refresh_from_db()
    assert table.status not in (MatchStatus.DOUBLE_FORFEIT,)


def test_s2_closing_the_round_counts_the_confirmed_cards_and_forfeits_the_missing(
    fest, early, director
):
    first, second = tables(fest)
    card = enter(first, 1, [400, 350, 300], early)
    confirm(first, card, 3, early)
    assert events.close_round(actor=director.user, round=first.round, now=early) == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == MatchStatus.CONFIRMED
    assert second.status == MatchStatus.DOUBLE_FORFEIT


def test_s2_a_confirmation_of_a_card_corrected_since_is_refused(fest, early):
    table = tables(fest)[0]
    old = enter(table, 1, [400, 350, 300], early)
    confirm(table, old, 2, early)
    new = enter(table, 1, [400, 360, 300], early)
    assert TableCard.objects.get(pk=old.pk).state == TableCard.State.REPLACED
    assert new.confirmations.count() == 0  # the correction needs confirming again
    with pytest.raises(events.EventError, match="corrected"):
        confirm(table, old, 3, early)
    assert [c.pk for c in pending(table)] == [new.pk]


def test_s3_a_seat_that_disagrees_makes_a_conflict_only_staff_settle(fest, early, director):
    table = tables(fest)[0]
    first = enter(table, 1, [400, 350, 300], early)
    second = enter(table, 2, [400, 360, 300], early)
    confirm(table, first, 3, early)
    assert len(pending(table)) == 2  # a conflict counts nothing, whoever confirms
    board = card_board(fest, table.round, scoring_tables(table.round), early)
    assert [match.table for match, _ in board.conflicts] == [1]
    assert [v.card.pk for v in board.conflicts[0][1]] == [first.pk, second.pk]
    assert board.confirming == 0 and board.needs_a_person == 1
    counted = events.table_card_count(actor=director.user, match=table, card_id=second.pk)
    assert counted.state == TableCard.State.COUNTED
    assert TableCard.objects.get(pk=first.pk).state == TableCard.State.OVERRULED
    assert [seat.score for seat in seats_of(table)] == [400, 360, 300]


def test_s3_the_same_scores_from_another_seat_confirm_its_card(fest, early):
    table = tables(fest)[0]
    card = enter(table, 1, [400, 350, 300], early)
    same = enter(table, 2, [400, 350, 300], early)
    assert same.pk == card.pk and {c.seat_order for c in same.confirmations.all()} == {2}


def test_s3_a_player_cannot_settle_a_conflict(fest, early, player):
    table = tables(fest)[0]
    card = enter(table, 1, [400, 350, 300], early)
    enter(table, 2, [400, 360, 300], early)
    with pytest.raises(NotAllowed):
        events.table_card_count(actor=player.user, match=table, card_id=card.pk)
    assert len(pending(table)) == 2


def test_s3_a_card_typed_at_the_scoring_table_counts_an_agreeing_version(fest, early, director):
    table = tables(fest)[0]
    card = enter(table, 1, [400, 350, 300], early)
    events.card_enter(actor=director.user, match=table, scores=[400, 350, 300])
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.COUNTED


def test_s3_a_typed_card_conflicts_with_a_different_version_until_the_director_overrides(
    fest, early, director
):
    table = tables(fest)[0]
    card = enter(table, 1, [400, 350, 300], early)
    with pytest.raises(CardConflict, match="its players entered, 400–350–300"):
        events.card_enter(actor=director.user, match=table, scores=[400, 340, 300])
    table.refresh_from_db()
    assert table.status != MatchStatus.CONFIRMED and pending(table)
    events.card_enter(
        actor=director.user, match=table, scores=[400, 340, 300], override_reason="Recounted"
    )
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.OVERRULED


def test_s4_a_self_entered_card_never_overwrites_one_staff_typed(fest, late, director):
    table = tables(fest)[0]
    events.card_enter(actor=director.user, match=table, scores=[400, 350, 300])
    with pytest.raises(events.EventError, match="already in: 400–350–300"):
        enter(table, 1, [500, 350, 300], late)
    assert [seat.score for seat in seats_of(table)] == [400, 350, 300]
    assert not TableCard.objects.filter(match=table).exists()


def test_s4_a_slip_acts_for_its_own_entrant_only(fest, early, director):
    """The scorekeeper holds the table's card and their own slip: neither acts for the others."""
    first, second = tables(fest)
    card = enter(first, 1, [400, 350, 300], early)
    keepers_phone = proof(first, 1).slips
    with pytest.raises(NotAllowed, match="Only seat 2 .* acts for their seat"):
        events.table_card_confirm(
            match=first,
            card_id=card.pk,
            proof=events.SeatProof(order=2, slips=keepers_phone, device="keepers-phone-000000"),
            now=early,
        )
    # Seat 3's slip code typed for seat 2; a slip code of a player at table 2.
    with pytest.raises(NotAllowed, match="seat 3 .* slip: it acts for their seat only"):
        confirm(first, card, 2, early, code=slip_of_seat(first, 3).code)
    with pytest.raises(events.WrongCode, match="not the slip of a player at this table"):
        confirm(first, card, 2, early, code=slip_of_seat(second, 2).code)
    assert card.confirmations.count() == 0
    attempts = CodeAttempt.objects.filter(match=first).order_by("id")
    assert [(a.action, a.ok) for a in attempts] == [("confirm", False), ("confirm", False)]
    # A slip printed again: the old one stops working, on every phone, by link or code.
    seat_two = seats_of(first)[1]
    old = slip_of_seat(first, 2)
    entry = Entry.objects.get(league=fest, player=seat_two.player)
    events.slip_print_again(actor=director.user, entry=entry)
    with pytest.raises(events.EventError, match="does not know your seat"):
        events.table_card_confirm(
            match=first, card_id=card.pk, proof=events.SeatProof(slips=(old.token,)), now=early
        )
    with pytest.raises(events.WrongCode):
        confirm(first, card, 2, early, code=old.code)
    assert confirm(first, card, 2, early).pk == card.pk  # the new slip


def test_s4_s5_no_code_works_once_self_entry_is_closed_or_the_table_is_in(fest, early, director):
    first, second = tables(fest)
    card = enter(first, 1, [400, 350, 300], early)
    confirm(first, card, 2, early)
    confirm(first, card, 3, early)
    with pytest.raises(events.EventError, match="already in"):
        enter(first, 2, [1, 2, 3], early, unusual_confirmed=True)
    events.self_entry_close(actor=director.user, round=first.round)
    with pytest.raises(events.EventError, match="scoring table"):
        enter(second, 1, [400, 350, 300], early)
    events.self_entry_close(actor=director.user, round=first.round, closed=False)
    assert enter(second, 1, [400, 350, 300], early).state == TableCard.State.PENDING


def test_s4_wrong_codes_are_limited_per_table_and_per_device(fest, early):
    first, second = tables(fest)
    card = enter(first, 1, [400, 350, 300], early)
    right = slip_of_seat(first, 2).code
    # Many phones guessing at one table: the table's limit holds whatever the device.
    for attempt in range(WRONG_CODES_PER_TABLE):
        with pytest.raises(events.WrongCode, match="not the slip of a player at this table"):
            confirm(first, card, 2, early, code="AAAAAAAA", device=f"phone-{attempt:020d}")
    with pytest.raises(events.WrongCode, match="at this table"):
        confirm(first, card, 2, early, code=right, device="a-fresh-phone-000000000")
    assert card.confirmations.count() == 0  # even the right code waits
    # One phone guessing across tables: the device's limit holds.
    other = enter(second, 1, [400, 350, 300], early)
    for _ in range(WRONG_CODES_PER_DEVICE):
        with pytest.raises(events.WrongCode):
            confirm(second, other, 2, early, code="AAAAAAAA", device="one-phone-0000000000")
    right_there = slip_of_seat(second, 2).code
    with pytest.raises(events.WrongCode, match="from this phone"):
        confirm(second, other, 2, early, code=right_there, device="one-phone-0000000000")
    assert (
        confirm(second, other, 2, early, code=right_there, device="another-phone-0000000").pk
        == other.pk
    )
    # A phone that opened its player's slip guesses nothing: the limits are for typed codes.
    assert confirm(first, card, 2, early, device="a-fresh-phone-000000000").pk == card.pk
    assert CodeAttempt.objects.filter(ok=False).count() == (
        WRONG_CODES_PER_TABLE + 1 + WRONG_CODES_PER_DEVICE + 1
    )


def test_s5_self_entry_is_off_by_default(season, tmp_path, director):
    league = self_entry_event(season, tmp_path, slug="plain")
    league.event.self_entry = False
    league.event.save()
    table = tables(league)[0]
    with pytest.raises(events.EventError, match="scoring table"):
        events.table_card_enter(match=table, proof=proof(table, 1), scores=[400, 350, 300])


def test_s2_repairing_or_swapping_a_round_with_cards_entered_is_refused(fest, early, director):
    table = tables(fest)[0]
    enter(table, 1, [400, 350, 300], early)
    with pytest.raises(events.EventError, match="scores entered"):
        events.pair_event_round(actor=director.user, round=table.round, repair=True)


def test_s3_a_card_from_the_enter_scores_file_counts_an_agreeing_version_and_conflicts_otherwise(
    fest, early, tmp_path
):
    from tests.support import run, write

    first, second = tables(fest)
    card = enter(first, 1, [400, 350, 300], early)
    enter(second, 1, [410, 350, 300], early)
    rows = ["table,player_number,score"]
    for match, scores in ((first, [400, 350, 300]), (second, [420, 350, 300])):
        numbers = dict(match.league.entries.values_list("player_id", "player_number"))
        for seat, score in zip(seats_of(match), scores, strict=True):
            rows.append(f"{match.table},{numbers[seat.player_id]},{score}")
    with pytest.raises(CommandError, match="1 conflicts, 0 bad rows"):
        run(
            "enter_scores",
            "--league",
            "fest",
            "--round",
            "1",
            write(tmp_path, "s.csv", "\n".join(rows) + "\n"),
        )
    assert TableCard.objects.get(pk=card.pk).state == TableCard.State.COUNTED
    second.refresh_from_db()
    assert second.status != MatchStatus.CONFIRMED and pending(second)

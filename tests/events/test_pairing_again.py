"""Pairing a round again before its first card (E3, issue 48): everyone checked in since the
round was paired is taken in, the director is told who was taken in and who is no longer
seated; "Pair again" without its box changes nothing and says why; the door says a round not
begun can still seat a walk-in. The round's words: its tables counted ("1 table"), its draw
number only to staff."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from events import selectors as event_selectors
from events import services as events
from league.models import Entry, League, Round
from matches.models import Match, MatchStatus
from tests.support import FEST, at, create_event, rounds_started, run, write

COMPETITIVE = ["Ada Quill", "Bo Vance", "Cy Marsh", "Di Okoro", "Ed Lark"]
FUN = ["Fay Noor", "Gus Hale"]


@pytest.fixture
def fest(season, tmp_path):
    """Scrabble Fest: five Competitive (timed: an odd group gets a bye) and two Just for Fun,
    round 1 played, round 2 paired and not begun."""
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    rows = [f"{name},Competitive" for name in COMPETITIVE] + [
        f"{name},Just for Fun" for name in FUN
    ]
    run(
        "import_entrants",
        write(tmp_path, "in.csv", "name,category\n" + "\n".join(rows) + "\n"),
        "--league",
        "fest",
    )
    league = rounds_started(League.objects.get(slug="fest"))
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "4")
    return league


@pytest.fixture
def round_two(fest, director):
    for match in Match.objects.filter(round__league=fest, round__number=1).exclude(
        status=MatchStatus.BYE
    ):
        events.card_enter(
            actor=director.user,
            match=match,
            scores=[300 + 10 * seat for seat in range(match.seats.count())],
        )
    round_ = Round.objects.get(league=fest, number=2)
    events.pair_event_round(actor=director.user, round=round_, seed=2027)
    return round_


def walk_in(fest, staff, name="Zed Walker", category="Competitive") -> Entry:
    entry, _ = events.entrant_save(
        actor=staff.user,
        league=fest,
        details=events.EntrantDetails(name=name, category=category),
        check_in=True,
    )
    return entry


def seated(round_) -> set[int]:
    return set(
        Match.objects.filter(round=round_).values_list("seats__player_id", flat=True).order_by()
    )


def byes(round_) -> list[int]:
    return list(
        Match.objects.filter(round=round_, status=MatchStatus.BYE).values_list(
            "seats__player_id", flat=True
        )
    )


def test_e3_pairing_a_round_again_before_its_first_card_seats_a_walk_in_checked_in_since(
    fest, round_two, staff, director
):
    assert len(byes(round_two)) == 1  # five Competitive: one bye
    zed = walk_in(fest, staff)
    assert zed.player_id not in seated(round_two)

    paired = events.pair_event_round(actor=director.user, round=round_two, repair=True)

    assert zed.player_id in seated(round_two)
    assert byes(round_two) == [] and paired.byes == []  # six Competitive: nobody sits out
    assert [entry.pk for entry in paired.taken_in] == [zed.pk]
    assert paired.left_out == []


def test_e3_pair_again_without_drawing_changes_nothing_and_names_who_waits_for_a_seat(
    fest, round_two, staff, director
):
    before = set(Match.objects.filter(round=round_two).values_list("id", flat=True))
    zed = walk_in(fest, staff)

    with pytest.raises(events.AlreadyPaired) as refusal:
        events.pair_event_round(actor=director.user, round=round_two)

    assert set(Match.objects.filter(round=round_two).values_list("id", flat=True)) == before
    assert [entry.pk for entry in refusal.value.waiting] == [zed.pk]
    assert "nothing changed" in refusal.value.message
    assert f"Zed Walker (number {zed.player_number})" in refusal.value.message


def test_e3_pairing_again_says_who_left_the_event_and_is_no_longer_seated(
    fest, round_two, staff, director
):
    ada = Entry.objects.get(league=fest, player__display_name="Ada Quill")
    events.entrant_leave(actor=staff.user, league=fest, entry=ada)

    paired = events.pair_event_round(actor=director.user, round=round_two, repair=True)

    assert [entry.pk for entry in paired.left_out] == [ada.pk]
    assert ada.player_id not in seated(round_two)


def test_e3_a_walk_in_after_the_first_card_waits_for_the_next_round(
    fest, round_two, staff, director
):
    table = Match.objects.filter(round=round_two).exclude(status=MatchStatus.BYE).first()
    events.card_enter(actor=director.user, match=table, scores=[350, 340])
    zed = walk_in(fest, staff)

    with pytest.raises(events.EventError, match="scores entered"):
        events.pair_event_round(actor=director.user, round=round_two, repair=True)
    assert zed.player_id not in seated(round_two)
    assert event_selectors.round_still_drawable(fest) is None


def _messages(response) -> str:
    return " ".join(str(message) for message in response.context["messages"])


def test_e3_the_round_page_names_the_walk_in_and_pairing_again_seats_them_and_says_so(
    client, fest, round_two, staff, director
):
    zed = walk_in(fest, staff)
    client.force_login(director.user)
    url = reverse("event_round", args=[at("fest"), 2])

    page = client.get(url).content.decode()
    assert 'data-testid="waiting-for-a-seat"' in page
    assert f"Zed Walker ({zed.player_number})" in page
    assert 'name="repair" value="1" required' not in page  # the server answers the button

    # The box left unticked: nothing drawn, and the page says why and what to do.
    answer = client.post(reverse("event_pair", args=[at("fest"), 2]), follow=True)
    said = _messages(answer)
    assert "Round 2 is already paired; nothing changed." in said
    assert "Zed Walker" in said and "tick “Draw the round again”" in said
    assert zed.player_id not in seated(round_two)

    answer = client.post(reverse("event_pair", args=[at("fest"), 2]), {"repair": "1"}, follow=True)
    said = _messages(answer)
    assert re.search(r"Round 2 paired again: \d tables\.", said), said
    assert "bye" not in said
    assert f"Seated since the last draw: Zed Walker (number {zed.player_number})." in said
    assert zed.player_id in seated(round_two)
    assert 'data-testid="waiting-for-a-seat"' not in answer.content.decode()


def test_e3_the_door_says_a_round_not_begun_can_still_seat_those_checked_in_now(
    client, fest, round_two, staff
):
    client.force_login(staff.user)
    page = client.get(reverse("event_desk", args=[at("fest")])).content.decode()
    assert (
        "Those checked in now are paired from round 3, or in round 2 if the director draws it "
        "again before its first card." in page
    )


def test_e3_one_table_is_said_as_one_table_and_the_draw_number_only_to_staff(
    client, season, tmp_path, director, player
):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    run(
        "import_entrants",
        write(tmp_path, "in.csv", "name,category\nAda Quill,Competitive\nBo Vance,Competitive\n"),
        "--league",
        "fest",
    )
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "2027")
    client.force_login(director.user)

    answer = client.post(reverse("event_pair", args=[at("fest"), 1]), {"repair": "1"}, follow=True)

    said = _messages(answer)
    assert "Round 1 paired again: 1 table." in said, said
    seed = Round.objects.get(league__slug="fest", number=1).seed
    assert f"Pairing draw no. {seed}" in answer.content.decode()
    client.logout()
    public = client.get(reverse("event_round", args=[at("fest"), 1])).content.decode()
    assert f"draw no. {seed}" not in public and not re.search(r"\bdraw \d", public)
    client.force_login(player.user)
    assert (
        "draw no." not in client.get(reverse("event_round", args=[at("fest"), 1])).content.decode()
    )

    client.force_login(director.user)
    started = client.post(reverse("event_start", args=[at("fest"), 1]), follow=True)
    assert "Round 1 has started: its table takes its card now." in _messages(started)
    closed = client.post(
        reverse("event_close", args=[at("fest"), 1]), {"reason": "Round over"}, follow=True
    )
    assert "Round 1 closed: 1 table without a card forfeited." in _messages(closed)

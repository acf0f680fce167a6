"""What the self-entry tests share (S1–S6): an event of three-seat tables whose players enter
their own cards, one round paired, its time not yet up on the day after today."""

from datetime import datetime, timedelta

from events.models import RoundStartedEarly, TableCard
from events.services import SeatProof, slip_of
from league.models import Entry, League
from matches.models import Match
from tests.support import create_event, eligible_student, run, write

STARTS = "18:00"
MINUTES = 45


STUDENT_NAMES = [("Ada", "Quill"), ("Bo", "Vance"), ("Cy", "Marsh"), ("Di", "Rowe")]


def self_entry_event(
    season,
    tmp_path,
    *,
    day=None,
    seats=3,
    entrants=6,
    slug="fest",
    student=True,
    students=1,
    started=True,
):
    """An event with self-entry on, `entrants` entered (the first `students` signed-up
    students, none without `student`; the rest guests), round 1 paired at tables of `seats`
    and, with `started`, started early by the director (its day is tomorrow)."""
    day = day or season.institution.today() + timedelta(days=1)
    data = {
        "name": "Self-entry Fest",
        "slug": slug,
        "format": "event",
        "date": day.isoformat(),
        "seats_per_table": seats,
        "self_entry": True,
        "rounds": [
            {"number": 1, "periods": [{"starts": STARTS, "minutes": MINUTES}]},
            {"number": 2, "periods": [{"starts": "19:00", "minutes": MINUTES}]},
        ],
    }
    create_event(season, tmp_path, data, f"{slug}.json")
    count = students if student else 0
    rows = []
    for first, last in STUDENT_NAMES[:count]:
        profile = eligible_student(season, first_name=first, last_name=last)
        rows.append(f"{first} {last},{profile.campus_id}")
    rows += [f"Guest {n}," for n in range(count + 1, entrants + 1)]
    run(
        "import_entrants",
        write(tmp_path, f"{slug}.csv", "name,campus_id\n" + "\n".join(rows) + "\n"),
        "--league",
        slug,
    )
    run("pair_round", "--league", slug, "--all-entrants", "--seed", "5")
    league = League.objects.get(slug=slug)
    if started:  # the director started round 1 early: its tables take cards now
        RoundStartedEarly.objects.create(round=league.rounds.get(number=1))
    return league


def round_end(league) -> datetime:
    from events.card_board import round_ends

    return round_ends(league, league.rounds.get(number=1))


def tables(league, number=1) -> list[Match]:
    return list(Match.objects.filter(round__league=league, round__number=number).order_by("table"))


def seats_of(match) -> list:
    return list(match.seats.order_by("order").select_related("player__user"))


def slip_of_seat(match, order):
    """The slip of the entrant in seat `order` (made now if they have none)."""
    seat = next(seat for seat in seats_of(match) if seat.order == order)
    return slip_of(Entry.objects.get(league_id=match.league_id, player_id=seat.player_id))


def proof(match, order, *, device="device-aaaaaaaaaaaaaaaa", code=None) -> SeatProof:
    """Seat `order`'s own phone, which opened the seat's slip (S4); with `code`, a phone that
    knows nobody and types that code instead."""
    if code is not None:
        return SeatProof(order=order, code=code, device=device)
    return SeatProof(order=order, slips=(slip_of_seat(match, order).token,), device=device)


def pending(match) -> list[TableCard]:
    return list(TableCard.objects.filter(match=match, state=TableCard.State.PENDING))

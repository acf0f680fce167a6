"""Placings as the match page and "My matches" show them: "1st 412, 2nd 377, …" (G9)."""

from dataclasses import dataclass

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


@dataclass(frozen=True)
class Placing:
    place: int
    ordinal: str  # "1st", or "1st (tied)" when another seat shares the place
    name: str
    score: int
    seat_order: int


def ordinal(place: int, shared: bool = False) -> str:
    word = ORDINALS.get(place, f"{place}th")
    return f"{word} (tied)" if shared else word


def placings(seats) -> list[Placing]:
    """The seats of a played game by place, then seat order; empty when no game counts."""
    placed = [seat for seat in seats if seat.place is not None and seat.score is not None]
    counts: dict[int, int] = {}
    for seat in placed:
        counts[seat.place] = counts.get(seat.place, 0) + 1
    return [
        Placing(
            place=seat.place,
            ordinal=ordinal(seat.place, counts[seat.place] > 1),
            name=seat.player.name,
            score=seat.score,
            seat_order=seat.order,
        )
        for seat in sorted(placed, key=lambda seat: (seat.place, seat.order))
    ]

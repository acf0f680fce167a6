"""Seeded single-elimination brackets (L11): plain data in, plain data out, no database.

Seeds are 1..n (1 the best). The bracket has the next power of two of places; the places past n
are byes, and the standard seeding order (1 v N, 2 v N-1, … with 1 and 2 in opposite halves)
puts the byes against the top seeds. A slot is decided when its winner is known; a slot can also
be decided with no winner (a double forfeit, or two byes meeting), and then its place in the
next round is empty, so that opponent goes through by walkover.
"""

from dataclasses import dataclass

EMPTY = 0  # a side of a slot that nobody will fill (a bye, or a double forfeit before it)


@dataclass
class Slot:
    seed_a: int | None = None  # None: not known yet; EMPTY: nobody comes
    seed_b: int | None = None
    decided: bool = False
    winner: int | None = None

    @property
    def ready(self) -> bool:
        """Both players known and the game not decided: a match to play."""
        return not self.decided and bool(self.seed_a) and bool(self.seed_b)


def bracket_size(entrants: int) -> int:
    size = 2
    while size < entrants:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket order: for 8, [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def new_bracket(entrants: int) -> list[list[Slot]]:
    """The whole bracket for n seeded entrants, byes already settled."""
    if entrants < 2:
        raise ValueError("A bracket needs at least two entrants.")
    size = bracket_size(entrants)
    order = [seed if seed <= entrants else EMPTY for seed in seeding_order(size)]
    rounds = [[Slot(order[i], order[i + 1]) for i in range(0, size, 2)]]
    while len(rounds[-1]) > 1:
        rounds.append([Slot() for _ in range(len(rounds[-1]) // 2)])
    settle(rounds)
    return rounds


def settle(rounds: list[list[Slot]]) -> None:
    """Fill each slot from the round before and decide walkovers, first round included."""
    for round_index, slots in enumerate(rounds):
        for index, slot in enumerate(slots):
            if round_index > 0:
                slot.seed_a = _comes_through(rounds[round_index - 1][2 * index])
                slot.seed_b = _comes_through(rounds[round_index - 1][2 * index + 1])
            if slot.decided or slot.seed_a is None or slot.seed_b is None:
                continue
            if slot.seed_a == EMPTY or slot.seed_b == EMPTY:
                slot.decided = True
                slot.winner = slot.seed_a or slot.seed_b or None


def _comes_through(feeder: Slot) -> int | None:
    if not feeder.decided:
        return None
    return feeder.winner or EMPTY


def record_result(
    rounds: list[list[Slot]], round_index: int, index: int, winner: int | None
) -> list[tuple[int, int]]:
    """A played slot's result (winner None: a double forfeit). Returns the slots that became
    ready to play because of it."""
    slot = rounds[round_index][index]
    if not slot.ready:
        raise ValueError(f"Round {round_index + 1}, slot {index + 1} is not waiting for a result.")
    if winner is not None and winner not in (slot.seed_a, slot.seed_b):
        raise ValueError(f"Seed {winner} is not playing in that slot.")
    before = set(ready_slots(rounds))
    slot.decided = True
    slot.winner = winner
    settle(rounds)
    return [position for position in ready_slots(rounds) if position not in before]


def ready_slots(rounds: list[list[Slot]]) -> list[tuple[int, int]]:
    return [(r, i) for r, slots in enumerate(rounds) for i, slot in enumerate(slots) if slot.ready]


def champion(rounds: list[list[Slot]]) -> int | None:
    final = rounds[-1][0]
    return final.winner if final.decided else None

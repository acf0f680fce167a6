"""Each seat's code for one round (S4): six characters printed beside the player's name on the
table's card, proving the seat at the table's page for a guest who has no login. Player numbers
are public, so a number proves nothing; the code is a keyed hash of the round, the table, the
seat and the player sitting there, so it works for that seat of that table in that round only,
and a re-pairing or a swap gives the moved players new codes. Nothing is stored: the card and
the check compute the same code from the site's secret key."""

from datetime import timedelta

from django.utils.crypto import constant_time_compare, salted_hmac

# No 0/O, 1/I/L: a code is read off paper and typed on a phone.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6

# Wrong codes allowed in any CODE_WINDOW (S4): per table, however many phones try, and per
# device cookie, whatever table it tries. A whole hall shares one network address, so the
# address is never counted. Six characters of 31 give about 900 million codes: at 8 wrong
# tries a table every 10 minutes, guessing one in a 45-minute round is about 1 in 25 million.
WRONG_CODES_PER_TABLE = 8
WRONG_CODES_PER_DEVICE = 5
CODE_WINDOW = timedelta(minutes=10)


def seat_code(*, round_id: int, match_id: int, order: int, player_id: int) -> str:
    digest = salted_hmac(
        "events.seat_code", f"{round_id}:{match_id}:{order}:{player_id}", algorithm="sha256"
    ).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(LENGTH):
        number, index = divmod(number, len(ALPHABET))
        letters.append(ALPHABET[index])
    return "".join(letters)


def code_of(match, seat) -> str:
    return seat_code(
        round_id=match.round_id, match_id=match.pk, order=seat.order, player_id=seat.player_id
    )


def normalised(typed: str) -> str:
    """What a person typed, as the codes are written: capitals, no spaces or dashes."""
    return "".join(typed.split()).replace("-", "").upper()


def matches_code(match, seat, typed: str) -> bool:
    return constant_time_compare(code_of(match, seat), normalised(typed))

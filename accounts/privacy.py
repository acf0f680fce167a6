"""How a player is named where others see them (privacy rules P1–P4 in docs/rules.md).

Pure: plain values in, a name out, no database. A page decides the *style* for who is looking
(``league.privacy.name_style``); this module turns a player's stored facts into the name that
style allows.

Words used here:
- public names: the institution's setting (a league may be stricter) for how players are named
  to people who are not signed in as its members: ``full`` (as the player gave it), ``short``
  (first name and last initial) or ``number`` ("Player 4821").
- withheld: the student asked the registrar to withhold their directory information, or chose it
  on their profile: everywhere but their own matches and staff pages they are "Player N".
- anonymous number: the player's number at their institution, the N above; it never changes and
  never reveals who they are. On the pages of a club or an event, where every entrant has a
  player number (the one on their card), that number stands instead: "Player 7" is the same
  person on the wall, the card, the projector and event.json.
- erased: the player asked to be forgotten; their name is gone and they are "Former player N".
"""

FULL = "full"
SHORT = "short"
NUMBER = "number"
STYLES = [FULL, SHORT, NUMBER]  # from the most open to the strictest

# Anonymous numbers: a profile's id mapped one-to-one onto numbers from 1000 up, shuffled inside
# each block of 9,000 so neighbouring numbers say nothing about who signed up first.
_BLOCK = 9000
_STRIDE = 4973  # shares no factor with 9,000 (2³·3²·5³), so each block maps onto itself


def anonymous_number(profile_id: int) -> int:
    """The number a player goes by where their name is not shown: unique for every profile (and
    so within an institution), four digits for the first nine thousand profiles."""
    block, within = divmod(profile_id - 1, _BLOCK)
    return 1000 + block * _BLOCK + (within * _STRIDE) % _BLOCK


def profile_id_of(number: int) -> int | None:
    """Whose anonymous number this is (staff look up "Player 4821"); None below 1000."""
    if number < 1000:
        return None
    block, scrambled = divmod(number - 1000, _BLOCK)
    return block * _BLOCK + (scrambled * pow(_STRIDE, -1, _BLOCK)) % _BLOCK + 1


def anonymous_name(profile_id: int, number: int | None = None) -> str:
    """ "Player N": their player number where the page is about a club or an event that gave
    them one, else their institution's anonymous number."""
    return f"Player {number or anonymous_number(profile_id)}"


def former_name(profile_id: int, number: int | None = None) -> str:
    return f"Former player {number or anonymous_number(profile_id)}"


# A forgotten user keeps their row (the audit trail points at it) under an address that is no
# address: it names their profile, so the trail can call them "Former player N" without a query.
ERASED_DOMAIN = "erased.invalid"


def erased_address(profile_id: int) -> str:
    return f"former-{profile_id}@{ERASED_DOMAIN}"


def former_name_of_address(address: str) -> str | None:
    """ "Former player N" for a forgotten user's placeholder address, else None."""
    local, _, domain = address.partition("@")
    if domain != ERASED_DOMAIN or not local.removeprefix("former-").isdigit():
        return None
    return former_name(int(local.removeprefix("former-")))


def stricter(first: str, second: str) -> str:
    """The stricter of two styles; an empty one (a league that follows its institution) yields."""
    if not first:
        return second
    if not second:
        return first
    return max(first, second, key=STYLES.index)


def short_name(full_name: str) -> str:
    """First name and last initial: "Ada Quill" → "Ada Q."; one word stays as it is."""
    words = full_name.split()
    if len(words) < 2:
        return full_name
    return f"{words[0]} {words[-1][0]}."


def shown_name(
    profile_id: int,
    full_name: str,
    *,
    style: str,
    withheld: bool,
    erased: bool = False,
    number: int | None = None,
) -> str:
    """The name a page shows for this player under ``style`` (P1–P3). ``full_name`` is the name
    as the player gave it (``PlayerProfile.name``); ``number``, their player number at the club
    or event the page is about, which they go by there when shown by number."""
    if erased:
        return former_name(profile_id, number)
    if withheld or style == NUMBER or "@" in full_name:  # a user with no name goes by e-mail
        return anonymous_name(profile_id, number)
    if style == SHORT:
        return short_name(full_name)
    return full_name

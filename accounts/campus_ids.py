"""Campus IDs (L3, L10) as a student types them, a card scanner sends them and the registrar's
file holds them: one way to tidy one and one way to check it against the institution's pattern.
Signup, registration, the roster import, the front desk and the admin all call these. Plain
Python: the roster parser uses them without a database.
"""

import functools
import re
import unicodedata

# The longest campus ID stored (PlayerProfile.campus_id, RosterEntry.campus_id): a pattern such
# as \w+ would otherwise let a longer one through to a database error.
MAX_LENGTH = 40


def normalize_campus_id(raw: str | None) -> str:
    """The form a campus ID is stored, compared and looked up in: NFKC-normalised, so that the
    full-width digits of a phone's Asian keyboard (３４５６７８９) become the ASCII ones
    (3456789) the card and the roster hold, and without the spaces and line ends around it (a
    scanner ends with Enter, spreadsheets pad cells). Letters keep their case and nothing inside
    is removed: the institution's pattern says what an ID may hold."""
    return unicodedata.normalize("NFKC", raw or "").strip()


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern:
    # ASCII: \d is 0-9 and \w is [A-Za-z0-9_], never the digits and letters of other scripts.
    return re.compile(pattern, re.ASCII)


def campus_id_fits(campus_id: str, pattern: str) -> bool:
    """Whether the whole (tidied) campus ID matches the institution's pattern. Only ASCII fits,
    whatever the pattern: Arabic-Indic digits (٣٤٥٦٧٨٩) pass a Unicode \\d{7} but are a second
    spelling of an ID that would never match the roster or the card."""
    if not campus_id.isascii() or len(campus_id) > MAX_LENGTH:
        return False
    return _compiled(pattern).fullmatch(campus_id) is not None


# --- A pattern in words (the admin says what the institution's pattern means) ---------------------

# The character classes a simple pattern is made of: (one, many, example characters).
_CLASSES = {
    r"\d": ("digit", "digits", "1234567890"),
    "[0-9]": ("digit", "digits", "1234567890"),
    "[A-Z]": ("capital letter", "capital letters", "ABCDEFGHIJ"),
    "[a-z]": ("lower-case letter", "lower-case letters", "abcdefghij"),
    "[A-Za-z]": ("letter", "letters", "AbCdEfGhIj"),
    "[a-zA-Z]": ("letter", "letters", "aBcDeFgHiJ"),
}
_TOKEN = re.compile(
    r"(?P<what>\\d|\[0-9\]|\[A-Z\]|\[a-z\]|\[A-Za-z\]|\[a-zA-Z\]|[A-Za-z0-9]|\\?-)"
    r"(?P<times>\{(?P<low>\d+)(?:,(?P<high>\d+))?\}|\+|\?)?"
)
_NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def _count(n: int) -> str:
    return _NUMBERS[n] if n < len(_NUMBERS) else str(n)


def _part(what: str, times: str | None, low: str | None, high: str | None) -> tuple[str, str]:
    """One piece of a pattern in words, and its piece of the example."""
    if what in _CLASSES:
        one, many, sample = _CLASSES[what]
    else:
        literal = what.lstrip("\\")
        one, many = ("a hyphen", "hyphens") if literal == "-" else (f'"{literal}"', f'"{literal}"s')
        sample = literal * 10
    article = "an" if one[0] in "aeiou" else "a"
    one_said = one if one.startswith(("a ", '"')) else f"{article} {one}"
    if not times:
        return one_said, sample[0]
    if times == "+":
        return f"one or more {many}", sample[:3]
    if times == "?":
        return f"an optional {one.removeprefix('a ')}", sample[0]
    first = int(low)
    if high is None:
        words = one_said if first == 1 else f"{_count(first)} {many}"
    else:
        last = int(high)
        joined = "or" if last == first + 1 else "to"
        words = f"{_count(first)} {joined} {_count(last)} {many}"
    return words, (sample * (first // len(sample) + 1))[:first]


def pattern_in_words(pattern: str) -> str | None:
    """A simple campus-ID pattern said in words with an example: \\d{7} → "seven digits, for
    example 1234567"; [A-Z]\\d{6} → "a capital letter and six digits, for example A123456".
    None where the pattern is not one of these simple ones (its hint in words is the director's
    to write)."""
    body = pattern.removeprefix("^").removesuffix("$")
    parts, position = [], 0
    while position < len(body):
        token = _TOKEN.match(body, position)
        if token is None:
            return None
        parts.append(_part(token["what"], token["times"], token["low"], token["high"]))
        position = token.end()
    if not parts or len(parts) > 6:
        return None
    words = [said for said, _ in parts]
    example = "".join(sample for _, sample in parts)
    if not campus_id_fits(example, pattern):
        return None
    said = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
    return f"{said}, for example {example}"

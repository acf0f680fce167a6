"""What a campus identity provider said about a person, read through the institution's
attribute mapping, and what it means for eligibility (L10). Pure functions: no database, no
request; `accounts.services.campus_sign_in` acts on what they decide."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .campus_ids import campus_id_fits, normalize_campus_id

STUDENT = "student"


@dataclass(frozen=True)
class CampusIdentity:
    uid: str
    email: str
    campus_id: str
    first_name: str
    last_name: str
    affiliations: tuple[str, ...]
    affiliation_sent: bool


@dataclass(frozen=True)
class Refusal:
    """Why a sign-in is refused, in words for the person signing in."""

    message: str


def _values(raw: Mapping[str, object], names: Sequence[str]) -> list[str]:
    """The values of the first of `names` the provider sent with a non-empty value."""
    for name in names:
        value = raw.get(name)
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        values = [str(v).strip() for v in values if v is not None and str(v).strip()]
        if values:
            return values
    return []


def _first(raw, names) -> str:
    values = _values(raw, names)
    return values[0] if values else ""


def _affiliations(raw, names) -> tuple[list[str], bool]:
    """Every affiliation sent under any of `names`, lower case, scope removed
    (student@example.edu is student); and whether any was sent at all."""
    found: list[str] = []
    sent = False
    for name in names:
        values = _values(raw, [name])
        if values:
            sent = True
        for value in values:
            for word in value.replace(",", " ").split():
                word = word.split("@", 1)[0].lower()
                if word and word not in found:
                    found.append(word)
    return found, sent


def read_identity(
    raw: Mapping[str, object], mapping: Mapping[str, Sequence[str]]
) -> CampusIdentity:
    """The person as the institution's mapping reads the provider's attributes or claims."""
    affiliations, sent = _affiliations(raw, mapping.get("affiliation", ()))
    return CampusIdentity(
        uid=_first(raw, mapping.get("uid", ())),
        email=_first(raw, mapping.get("email", ())).lower(),
        campus_id=normalize_campus_id(_first(raw, mapping.get("campus_id", ()))),
        first_name=_first(raw, mapping.get("first_name", ())),
        last_name=_first(raw, mapping.get("last_name", ())),
        affiliations=tuple(affiliations),
        affiliation_sent=sent,
    )


def _within(domain: str, parent: str) -> bool:
    return domain == parent or domain.endswith("." + parent)


def identity_refusal(
    identity: CampusIdentity,
    *,
    institution_name: str,
    domains: Sequence[str],
    campus_id_pattern: str,
    campus_id_required: bool,
) -> Refusal | None:
    """Why this identity may not sign in to the institution, or None."""
    if not identity.uid:
        return Refusal(
            f"{institution_name}'s sign-in did not say who you are (no stable identifier was "
            "sent). Ask the campus IT office to release it to this site."
        )
    if not identity.email or "@" not in identity.email:
        return Refusal(
            f"{institution_name}'s sign-in sent no e-mail address. Ask the campus IT office to "
            "release it to this site."
        )
    domain = identity.email.rsplit("@", 1)[1]
    if not any(_within(domain, d) for d in domains):
        return Refusal(
            f"{identity.email} is not an address of {institution_name}: it accepts addresses "
            f"at {' or '.join(domains)}."
        )
    if campus_id_required and not identity.campus_id:
        return Refusal(
            f"{institution_name}'s sign-in sent no campus ID, which it needs here. Ask the "
            "campus IT office to release it to this site."
        )
    if identity.campus_id and not campus_id_fits(identity.campus_id, campus_id_pattern):
        return Refusal(
            f"The campus ID {institution_name}'s sign-in sent does not look like one of its "
            "campus IDs."
        )
    return None


def is_student(identity: CampusIdentity, *, students_without_affiliation: bool) -> bool:
    """The campus says this person is a student: an affiliation of student, or, where the
    provider sends no affiliation at all, the institution's choice."""
    if not identity.affiliation_sent:
        return students_without_affiliation
    return STUDENT in identity.affiliations


# What a sign-in does to a student's eligibility for one current season.
GRANT = "grant"  # eligible, on the campus's word
WITHDRAW = "withdraw"  # back to pending: the campus no longer says student
KEEP = "keep"  # nothing changes


def sign_in_decision(
    *, student: bool, campus_word_enough: bool, current_status: str, current_source: str
) -> str:
    """What one sign-in does to eligibility for one season current at sign-in (L10).

    - A student, where the campus's word is enough, becomes eligible, unless the season's
      standing was decided by the director (whose ruling outranks everything) or already says
      eligible.
    - Someone the campus no longer calls a student, whom the campus's word had made eligible,
      goes back to pending; eligibility from the roster, a picture-ID check or the director
      stands.
    - Anything else changes nothing."""
    if current_source == "director":
        return KEEP
    if student:
        if campus_word_enough and current_status != "eligible":
            return GRANT
        return KEEP
    if current_source == "campus" and current_status == "eligible":
        return WITHDRAW
    return KEEP

"""Institutions, seasons, people and eligibility (rule L10), one module per idea: institutions,
people, eligibility, front_desk, sign_in, records. Every model is named here too, so `from accounts.models
import X` and the migrations' `accounts.models.validate_regex` hold.

Words used here:
- campus ID: the number on a student's campus card, unique within an institution; its shape is
  the institution's `campus_id_pattern` (for example seven digits).
- season: a term (fall, spring); eligibility is decided per season.
- roster: the registrar's list of enrolled campus IDs for a season, imported as CSV.
- ID check: front-desk staff saw a current campus picture ID during that season.
- eligibility: `eligible`, `pending` (nothing decided yet: the default) or `ineligible`, per
  student and season, with where it came from. A director's ruling outranks roster and ID checks.
"""

from .campus_sign_in import CampusSignIn, NoAffiliation, Protocol
from .eligibility import (
    Eligibility,
    EligibilityEvent,
    EligibilitySource,
    EligibilityStatus,
    IdCheck,
    PendingStudentsChange,
    RosterEntry,
    Season,
)
from .front_desk import Checkout, EquipmentItem, EquipmentKind
from .institutions import Institution, PublicNames, validate_regex, validate_timezone
from .people import GUEST_NAME_MAX, PlayerProfile, User, UserManager, player_name
from .records import DataExport
from .sign_in import SignInLink, UserSession

__all__ = [
    "CampusSignIn",
    "NoAffiliation",
    "Protocol",
    "GUEST_NAME_MAX",
    "Checkout",
    "DataExport",
    "Eligibility",
    "EligibilityEvent",
    "EligibilitySource",
    "EligibilityStatus",
    "EquipmentItem",
    "EquipmentKind",
    "IdCheck",
    "Institution",
    "PendingStudentsChange",
    "PlayerProfile",
    "PublicNames",
    "RosterEntry",
    "Season",
    "SignInLink",
    "User",
    "UserManager",
    "UserSession",
    "player_name",
    "validate_regex",
    "validate_timezone",
]

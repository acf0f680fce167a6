"""Every change to people, roles and eligibility, one module per concern;
`from accounts.services import X` reaches them all.

- `eligibility`: the L10 gate (`require_eligible`), ID checks, the director's rulings
- `guests`: who a guest is (a visitor at a club night or an event)
- `people`: signing up, roles, one's own name and e-mail address, e-mail preferences, the
  calendar link
- `roster`: importing the registrar's roster
- `exports`: the record of every download of personal data (P6)
- `front_desk`: lending equipment (L3)
- `sign_in`: one-time sign-in links, volunteers' accounts

Keyword-only functions taking model instances and the acting user; each runs in one transaction
and raises a DomainError on a broken rule.
"""

from .eligibility import (
    MESSAGE_REASON_REQUIRED,
    eligibility_rule,
    id_check_record,
    require_eligible,
    set_eligibility,
)
from .exports import export_record
from .forgetting import forget_refusal, profile_forget, profiles_forget
from .front_desk import equipment_check_in, equipment_check_out
from .guests import guest_for
from .people import (
    ROLE_GROUPS,
    calendar_token_rotate,
    email_change_confirm,
    email_change_request,
    email_refusal,
    name_change,
    name_withhold,
    preferences_update,
    role_grant,
    role_revoke,
    student_register,
)
from .roster import RosterImportResult, RosterRejected, roster_import
from .sign_in import (
    SignInLinkError,
    sign_in_link_create,
    sign_in_link_find,
    sign_in_link_redeem,
    volunteer_account_create,
)

__all__ = [
    "forget_refusal",
    "profile_forget",
    "profiles_forget",
    "MESSAGE_REASON_REQUIRED",
    "ROLE_GROUPS",
    "RosterImportResult",
    "RosterRejected",
    "SignInLinkError",
    "calendar_token_rotate",
    "email_change_confirm",
    "email_change_request",
    "email_refusal",
    "eligibility_rule",
    "equipment_check_in",
    "equipment_check_out",
    "export_record",
    "guest_for",
    "id_check_record",
    "name_change",
    "name_withhold",
    "preferences_update",
    "require_eligible",
    "role_grant",
    "role_revoke",
    "roster_import",
    "set_eligibility",
    "sign_in_link_create",
    "sign_in_link_find",
    "sign_in_link_redeem",
    "student_register",
    "volunteer_account_create",
]

"""The director's home. Every admin here is scoped: a director sees and changes only their own
institution's rows (site admins see all), and writes go through the services."""

from core.admin import INSTITUTION_PATHS

from ..models import Institution, PlayerProfile, Season, User

# Importing each module registers its admins: people (institutions, users, profiles),
# eligibility (seasons and the roster, ID checks, rulings), front_desk (equipment), records
# (the exports of personal data).
from . import campus_sign_in, eligibility, front_desk, people, records  # noqa: F401

# The drop-downs of every scoped admin offer only the director's institution's rows of these.
INSTITUTION_PATHS.update(
    {
        Institution: "pk",
        Season: "institution_id",
        PlayerProfile: "institution_id",
        User: "profile__institution_id",
    }
)

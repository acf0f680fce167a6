from django.apps import AppConfig

from accounts.roles import DIRECTORS


class RatingsConfig(AppConfig):
    """Players' ratings (R1–R5): every game with scores, rated by period."""

    name = "ratings"
    verbose_name = "Ratings"
    # Directors read the ratings in the admin; runs and imports change them, never a hand edit.
    role_permissions = {
        DIRECTORS: {
            model: ["view"]
            for model in ("ratingperiod", "ratingchange", "playerrating", "importedrating")
        }
    }

    def ready(self):
        from core import page_sections

        from .history import history_section
        from .match_changes import match_changes_section

        # A player's rating history on their profile and a match's rating changes on the match
        # page (R1): accounts and matches cannot import ratings, so ratings adds its sections.
        page_sections.register("profile", history_section)
        page_sections.register("match", match_changes_section)

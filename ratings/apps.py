from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Players' ratings (R1–R3): every game with scores, rated by period."""

    name = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        # A player's rating history on their profile (R1): accounts cannot import ratings, so
        # ratings adds its section to accounts' page.
        from accounts import profile_sections

        from .history import history_section

        profile_sections.register(history_section)

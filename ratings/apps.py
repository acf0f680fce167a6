from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Players' ratings (R1–R3): every game with scores, rated by period."""

    name = "ratings"
    verbose_name = "Ratings"

from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Club nights (E4): check-in, seating at tables of four and three, cards, closing a night."""

    name = "clubs"
    verbose_name = "Club nights"

    def ready(self):
        from league import formats

        from .format import CLUB

        formats.register(CLUB)
        from . import receivers  # noqa: F401  (connects to matches' seat_confirmed)

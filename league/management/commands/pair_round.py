from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from core.errors import DomainError
from league.club import check_in, seat_night
from league.models import Entry, League, LeagueFormat, Round


class Command(BaseCommand):
    help = (
        "Seat a club night (E4) among the checked-in entrants; prints TABLE<TAB>player numbers "
        "in seat order, the first keeping score."
    )

    def add_arguments(self, parser):
        parser.add_argument("--league", required=True, help="league slug")
        parser.add_argument("--round", type=int, help="night number (default: first unseated)")
        parser.add_argument("--seed", type=int, default=1, help="the draw's seed (default 1)")
        parser.add_argument(
            "--all-entrants", action="store_true", help="check in every active entrant first"
        )
        parser.add_argument("--repair", action="store_true", help="re-seat a seated night")

    def handle(self, *args, league, round, seed, all_entrants, repair, **options):
        league_row = League.objects.filter(slug=league).first()
        if league_row is None:
            raise CommandError(f"No league {league!r}.")
        if league_row.format != LeagueFormat.CLUB:
            raise CommandError(f"{league}: only club nights are seated here so far.")
        nights = Round.objects.filter(league=league_row).order_by("number")
        if round is None:
            night = nights.filter(matches__isnull=True).first()
            if night is None:
                raise CommandError(f"{league}: every night is seated.")
        else:
            night = nights.filter(number=round).first()
            if night is None:
                raise CommandError(f"{league} has no night {round}.")
        try:
            # One transaction: a refused seating checks nobody in.
            with transaction.atomic():
                if all_entrants:
                    for entry in Entry.objects.filter(
                        league=league_row, withdrawn_at__isnull=True
                    ).select_related("player"):
                        check_in(actor=None, as_system=True, round=night, player=entry.player)
                tables = seat_night(
                    actor=None, as_system=True, round=night, seed=seed, repair=repair
                )
        except DomainError as error:
            raise CommandError(error.message) from None
        numbers = dict(
            Entry.objects.filter(league=league_row).values_list("player_id", "player_number")
        )
        for table, match in enumerate(tables, start=1):
            seats = match.seats.order_by("order").values_list("player_id", flat=True)
            self.stdout.write(f"{table}\t{','.join(str(numbers[p]) for p in seats)}")

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from core.values import INT_MAX, SMALLINT_MAX, whole_number_argument
from league import formats
from league.addresses import league_argument, league_of_command
from league.models import Entry, Round


class Command(BaseCommand):
    help = (
        "Pair an event's round (E3) or seat a club night (E4) among the checked-in entrants; "
        "prints TABLE<TAB>player numbers in seat order, the first keeping score, then "
        "BYE<TAB>player number for a bye."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--league", required=True, type=league_argument, help="league: SLUG or CAMPUS/SLUG"
        )
        parser.add_argument(
            "--round",
            type=whole_number_argument(1, SMALLINT_MAX),
            help="round or night number (default: the first not paired or seated)",
        )
        parser.add_argument(
            "--seed",
            type=whole_number_argument(0, INT_MAX),
            default=1,
            help=f"the draw's seed, 0 to {INT_MAX} (default 1)",
        )
        parser.add_argument(
            "--all-entrants", action="store_true", help="check in every active entrant first"
        )
        parser.add_argument("--repair", action="store_true", help="re-seat a seated night")

    def handle(self, *args, league, round, seed, all_entrants, repair, **options):
        league_row = league_of_command(league)
        spec = formats.of(league_row.format)
        if spec.pair_round is None:
            raise CommandError(f"{league} is not an event or a club: its rounds are drawn.")
        rounds = Round.objects.filter(league=league_row).order_by("number")
        if round is None:
            round_ = rounds.filter(matches__isnull=True).first()
            if round_ is None:
                raise CommandError(f"{league}: every {spec.round_name} is {spec.paired}.")
        else:
            round_ = rounds.filter(number=round).first()
            if round_ is None:
                raise CommandError(f"{league} has no {spec.round_name} {round}.")
        try:
            tables, byes = spec.pair_round(
                league=league_row, round=round_, seed=seed, repair=repair, all_entrants=all_entrants
            )
        except DomainError as error:
            raise CommandError(error.message) from None
        numbers = dict(
            Entry.objects.filter(league=league_row).values_list("player_id", "player_number")
        )
        for table, players in tables:
            self.stdout.write(f"{table}\t{','.join(str(numbers[p]) for p in players)}")
        for player in byes:
            self.stdout.write(f"BYE\t{numbers[player]}")

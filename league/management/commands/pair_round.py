from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from core.errors import DomainError
from core.values import INT_MAX, SMALLINT_MAX, slug_argument, whole_number_argument
from league.club import check_in, seat_night
from league.events import pair_event_round
from league.models import Entry, League, LeagueFormat, Round
from matches.models import Seat


class Command(BaseCommand):
    help = (
        "Pair an event's round (E3) or seat a club night (E4) among the checked-in entrants; "
        "prints TABLE<TAB>player numbers in seat order, the first keeping score, then "
        "BYE<TAB>player number for a bye."
    )

    def add_arguments(self, parser):
        parser.add_argument("--league", required=True, type=slug_argument, help="league slug")
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
        league_row = League.objects.filter(slug=league).first()
        if league_row is None:
            raise CommandError(f"No league {league!r}.")
        if league_row.format == LeagueFormat.EVENT:
            return self._pair_event(league_row, round, seed, all_entrants, repair)
        if league_row.format != LeagueFormat.CLUB:
            raise CommandError(f"{league} is not an event or a club: its rounds are drawn.")
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

    def _pair_event(self, league, number, seed, all_entrants, repair):
        rounds = Round.objects.filter(league=league).order_by("number")
        if number is None:
            round_ = rounds.filter(matches__isnull=True).first()
            if round_ is None:
                raise CommandError(f"{league.slug}: every round is paired.")
        else:
            round_ = rounds.filter(number=number).first()
            if round_ is None:
                raise CommandError(f"{league.slug} has no round {number}.")
        try:
            tables, byes = pair_event_round(
                actor=None,
                as_system=True,
                round=round_,
                seed=seed,
                repair=repair,
                all_entrants=all_entrants,
            )
        except DomainError as error:
            raise CommandError(error.message) from None
        numbers = dict(
            Entry.objects.filter(league=league).values_list("player_id", "player_number")
        )
        seats = {}
        for match_id, player_id in (
            Seat.objects.filter(match__round=round_)
            .order_by("match_id", "order")
            .values_list("match_id", "player_id")
        ):
            seats.setdefault(match_id, []).append(str(numbers[player_id]))
        for match in tables:
            self.stdout.write(f"{match.table}\t{','.join(seats[match.pk])}")
        for match in byes:
            self.stdout.write(f"BYE\t{seats[match.pk][0]}")

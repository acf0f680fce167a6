from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError, RowsRejected
from core.values import read_bounded
from league import formats
from league.addresses import league_argument, league_of_command


class Command(BaseCommand):
    help = (
        "Import an event's entrants (E3: name, category, team, player_number, email, campus_id) "
        "or a club's members (E4: name, player_number, email, campus_id) from a CSV. Bad rows "
        "are reported by line and skipped (--strict: nothing imported)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="CSV with a header line naming the columns")
        parser.add_argument(
            "--league",
            required=True,
            type=league_argument,
            help="the event's or club's slug, or CAMPUS/SLUG",
        )
        parser.add_argument("--strict", action="store_true", help="import nothing if a row is bad")

    def handle(self, *args, file, league, strict, **options):
        event = league_of_command(league)
        spec = formats.of(event.format)
        if spec.import_entrants is None:
            raise CommandError(
                f"{league} is a {event.get_format_display().lower()}: entrants are imported "
                "into events and clubs."
            )
        try:
            data = read_bounded(file, max_bytes=spec.entrants_max_bytes)
        except DomainError as error:
            raise CommandError(error.message) from None
        try:
            result = spec.import_entrants(league=event, data=data, strict=strict)
        except RowsRejected as error:
            for line, reason in error.rejected:
                self.stderr.write(f"{file}:{line}: refused: {reason}")
            raise CommandError(f"{file}: {error.message}") from None
        except DomainError as error:
            raise CommandError(f"{file}: {error.message}") from None
        for line, reason in result.rejected:
            self.stderr.write(f"{file}:{line}: refused: {reason}")
        self.stdout.write(result.summary())

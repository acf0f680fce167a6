import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.errors import RosterFileError
from accounts.models import Institution, Season
from accounts.services import RosterRejected, roster_import
from core.errors import DomainError
from core.values import slug_argument


class Command(BaseCommand):
    help = "Import the registrar's roster CSV for a season; listed students become eligible (L10)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="CSV with a header line naming a campus_id column")
        parser.add_argument(
            "--institution", required=True, type=slug_argument, help="institution slug"
        )
        parser.add_argument("--season", required=True, type=slug_argument, help="season slug")
        parser.add_argument("--encoding", default="utf-8", help="file encoding (default utf-8)")
        parser.add_argument(
            "--strict", action="store_true", help="import nothing if any row is bad"
        )

    def handle(self, *args, file, institution, season, encoding, strict, **options):
        try:
            institution_row = Institution.objects.get(slug=institution)
        except Institution.DoesNotExist:
            raise CommandError(f"No institution with slug {institution!r}.") from None
        try:
            season_row = Season.objects.get(institution=institution_row, slug=season)
        except Season.DoesNotExist:
            raise CommandError(f"No season {season!r} at {institution_row.slug}.") from None
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{file}: no such file.")

        show_progress = self.stdout.isatty() if hasattr(self.stdout, "isatty") else False

        def progress(done: int, total: int) -> None:
            end = "\n" if done >= total else ""
            if show_progress or done >= total:
                self.stdout.write(f"\rimported {done}/{total} rows", ending=end)
                self.stdout.flush()

        try:
            result = roster_import(
                actor=None,
                season=season_row,
                data=path.read_bytes(),
                encoding=encoding,
                strict=strict,
                progress=progress,
            )
        except RosterRejected as error:
            for line, reason in error.rejected:
                self.stderr.write(f"{file}:{line}: refused: {reason}")
            raise CommandError(f"{file}: {error.message}") from None
        except (RosterFileError, DomainError) as error:
            raise CommandError(f"{file}: {error.message}") from None
        for line, reason in result.rejected:
            self.stderr.write(f"{file}:{line}: refused: {reason}")
        self.stdout.write(result.summary())
        if result.rejected:
            sys.stdout.flush()

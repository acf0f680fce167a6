"""`python manage.py import_ratings FILE --institution SLUG`: known ratings (R5), by campus ID
or e-mail, as their players' starting ratings; refused lines are named by number, and then the
institution is rated so the new ratings show at once. The same file again changes nothing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.errors import RosterFileError
from accounts.models import Institution
from accounts.services import RosterRejected
from core.errors import DomainError
from core.values import slug_argument
from league.rating_runs import rate
from ratings.imports import ratings_import


class Command(BaseCommand):
    help = "Import known ratings (a CSV with campus_id or email, and rating) as starting ratings."

    def add_arguments(self, parser):
        parser.add_argument("file", help="CSV with a header: campus_id or email, rating")
        parser.add_argument(
            "--institution", required=True, type=slug_argument, help="institution slug"
        )
        parser.add_argument("--encoding", default="utf-8", help="file encoding (default utf-8)")
        parser.add_argument(
            "--strict", action="store_true", help="import nothing if any line is refused"
        )

    def handle(self, *args, file, institution, encoding, strict, **options):
        try:
            institution_row = Institution.objects.get(slug=institution)
        except Institution.DoesNotExist:
            raise CommandError(f"No institution with slug {institution!r}.") from None
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{file}: no such file.")
        try:
            result = ratings_import(
                actor=None,
                institution=institution_row,
                data=path.read_bytes(),
                encoding=encoding,
                strict=strict,
            )
        except RosterRejected as error:
            for line, reason in error.rejected:
                self.stderr.write(f"{file}:{line}: refused: {reason}")
            raise CommandError(f"{file}: {error.message}") from None
        except (RosterFileError, DomainError) as error:
            raise CommandError(f"{file}: {error.message}") from None
        for line, reason in result.refused:
            self.stderr.write(f"{file}:{line}: refused: {reason}")
        self.stdout.write(result.line())
        if result.imported:
            self.stderr.write(f"rating {institution_row.slug} …")
            self.stdout.write(f"{institution_row.slug}: {rate(institution_row).line()}")

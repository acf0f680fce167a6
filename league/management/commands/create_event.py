import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Season
from core.errors import DomainError
from core.values import read_bounded, slug_argument
from league import formats
from league.addresses import league_argument, league_of_command
from league.file_schema import MAX_BYTES, parse_league_file
from league.settings_files import LeagueSlugTaken, league_file_export, league_file_save


class Command(BaseCommand):
    help = (
        "Create an event (E3) or a club league (E4) from its settings file, or with --export "
        "print a league's file for next year."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="the league's settings, JSON")
        parser.add_argument("--institution", type=slug_argument, help="institution slug")
        parser.add_argument("--season", type=slug_argument, help="season slug")
        parser.add_argument("--update", action="store_true", help="change an existing league")
        parser.add_argument(
            "--export",
            metavar="LEAGUE",
            type=league_argument,
            help="print this league's file (SLUG or CAMPUS/SLUG)",
        )
        parser.add_argument(
            "--slug",
            type=slug_argument,
            help="with --export: the new league's slug (letters, digits, hyphens, underscores)",
        )
        parser.add_argument(
            "--date", help="with --export: the event's day or the club's first night, YYYY-MM-DD"
        )

    def handle(self, *args, file, institution, season, update, export, slug, date, **options):
        if export:
            self.stdout.write(json.dumps(self._export(export, slug, date), indent=2))
            return
        if not (file and institution and season):
            raise CommandError(
                "Give FILE.json --institution SLUG --season SLUG, or --export SLUG.", returncode=2
            )
        season_row = Season.objects.filter(institution__slug=institution, slug=season).first()
        if season_row is None:
            raise CommandError(f"No season {season!r} at {institution!r}.")
        try:
            data = parse_league_file(read_bounded(file, max_bytes=MAX_BYTES))
        except DomainError as error:
            raise CommandError(f"{file}: {error.message}") from None
        try:
            league, changed = league_file_save(
                actor=None, season=season_row, data=data, update=update, as_system=True
            )
        except LeagueSlugTaken as error:
            raise CommandError(f"{error.message} To change it, add --update.") from None
        except DomainError as error:
            raise CommandError(error.message) from None
        saved = "saved" if changed else "unchanged"
        self.stdout.write(f"{saved} {league.slug}: {formats.of(league.format).describe(league)}")

    def _export(self, slug, new_slug, first):
        league = league_of_command(slug)
        try:
            first_night = date.fromisoformat(first) if first else None
        except ValueError:
            raise CommandError(f"--date {first!r}: use YYYY-MM-DD.", returncode=2) from None
        try:
            return league_file_export(league, slug=new_slug, day=first_night)
        except OverflowError:
            raise CommandError(
                f"--date {first}: the nights after the first would fall past the year 9999."
            ) from None
        except DomainError as error:
            raise CommandError(error.message) from None

import json
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Season
from core.errors import DomainError
from league.club_files import club_league_save, export_club_file, read_club_file
from league.event_files import event_league_save, export_event_file, read_event_file
from league.models import League, LeagueFormat


class Command(BaseCommand):
    help = (
        "Create an event (E3) or a club league (E4) from its settings file, or with --export "
        "print a league's file for next year."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="the league's settings, JSON")
        parser.add_argument("--institution", help="institution slug")
        parser.add_argument("--season", help="season slug")
        parser.add_argument("--update", action="store_true", help="change an existing league")
        parser.add_argument("--export", metavar="SLUG", help="print this league's file")
        parser.add_argument("--slug", help="with --export: the new league's slug")
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
            data = json.loads(Path(file).read_text(encoding="utf-8-sig"))
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}.") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{file}: not JSON (line {error.lineno}).") from None
        is_event = isinstance(data, dict) and data.get("format") == LeagueFormat.EVENT
        try:
            if is_event:
                league, changed = event_league_save(
                    actor=None,
                    season=season_row,
                    event=read_event_file(data),
                    update=update,
                    as_system=True,
                )
            else:
                league, changed = club_league_save(
                    actor=None,
                    season=season_row,
                    club=read_club_file(data),
                    update=update,
                    as_system=True,
                )
        except DomainError as error:
            raise CommandError(error.message) from None
        saved = "saved" if changed else "unchanged"
        rounds = league.rounds.count()
        if is_event:
            categories = league.categories.count()
            self.stdout.write(
                f"{saved} {league.slug}: event on {league.event_date}, {rounds} rounds, "
                f"{categories} categories"
            )
        else:
            self.stdout.write(f"{saved} {league.slug}: club, {rounds} nights")

    def _export(self, slug, new_slug, first):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"No league {slug!r}.")
        try:
            first_night = date.fromisoformat(first) if first else None
        except ValueError:
            raise CommandError(f"--date {first!r}: use YYYY-MM-DD.", returncode=2) from None
        try:
            if league.format == LeagueFormat.EVENT:
                return export_event_file(league, slug=new_slug, day=first_night)
            return export_club_file(league, slug=new_slug, first_night=first_night)
        except DomainError as error:
            raise CommandError(error.message) from None

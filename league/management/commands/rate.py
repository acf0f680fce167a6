"""`python manage.py rate`: rate the periods that are ready and not yet rated as they stand (R1,
R2), as the nightly does, for one institution or all; `--from-scratch` rates every period again.
Running it twice changes nothing."""

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Institution
from league.rating_runs import rate


class Command(BaseCommand):
    help = "Rate every game with scores, by period (R1, R2); nothing changes if nothing did."

    def add_arguments(self, parser):
        parser.add_argument("--institution", help="an institution's slug (default: every one)")
        parser.add_argument("--from-scratch", action="store_true", help="rate every period again")

    def handle(self, *args, **options):
        institutions = Institution.objects.order_by("slug")
        if options["institution"]:
            institutions = institutions.filter(slug=options["institution"])
            if not institutions.exists():
                raise CommandError(f"No institution has the slug {options['institution']!r}.")
        for institution in institutions:
            self.stderr.write(f"rating {institution.slug} …")
            run = rate(institution, from_scratch=options["from_scratch"])
            self.stdout.write(f"{institution.slug}: {run.line()}")

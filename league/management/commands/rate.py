"""`python manage.py rate`: rate the periods that are ready and not yet rated as they stand (R1,
R2), as the nightly does, for one institution or all; `--from-scratch` rates every period again.
Running it twice changes nothing. An institution whose rating fails (or stops at a period that
fails) is said on standard error as `SLUG: LEAGUE: rating: reason`; the others are rated, then
the command exits 1."""

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Institution
from core.isolation import attempt
from league.models import League
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
        failed = 0
        for institution in institutions:
            self.stderr.write(f"rating {institution.slug} …")
            run, failure = attempt(
                "rating",
                lambda institution=institution: rate(
                    institution, from_scratch=options["from_scratch"]
                ),
                about=institution.slug,
            )
            if failure is not None:
                self.stderr.write(f"{institution.slug}: -: rating: {failure.reason}")
                failed += 1
                continue
            self.stdout.write(f"{institution.slug}: {run.line()}")
            if run.stopped is not None:
                league = League.objects.filter(pk=run.stopped.league_id).first()
                slug = league.slug if league else "-"
                self.stderr.write(
                    f"{institution.slug}: {slug}: rating: {run.stopped.failure.reason}"
                )
                failed += 1
        if failed:
            raise CommandError(
                f"The rating of {failed} institution(s) failed or stopped (above; the errors in "
                "the log); every other was rated."
            )

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Institution
from core.values import shown, slug_argument
from league.nightly import NightlySummary, run_for_institution
from league.nights import NightBusy, NightlyRefused, night_refusal

# The nightly counts days and hours on from its day: far enough from date.min and date.max.
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)


class Command(BaseCommand):
    help = (
        "Run the nightly pipeline now, synchronously (the code Celery beat runs at 02:00): double "
        "forfeits, auto-confirmation, standings, brackets, reminders, digest. Prints one summary line."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--today",
            help="act as the 02:00 run of this day (YYYY-MM-DD), in each institution's time zone",
        )
        parser.add_argument(
            "--institution", type=slug_argument, help="only this institution (slug)"
        )

    def handle(self, *args, today=None, institution=None, **options):
        day = None
        if today:
            try:
                day = date.fromisoformat(today)
            except ValueError:
                raise CommandError(
                    f"--today {shown(today)} is not a date: use YYYY-MM-DD."
                ) from None
            if not FIRST_DAY <= day <= LAST_DAY:
                raise CommandError(f"--today {today}: a day from {FIRST_DAY} to {LAST_DAY}.")
        institutions = Institution.objects.order_by("slug")
        if institution:
            institutions = institutions.filter(slug=institution)
            if not institutions.exists():
                raise CommandError(f"No institution with slug {institution!r}.")
        # Asked of every institution first, so a refused day changes nothing anywhere.
        refusals = [
            night_refusal(institution=each, today=day or each.today()) for each in institutions
        ]
        if refusals := [refusal for refusal in refusals if refusal]:
            raise CommandError("\n".join(refusals))
        total = NightlySummary()
        for each in institutions:
            try:
                summary = run_for_institution(institution=each, today=day or each.today())
            except (NightlyRefused, NightBusy) as refused:  # a later night, or a worker, began
                raise CommandError(str(refused)) from None
            self.stderr.write(f"{each.slug}: {summary.line()}")
            for failure in summary.failures:  # SLUG: LEAGUE: STEP: reason
                self.stderr.write(failure.line())
            total += summary
        self.stdout.write(total.line())
        if total.failures:
            # Every other league's night is done: exit 1 for those that failed.
            raise CommandError(
                f"{len(total.failures)} step(s) failed for a league (listed above, the errors "
                "in the log); every other league's night ran. The next night tries them again."
            )

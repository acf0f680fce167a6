from django.core.management.base import BaseCommand, CommandError

from core.tasks import undelivered
from core.values import INT_MAX, whole_number_argument
from league.demo import build_demo


class Command(BaseCommand):
    help = (
        "Create the demo institution on example.edu (a director, front-desk staff, students) and "
        "print one line per demo login: ROLE EMAIL PASSWORD. Running it again reuses what is there."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--players",
            type=whole_number_argument(4, 200_000),
            default=12,
            help="number of students, 4 to 200,000 (default 12)",
        )
        parser.add_argument(
            "--leagues",
            type=whole_number_argument(0, 10_000),
            default=1,
            help="round-robin leagues of eight students (default 1)",
        )
        parser.add_argument(
            "--matches",
            type=whole_number_argument(0, 2_000_000),
            default=0,
            help="make the leagues after the first in bulk, about this many matches in all "
            "(the benchmark: --players 20000 --leagues 200 --matches 200000)",
        )
        parser.add_argument(
            "--seed",
            type=whole_number_argument(0, INT_MAX),
            default=1,
            help=f"random seed, 0 to {INT_MAX} (default 1)",
        )

    def handle(self, *args, players, leagues, matches, seed, **options):
        if players < 4:
            raise CommandError("--players must be at least 4.")
        if leagues < 0:
            raise CommandError("--leagues cannot be negative.")
        if matches < 0:
            raise CommandError("--matches cannot be negative.")
        if leagues and players < 12:
            raise CommandError("A league needs eight eligible students: use --players 12 or more.")

        def progress(step: str, done: int, total: int) -> None:
            if total >= 1000:
                self.stderr.write(f"\r{step}: {done}/{total}", ending="\n" if done >= total else "")
                self.stderr.flush()

        # The demo's e-mails (proposals, reports, disputes) go into the outbox already expired, so
        # no worker ever sends them: its addresses on example.edu are made up.
        with undelivered():
            logins = build_demo(
                players=players, leagues=leagues, matches=matches, seed=seed, progress=progress
            )
        for login in logins:
            self.stdout.write(f"{login.role} {login.email} {login.password}")

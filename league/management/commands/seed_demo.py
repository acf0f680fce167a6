from django.core.management.base import BaseCommand, CommandError

from core.tasks import undelivered
from core.values import INT_MAX, whole_number_argument
from league.demo import build_demo
from league.demo_campuses import build_campuses


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
            "--campuses",
            type=whole_number_argument(0, 1000),
            default=0,
            help="also this many campuses beside the demo institution, each an institution of "
            "its own (ten times the benchmark: --players 60000 --leagues 500 --matches 500000 "
            "--campuses 100)",
        )
        parser.add_argument(
            "--campus-players",
            type=whole_number_argument(12, 200_000),
            default=2000,
            help="students of each campus (default 2,000)",
        )
        parser.add_argument(
            "--campus-leagues",
            type=whole_number_argument(0, 10_000),
            default=15,
            help="leagues of each campus, made in bulk (default 15)",
        )
        parser.add_argument(
            "--campus-matches",
            type=whole_number_argument(0, 2_000_000),
            default=15_000,
            help="about this many matches at each campus (default 15,000)",
        )
        parser.add_argument(
            "--seed",
            type=whole_number_argument(0, INT_MAX),
            default=1,
            help=f"random seed, 0 to {INT_MAX} (default 1)",
        )

    def handle(self, *args, players, leagues, matches, seed, campuses, **options):
        if players < 4:
            raise CommandError("--players must be at least 4.")
        if leagues < 0:
            raise CommandError("--leagues cannot be negative.")
        if matches < 0:
            raise CommandError("--matches cannot be negative.")
        if leagues and players < 12:
            raise CommandError("A league needs eight eligible students: use --players 12 or more.")

        def progress(step: str, done: int, total: int) -> None:
            if total >= 1000 or step == "campuses":
                self.stderr.write(f"\r{step}: {done}/{total}", ending="\n" if done >= total else "")
                self.stderr.flush()

        # The demo's e-mails (proposals, reports, disputes) go into the outbox already expired, so
        # no worker ever sends them: its addresses on example.edu are made up.
        with undelivered():
            logins = build_demo(
                players=players, leagues=leagues, matches=matches, seed=seed, progress=progress
            )
            build_campuses(
                count=campuses,
                players=options["campus_players"],
                leagues=options["campus_leagues"],
                matches=options["campus_matches"],
                seed=seed,
                progress=progress,
            )
        for login in logins:
            self.stdout.write(f"{login.role} {login.email} {login.password}")

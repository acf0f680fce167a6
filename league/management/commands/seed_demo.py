from django.core.management.base import BaseCommand, CommandError

from league.demo import build_demo


class Command(BaseCommand):
    help = (
        "Create the demo institution on example.edu (a director, front-desk staff, students) and "
        "print one line per demo login: ROLE EMAIL PASSWORD. Running it again reuses what is there."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--players", type=int, default=12, help="number of students (default 12)"
        )
        parser.add_argument(
            "--leagues",
            type=int,
            default=0,
            help="number of leagues; leagues arrive with the league app, so this is not used yet",
        )
        parser.add_argument("--seed", type=int, default=1, help="random seed for names (default 1)")

    def handle(self, *args, players, leagues, seed, **options):
        if players < 4:
            raise CommandError("--players must be at least 4.")

        def progress(step: str, done: int, total: int) -> None:
            if total >= 1000:
                self.stderr.write(f"\r{step}: {done}/{total}", ending="\n" if done >= total else "")
                self.stderr.flush()

        for login in build_demo(players=players, seed=seed, progress=progress):
            self.stdout.write(f"{login.role} {login.email} {login.password}")

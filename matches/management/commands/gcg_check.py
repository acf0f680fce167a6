"""``python manage.py gcg_check FILE [--verify] [--challenge-rule RULE]``: check a GCG game record.

Prints one line per player, ``NICKNAME<TAB>FINAL_TOTAL``, then one line per problem found,
naming its line. Exit status: 0 consistent, 1 problems found, 2 unreadable file (the message on
stderr names the line). A CommandError would exit 1, so the command exits with SystemExit.
"""

from django.core.management.base import BaseCommand

from core.errors import BadValue
from core.values import read_bounded
from matches.scrabble import CHALLENGE_RULES, GcgError, check_gcg

EXIT_PROBLEMS = 1
EXIT_UNREADABLE = 2
MAX_BYTES = 5 * 1024 * 1024  # a game record is a few kilobytes


class Command(BaseCommand):
    help = (
        "Check a GCG game record's arithmetic (cumulative totals, end-of-game lines); with "
        "--verify also replay the board and check every move's score."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the .gcg file to check")
        parser.add_argument(
            "--verify",
            action="store_true",
            help="replay every move on the board and check its score and legality",
        )
        parser.add_argument(
            "--challenge-rule",
            choices=CHALLENGE_RULES,
            help="the game's challenge rule (G5): a challenge bonus kept under another rule is "
            "a problem; without it either kind of bonus line is accepted",
        )

    def handle(self, *args, file, verify, challenge_rule=None, **options):
        try:
            data = read_bounded(file, max_bytes=MAX_BYTES)
        except BadValue as error:
            self.stderr.write(f"gcg_check: cannot read {error.message}")
            raise SystemExit(EXIT_UNREADABLE) from None
        try:
            report = check_gcg(data, verify=verify, challenge_rule=challenge_rule)
        except GcgError as error:
            self.stderr.write(f"gcg_check: {file}: {error}")
            raise SystemExit(EXIT_UNREADABLE) from None
        for nickname, total in report.final_totals.items():
            self.stdout.write(f"{nickname}\t{total}")
        for problem in report.problems:
            self.stdout.write(str(problem))
        if options["verbosity"] >= 2:
            # Not on stdout: its lines are the public contract.
            rule = report.end_rule or "cannot be told"
            self.stderr.write(f"end-of-game rule: {rule}")
        if report.problems:
            raise SystemExit(EXIT_PROBLEMS)

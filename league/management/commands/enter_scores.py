from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.errors import BadValue, DomainError
from core.values import (
    INT_MAX,
    SMALLINT_MAX,
    csv_rows,
    decoded,
    read_bounded,
    whole_number,
    whole_number_argument,
)
from league import formats
from league.addresses import league_argument, league_of_command
from league.models import Entry, Round
from league.selectors import round_tables
from matches.models import GameEnd, Match, MatchStatus
from matches.results import MAX_SCORE, MIN_SCORE
from matches.services import CardConflict, card_enter

ENDED = {
    "out": GameEnd.WENT_OUT,
    "no_play": GameEnd.NO_PLAY_POSSIBLE,
    "passes": GameEnd.SCORELESS_TURNS,
    "time": GameEnd.TIME_UP,
}
REQUIRED = ("table", "player_number", "score")
MAX_BYTES = 5 * 1024 * 1024  # an evening's cards are a few kilobytes


class Command(BaseCommand):
    help = (
        "Enter a round's table score cards from a CSV (E3, E4): final at once; a table already "
        "entered with the same scores is skipped, with different ones a conflict left as it was."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--league", required=True, type=league_argument, help="league: SLUG or CAMPUS/SLUG"
        )
        parser.add_argument(
            "--round",
            required=True,
            type=whole_number_argument(1, SMALLINT_MAX),
            help="night number",
        )
        parser.add_argument(
            "file", help="CSV: table, player_number, score[, ended, pre_adjustment]"
        )

    def handle(self, *args, league, round, file, **options):
        league_row = league_of_command(league)
        night = (
            Round.objects.filter(league=league_row, number=round).select_related("league").first()
        )
        if night is None:
            raise CommandError(f"{league} has no round {round}.")
        try:
            records = list(csv_rows(decoded(read_bounded(file, max_bytes=MAX_BYTES))))
        except BadValue as error:
            raise CommandError(f"{file}: {error.message}") from None
        header = [name.strip() for name in (records[0][1] if records else [])]
        missing = [name for name in REQUIRED if name not in header]
        if missing:
            raise CommandError(f"{file}: the header lacks {', '.join(missing)}.")
        if len(records) < 2:
            raise CommandError(f"{file}: no cards, only the header: nothing to enter.")
        # Tables by number (a bye is no table); a club night seated before tables were
        # numbered counts them in order.
        tables = {
            match.table or position: match
            for position, match in enumerate(
                [m for m in round_tables(night) if m.status != MatchStatus.BYE], start=1
            )
        }
        numbers = dict(
            Entry.objects.filter(league=night.league).values_list("player_number", "player_id")
        )
        cards: dict[int, dict[int, tuple]] = {}
        bad: set[int] = set()
        problems = 0

        def refuse(line, table, reason):
            nonlocal problems
            problems += 1
            self.stderr.write(f"{file}:{line}: {reason}")
            if table is not None:
                bad.add(table)

        for line, cells in records[1:]:
            row = dict(zip(header, cells, strict=False))
            try:
                table = whole_number(row.get("table", ""), what="table", low=1, high=SMALLINT_MAX)
            except BadValue as error:
                refuse(line, None, error.message.removesuffix("."))
                continue
            if table not in tables:
                refuse(line, table, f"round {round} has no table {table}")
                continue
            try:
                number = whole_number(
                    row.get("player_number", ""), what="player_number", low=1, high=INT_MAX
                )
                score = whole_number(
                    row.get("score", ""), what="score", low=MIN_SCORE, high=MAX_SCORE
                )
                pre = (
                    whole_number(
                        row["pre_adjustment"], what="pre_adjustment", low=MIN_SCORE, high=MAX_SCORE
                    )
                    if (row.get("pre_adjustment") or "").strip()
                    else None
                )
            except BadValue as error:
                refuse(line, table, error.message.removesuffix("."))
                continue
            ended = (row.get("ended") or "").strip() or "out"
            if ended not in ENDED:
                refuse(line, table, f"ended {ended!r} is not one of {', '.join(ENDED)}")
                continue
            seats = {seat.player_id: seat.order for seat in tables[table].seats.all()}
            player = numbers.get(number)
            order = seats.get(player)
            if order is None:
                refuse(line, table, f"player {number} does not sit at table {table}")
                continue
            if order in cards.setdefault(table, {}):
                refuse(line, table, f"player {number} is listed twice at table {table}")
                continue
            cards[table][order] = (score, pre, ENDED[ended], line, player)

        entered = scores = skipped = conflicts = 0
        spec = formats.of(night.league.format)
        enter = spec.enter_card or card_enter
        for table, by_seat in sorted(cards.items()):
            if table in bad:
                continue
            match = tables[table]
            seats = sorted(seat.order for seat in match.seats.all())
            if sorted(by_seat) != seats:
                refuse(
                    min(row[3] for row in by_seat.values()),
                    table,
                    f"table {table} needs a row for each of its {len(seats)} seats",
                )
                continue
            values = [by_seat[order][0] for order in seats]
            pres = [by_seat[order][1] for order in seats]
            ended_by = {row[2] for row in by_seat.values()}
            if len(ended_by) > 1:
                refuse(
                    min(row[3] for row in by_seat.values()),
                    table,
                    f"table {table}'s rows disagree on how the game ended",
                )
                continue
            current = [seat.score for seat in match.seats.order_by("order")]
            if match.status in (MatchStatus.CONFIRMED, MatchStatus.RESOLVED) and current == values:
                skipped += 1
                continue
            try:
                enter(
                    actor=None,
                    as_system=True,
                    match=match,
                    scores=values,
                    pre_adjustment=pres if any(p is not None for p in pres) else (),
                    ended_by=ended_by.pop(),
                    # Checked again under the table's lock: a swap since the rows were read
                    # refuses the card rather than moving it onto other players.
                    players=[by_seat[order][4] for order in seats],
                    # The card is the table's signed record and the range is still checked.
                    unusual_confirmed=True,
                )
            except CardConflict as error:
                conflicts += 1
                self.stderr.write(f"{file}: table {table}: {error.message}")
                continue
            except DomainError as error:
                refuse(min(row[3] for row in by_seat.values()), table, error.message)
                continue
            except Match.DoesNotExist:
                refuse(
                    min(row[3] for row in by_seat.values()),
                    table,
                    f"round {round} was paired again meanwhile: check table {table}'s players",
                )
                continue
            entered += 1
            scores += len(values)
        early = spec.not_begun(night.league, night, timezone.now()) if spec.not_begun else ""
        if entered and early:  # typed from paper after the game: taken, and said
            self.stderr.write(f"{file}: {early}: its cards were entered before it began.")
        self.stdout.write(
            f"tables={entered} scores={scores} skipped={skipped} conflicts={conflicts}"
        )
        if conflicts or problems:
            raise CommandError(
                f"{conflicts} conflicts, {problems} bad rows: those tables were left as they were."
            )

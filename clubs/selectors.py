"""Reading a club night (E4): who the check-in list shows, who is here, who is seated, which
table a latecomer may join, which table waits for its card to be confirmed, which table's
printed card is out of date."""

from dataclasses import dataclass, field

from django.db.models import Max

from league.door import search_filter
from league.models import CheckIn, Entry, Round
from league.selectors import round_tables
from matches.models import (
    OPEN_STATUSES,
    AuditEvent,
    Match,
    MatchStatus,
    ReportStatus,
    ResultReport,
)
from matches.services import MAX_SEATS

from .models import CardsPrinted, NightClosing

# What a table's printed card shows changes only when the table is seated or someone joins it.
CARD_CHANGES = ("created", "seat_added")


@dataclass
class CheckInList:
    rows: list[dict]
    present_count: int
    tables: list[Match]
    # Checked in (still in the club) without a table, by player number: the latecomers.
    waiting: list[Entry] = field(default_factory=list)
    # A table has a result or a report: the night can no longer be seated again.
    played: bool = False
    # Tables of two or three without a result or report, the smallest first: one latecomer
    # joins the smallest that has not started.
    joinable: list[Match] = field(default_factory=list)
    closing: NightClosing | None = None
    # A table reported from a phone, waiting for the other seats: its report, by table id.
    waiting_card: dict[int, ResultReport] = field(default_factory=dict)
    # When the cards were last printed, and the tables seated or joined since (by id).
    printed: CardsPrinted | None = None
    reprint: set[int] = field(default_factory=set)
    # The table number of everyone seated tonight, by player profile id.
    table_of: dict[int, int] = field(default_factory=dict)


def check_in_list(night: Round, query: str | None) -> CheckInList:
    """The club's players the search found (`query` None: nobody, "": everybody), each with
    whether they are here and seated, and the night's tables with their seats."""
    entries = (
        Entry.objects.filter(league=night.league, withdrawn_at__isnull=True)
        .select_related("player__user")
        .order_by("player_number", "player__user__last_name")
    )
    if query is None:
        entries = entries.none()
    elif query:
        entries = entries.filter(search_filter(query))
    present = set(CheckIn.objects.filter(round=night).values_list("entry_id", flat=True))
    tables = round_tables(night)
    table_of = {
        seat.player_id: table.table or number
        for number, table in enumerate(tables, start=1)
        for seat in table.seats.all()
    }
    reports = (
        list(ResultReport.objects.filter(match__round=night).prefetch_related("scores"))
        if tables
        else []
    )
    reported = {report.match_id for report in reports}
    waiting = (
        [
            entry
            for entry in Entry.objects.filter(
                league=night.league, withdrawn_at__isnull=True, check_ins__round=night
            )
            .select_related("player__user")
            .order_by("player_number", "id")
            if entry.player_id not in table_of
        ]
        if tables
        else []
    )
    printed = CardsPrinted.objects.filter(night=night).first() if tables else None
    changed = (
        dict(
            AuditEvent.objects.filter(match__round=night, action__in=CARD_CHANGES)
            .values("match")
            .annotate(last=Max("created_at"))
            .values_list("match", "last")
        )
        if printed is not None
        else {}
    )
    return CheckInList(
        rows=[
            {
                "entry": entry,
                "here": entry.pk in present,
                "seated": entry.player_id in table_of,
                "table": table_of.get(entry.player_id),
            }
            for entry in entries
        ],
        present_count=len(present),
        tables=tables,
        waiting=waiting,
        played=any(t.status not in OPEN_STATUSES or t.pk in reported for t in tables),
        joinable=sorted(
            (
                table
                for table in tables
                if 2 <= len(table.seats.all()) < MAX_SEATS
                and table.status in OPEN_STATUSES
                and table.pk not in reported
            ),
            key=lambda table: len(table.seats.all()),  # stable: table order within a size
        ),
        closing=NightClosing.objects.filter(night=night).first(),
        waiting_card={
            report.match_id: report
            for report in reports
            if report.status == ReportStatus.PENDING
            and report.match_id in {t.pk for t in tables if t.status == MatchStatus.REPORTED}
        },
        printed=printed,
        reprint={
            match_id
            for match_id, last in changed.items()
            if printed is not None and last > printed.printed_at
        },
        table_of=table_of,
    )

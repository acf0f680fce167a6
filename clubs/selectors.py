"""Reading a club night (E4): who the check-in list shows, who is here, who is seated."""

from dataclasses import dataclass, field

from league.door import search_filter
from league.models import CheckIn, Entry, Round
from league.selectors import round_tables
from matches.models import OPEN_STATUSES, Match, ResultReport

from .models import NightClosing


@dataclass
class CheckInList:
    rows: list[dict]
    present_count: int
    tables: list[Match]
    # Checked in (still in the club) without a table, by player number: the latecomers.
    waiting: list[Entry] = field(default_factory=list)
    # A table has a result or a report: the night can no longer be seated again.
    played: bool = False
    # Tables of three without a result or report: one latecomer may join one.
    joinable: list[Match] = field(default_factory=list)
    closing: NightClosing | None = None


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
    seated = {seat.player_id for table in tables for seat in table.seats.all()}
    reported = set(ResultReport.objects.filter(match__round=night).values_list("match", flat=True))
    waiting = (
        [
            entry
            for entry in Entry.objects.filter(
                league=night.league, withdrawn_at__isnull=True, check_ins__round=night
            )
            .select_related("player__user")
            .order_by("player_number", "id")
            if entry.player_id not in seated
        ]
        if tables
        else []
    )
    return CheckInList(
        rows=[
            {"entry": entry, "here": entry.pk in present, "seated": entry.player_id in seated}
            for entry in entries
        ],
        present_count=len(present),
        tables=tables,
        waiting=waiting,
        played=any(t.status not in OPEN_STATUSES or t.pk in reported for t in tables),
        joinable=[
            table
            for table in tables
            if len(table.seats.all()) == 3
            and table.status in OPEN_STATUSES
            and table.pk not in reported
        ],
        closing=NightClosing.objects.filter(night=night).first(),
    )

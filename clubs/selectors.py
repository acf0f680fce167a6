"""Reading a club night (E4): who the check-in list shows, who is here, who is seated."""

from dataclasses import dataclass

from league.door import search_filter
from league.models import CheckIn, Entry, Round
from league.selectors import round_tables
from matches.models import Match


@dataclass
class CheckInList:
    rows: list[dict]
    present_count: int
    tables: list[Match]


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
    return CheckInList(
        rows=[
            {"entry": entry, "here": entry.pk in present, "seated": entry.player_id in seated}
            for entry in entries
        ],
        present_count=len(present),
        tables=tables,
    )

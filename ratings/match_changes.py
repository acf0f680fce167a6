"""A match's rating changes on the match page (R1): once the period holding it is rated, each
seat's rating before and after that period (a round, a club's night or a whole event: the change
counts every game of the period, not this one alone)."""

from . import history
from .models import RatingChange, is_provisional


def match_changes_section(match, seats) -> dict | None:
    """The match page's section, in one query; nothing until the period is rated."""
    if not match.is_final:
        return None
    changes = {
        change.player_id: change
        for change in RatingChange.objects.select_related("period").filter(
            period__key__in=[f"r{match.round_id}", f"l{match.league_id}"],
            period__league_id=match.league_id,
            player_id__in=[seat.player_id for seat in seats],
        )
    }
    if not changes:
        return None
    rows = []
    for seat in seats:
        change = changes.get(seat.player_id)
        if change is not None:
            rows.append(
                {
                    "name": seat.player.name,
                    "before": round(change.rating_before),
                    "after": round(change.rating),
                    "change": history.change_words(change.rating_before, change.rating),
                    "provisional": is_provisional(change.deviation),
                }
            )
    whole = next(iter(changes.values())).period.round_id is None
    period = "event" if whole else history.round_word(match.league.format)
    return {"template": "ratings/_match_changes.html", "rows": rows, "period": period}

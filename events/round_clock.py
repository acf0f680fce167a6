"""A round's clock in words (E3, E5's periods, G3): where a round stands at a moment, from its
day, its periods and the campus's time zone. Pure."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from core.clock import duration_words


@dataclass(frozen=True)
class RoundClock:
    """Where a round stands at a moment (E5's periods): "before" it, in "period" N with
    `minutes_left`, in the "break" before period N, or "over"."""

    state: str
    period: int = 0
    minutes_left: int = 0
    round: int = 0  # the round's number, where known
    periods: int = 1  # how many periods the round has

    def __str__(self) -> str:
        left = duration_words(self.minutes_left)
        if self.state == "period":
            # A round of one period is just the round; "period" only where there are several.
            if self.periods > 1:
                of = f"period {self.period} of {self.periods}"
                return (
                    f"Round {self.round}, {of}: {left} left"
                    if self.round
                    else f"{of.capitalize()}: {left} left"
                )
            return f"Round {self.round}: {left} left" if self.round else f"{left} left"
        if self.state == "break":
            return f"Break: period {self.period} starts in {left}"
        if self.state == "before":
            return f"Starts in {left}"
        return "Time is up: play on until every player has had the same number of turns"


def round_clock(day, periods, tz, now: datetime, number: int = 0) -> RoundClock:
    """Round `number`'s clock from its day, its periods [(starts, minutes)] and the time zone."""
    spans = []
    for starts, minutes in periods:
        begin = datetime.combine(day, starts, tzinfo=tz)
        spans.append((begin, begin + timedelta(minutes=minutes)))
    if not spans:
        return RoundClock("over")

    def minutes_until(moment) -> int:
        return max(0, -(-int((moment - now).total_seconds()) // 60))  # rounded up

    for period, (begin, end) in enumerate(spans, start=1):
        state = "period" if begin <= now < end else "before" if period == 1 else "break"
        if now < end:
            left = minutes_until(end if state == "period" else begin)
            return RoundClock(state, period, left, round=number, periods=len(spans))
    return RoundClock("over", round=number, periods=len(spans))

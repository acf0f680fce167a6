"""The director's bulk actions on a round (L5, L8): extend the deadlines of its open matches, or
rule its unplayed matches as double forfeits or forfeits. Each match still goes through the one
ruling service, ``rule`` (``Ruling.EXTEND``, ``DOUBLE_FORFEIT``, ``FORFEIT``), so each gets its
own audit event, its e-mail to the players and its announcement, exactly as a ruling on that one
match would.

The director confirms a list of matches they were shown (``match_ids``). Under one transaction
the round's rows among them are locked in id order, then each is read again: a match reported,
disputed or made final since the director looked (by a player, another director or the nightly
job's L8) is left as it is and counted as skipped. The nightly claims its rows with
``SKIP LOCKED`` and a condition on the deadline, so it never forfeits a match this holds, and a
match the nightly holds is waited for and then found final here.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts import roles
from core.errors import NotAllowed

from ..models import LIVE_REPORT_STATUSES, OPEN_STATUSES, Match, ResultReport
from .kernel import MatchError, require_reason
from .rulings import Ruling, rule

# An extension longer than this is a new round, not an extension.
MAX_EXTENSION_DAYS = 60


@dataclass
class RoundChange:
    """What a bulk action did: the matches it changed and those it left as they were."""

    changed: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)

    def sentence(self, done: str) -> str:
        """`done`: what happened to the changed ones ("deadline extended")."""
        text = f"{_matches(len(self.changed))}: {done}."
        if self.skipped:
            text += (
                f" {_matches(len(self.skipped))} left as they were: reported, ruled or"
                " final since you looked, or already due later."
            )
        return text


def _matches(count: int) -> str:
    return f"{count} match{'' if count == 1 else 'es'}"


def round_open_matches(round, match_ids: Collection[int] | None = None):
    """The round's matches still to be played or reported (unscheduled or scheduled, no live
    report): what both bulk actions change. `match_ids` narrows them to those the director
    confirmed."""
    live_report = ResultReport.objects.filter(match=OuterRef("pk"), status__in=LIVE_REPORT_STATUSES)
    matches = (
        Match.objects.filter(round=round, status__in=OPEN_STATUSES)
        .exclude(Exists(live_report))
        .order_by("id")
    )
    if match_ids is not None:
        matches = matches.filter(id__in=list(match_ids))
    return matches


def extended_deadline(
    deadline: datetime, *, days: int | None, until: date | None, tz, now: datetime
) -> datetime:
    """The new deadline: the end of `until` in the institution's zone (midnight, as a round's
    deadline is), or `days` more, counted from the later of the deadline and the end of today
    (a match already past its deadline gets `days` from tonight, not a date already gone)."""
    if until is not None:
        return datetime.combine(until + timedelta(days=1), time.min, tzinfo=tz)
    end_of_today = datetime.combine(
        timezone.localtime(now, tz).date() + timedelta(days=1), time.min, tzinfo=tz
    )
    # Wall-clock days in the institution's zone: a midnight deadline stays midnight across a
    # change to or from daylight saving time.
    return max(timezone.localtime(deadline, tz), end_of_today) + timedelta(days=days)


def extension_of(deadline: datetime, *, days, until, tz, now) -> datetime | None:
    """The deadline the extension gives a match due at `deadline`, or None where it would not
    move it (a match already due later than the date given)."""
    new_deadline = extended_deadline(deadline, days=days, until=until, tz=tz, now=now)
    return new_deadline if new_deadline > max(deadline, now) else None


def extension_refusal(*, days: int | None, until: date | None, tz, now) -> str | None:
    """Why an extension by `days` or to `until` cannot be made, or None: the confirm page asks
    before showing the matches, the service raises the same sentence."""
    if (days is None) == (until is None):
        return "Give either a number of days or a date, not both."
    if days is not None and not 1 <= days <= MAX_EXTENSION_DAYS:
        return f"Extend by 1 to {MAX_EXTENSION_DAYS} days."
    if until is not None and until < timezone.localtime(now, tz).date():
        return "The new deadline must be today or later."
    return None


def _require_director(actor, round) -> None:
    if not roles.is_director_of(actor, round.league.season.institution):
        raise NotAllowed("Only the league's director can do that.")


def _locked(round, match_ids) -> tuple[list[Match], set[int]]:
    """The confirmed matches of the round, locked in id order (a transition in flight, the
    nightly's claim among them, is waited for), and the ids of those still open once locked."""
    locked = list(
        Match.objects.select_for_update(of=("self",))
        .filter(round=round, id__in=list(match_ids))
        .order_by("id")
    )
    still_open = round_open_matches(round, [m.pk for m in locked]).values_list("id", flat=True)
    return locked, set(still_open)


def round_deadlines_extend(
    *,
    actor,
    round,
    match_ids: Collection[int],
    reason: str,
    days: int | None = None,
    until: date | None = None,
    now=None,
) -> RoundChange:
    """Extend the deadline of each of the round's `match_ids` still open (``round_open_matches``)
    by `days` or to the end of `until` (``extended_deadline``), through ``rule`` with
    ``Ruling.EXTEND``. A match reported, ruled or final meanwhile, or already due later, is
    skipped."""
    now = now or timezone.now()
    reason = require_reason(reason)
    tz = round.league.season.institution.tz
    if refusal := extension_refusal(days=days, until=until, tz=tz, now=now):
        raise MatchError(refusal)
    _require_director(actor, round)
    result = RoundChange()
    with transaction.atomic():
        locked, still_open = _locked(round, match_ids)
        for match in locked:
            new_deadline = extension_of(match.deadline, days=days, until=until, tz=tz, now=now)
            if match.pk not in still_open or new_deadline is None:
                result.skipped.append(match.pk)
                continue
            rule(
                actor=actor,
                match=match,
                ruling=Ruling.EXTEND,
                reason=reason,
                new_deadline=new_deadline,
                now=now,
            )
            result.changed.append(match.pk)
    result.skipped += sorted(set(match_ids) - set(result.changed) - set(result.skipped))
    return result


def round_unplayed_rule(
    *,
    actor,
    round,
    match_ids: Collection[int],
    reason: str,
    forfeiting: Mapping[int, Sequence[int]] | None = None,
    now=None,
) -> RoundChange:
    """Rule each of the round's `match_ids` still unplayed (``round_open_matches``: neither
    reported nor final) through ``rule``: a forfeit by the seats `forfeiting` names for that
    match id (L5), otherwise a double forfeit, a loss for every seat (L8). A match reported,
    ruled or final meanwhile is skipped."""
    now = now or timezone.now()
    reason = require_reason(reason)
    forfeiting = dict(forfeiting or {})
    if stray := set(forfeiting) - set(match_ids):
        raise MatchError(f"Forfeits named for matches not being ruled: {sorted(stray)}.")
    _require_director(actor, round)
    result = RoundChange()
    with transaction.atomic():
        locked, still_open = _locked(round, match_ids)
        for match in locked:
            if match.pk not in still_open:
                result.skipped.append(match.pk)
                continue
            seats = list(forfeiting.get(match.pk, ()))
            try:
                rule(
                    actor=actor,
                    match=match,
                    ruling=Ruling.FORFEIT if seats else Ruling.DOUBLE_FORFEIT,
                    reason=reason,
                    forfeiting=seats,
                    now=now,
                )
            except MatchError as error:
                # Nothing of the round changes: the director corrects that match and confirms again.
                raise MatchError(f"Match {match.pk}: {error.message}") from error
            result.changed.append(match.pk)
    result.skipped += sorted(set(match_ids) - set(result.changed) - set(result.skipped))
    return result

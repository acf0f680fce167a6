"""May this player join this league now? One answer for the leagues page (the Join button,
greyed out with the sentence beside it) and for the services that add the entry (the error they
raise), worked out from facts the caller already holds: no query here, so the page can ask it
of every league it lists.

The order of the checks is the order a student is best told them: that they are in already;
then what is true of the league for everyone (registration closed, rounds drawn, no place
left), which nothing the student does will change; last their own eligibility (L10), which they
can do something about, so they are not sent to the front desk for a league they could not join
anyway.
"""

from dataclasses import dataclass
from datetime import date

from accounts.models import EligibilityStatus

from . import formats
from .models import League


@dataclass(frozen=True)
class JoinRefusal:
    reason: str  # the sentence shown beside the Join button or raised by the service
    not_eligible: bool = False  # refused under L10 (the service raises NotEligible)
    waitlist: bool = False  # full before the draw: the student may join the waitlist instead


def join_refusal(
    league: League,
    *,
    joined: bool,
    players: int,
    started: bool,
    eligibility: str,
    today: date | None = None,
    enrolled_name: str | None = None,
    waiting: bool = False,
) -> JoinRefusal | None:
    """Why the player may not join `league`, or None when they may.

    `joined`: they have an active entry; `players`: the league's active entries; `started`: its
    rounds are drawn; `eligibility`: their status for the league's season (EligibilityStatus);
    `waiting`: they are on its waitlist. A student asks for themself (the sentences say "you").
    The director enrolling a player passes `enrolled_name`, the player's name: the sentences
    name them, and the registration deadline does not hold the director back; a director's
    enrolment after the draw (a late entry) passes `started=False` here and is decided by the
    service, which knows the rounds.

    A full league before its draw refuses with `waitlist=True` when the league keeps a waitlist
    and the student may join it: eligible (L10, so that a place that frees can be given at
    once), registration open, not waiting already."""
    subject = f"{enrolled_name} is" if enrolled_name else "You are"
    if not league.campus_only and formats.of(league.format).open_to_anyone:
        # Open to everyone (an event, L10, E3): a student enters as a guest may, whatever their
        # eligibility.
        eligibility = EligibilityStatus.ELIGIBLE
    if joined:
        return JoinRefusal(f"{subject} already in {league}.")
    if waiting and not started and not enrolled_name:
        return JoinRefusal(
            f"You are on the waitlist for {league}: the first place that frees before the draw "
            "is yours, in the order of the waitlist."
        )
    if not enrolled_name and not league.registration_open(today):
        deadline = league.season.registration_deadline
        return JoinRefusal(f"Registration for {league} closed on {deadline:%b %-d}.")
    if started:
        if waiting:
            return JoinRefusal(
                f"{league} started without you: its rounds were drawn before a place came free."
            )
        return JoinRefusal(f"{league} has started: its rounds are already drawn.")
    if players >= league.capacity:
        if league.has_waitlist and not enrolled_name and eligibility == EligibilityStatus.ELIGIBLE:
            return JoinRefusal(
                f"{league} is full ({league.capacity} players): join the waitlist and the first "
                "place that frees before the draw is yours, in the order of the waitlist.",
                waitlist=True,
            )
        return JoinRefusal(f"{league} is full ({league.capacity} players).")
    if eligibility == EligibilityStatus.ELIGIBLE:
        return None
    season = league.season.name
    if eligibility == EligibilityStatus.INELIGIBLE:
        reason = f"{subject} not eligible to play in {season}"
    else:
        reason = f"{subject} not eligible yet for {season}"
    if not enrolled_name:
        reason += ": see your home page"  # it says what to do about it
    return JoinRefusal(f"{reason}.", not_eligible=True)

"""A club night's table cards (E4, G9): when they were last printed, so a table seated or
joined since is marked for a reprint; and the director confirming a card a scorekeeper
reported from a phone, as reported. Each in one transaction with the night's row locked, as
every service of ``clubs.services``."""

from django.db import transaction
from django.utils import timezone

from league.models import Round
from league.services import require_staff
from matches.models import Match, ReportStatus, ResultReport
from matches.services import card_enter

from .models import CardsPrinted
from .services import ClubError, lock_night


def cards_printed(*, actor, round: Round, now=None) -> CardsPrinted:
    """The front desk or the director downloaded the night's table cards: remember when, so a
    table seated or joined afterwards is marked for a reprint (E4)."""
    now = now or timezone.now()
    with transaction.atomic():
        night = lock_night(round)
        require_staff(actor, night.league, front_desk=True)
        printed, _ = CardsPrinted.objects.update_or_create(
            night=night,
            defaults={
                "printed_at": now,
                "printed_by": actor if actor is not None and actor.is_authenticated else None,
            },
        )
        return printed


def reported_card_confirm(*, actor, round: Round, match: Match, now=None) -> Match:
    """The director confirms a table's card as its scorekeeper reported it, waiting for the
    other seats (G9): the card the table handed in says the same, so the report is final at
    once, as a card entered with the same scores settles it (``card_enter``), before or after
    the night is closed. A table with no report waiting has nothing to confirm."""
    with transaction.atomic():
        night = lock_night(round)
        if match.round_id != night.pk:
            raise ClubError(f"That table is not one of night {night.number}'s.")
        report = (
            ResultReport.objects.filter(match=match, status=ReportStatus.PENDING)
            .prefetch_related("scores")
            .first()
        )
        if report is None:
            raise ClubError(
                f"Table {match.table} has no report waiting for confirmation: enter its card."
            )
        lines = list(report.scores.all())  # in seat order
        # card_enter checks the director's rights and, under the table's lock, that the report
        # still has these scores (a changed one is a conflict, never overwritten).
        return card_enter(
            actor=actor,
            match=match,
            scores=[line.score for line in lines],
            pre_adjustment=[line.pre_adjustment for line in lines],
            ended_by=report.ended_by,
            players=[seat.player_id for seat in match.seats.order_by("order")],
            unusual_confirmed=True,  # the table reported and signed these scores
            note="The director confirmed the card as the scorekeeper reported it.",
            now=now,
        )

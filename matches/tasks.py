"""Celery tasks of the matches app: thin, taking ids, calling what the services rendered."""

from celery import shared_task
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from .deadlines import deadline_text
from .models import Match, MatchStatus, Seat
from .notifications import REMINDERS, notify

NOTICE_BATCH = 100


@shared_task
def notify_double_forfeits(match_ids: list[int]) -> int:
    """Tell both players of each match the nightly job recorded as a double forfeit (L8), once.

    Each batch claims its matches (`forfeit_notice_sent_at`) in the transaction that queues their
    e-mail, so a task redelivered after a lost worker skips the players already told, and a batch
    cut short tells nobody and is done again by the redelivery. Each e-mail is its own task, so
    one failed delivery is retried alone."""
    sent = 0
    for start in range(0, len(match_ids), NOTICE_BATCH):
        with transaction.atomic():
            claimed = list(
                Match.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(
                    id__in=match_ids[start : start + NOTICE_BATCH],
                    status=MatchStatus.DOUBLE_FORFEIT,
                    forfeit_notice_sent_at__isnull=True,
                )
                .values_list("id", flat=True)
            )
            Match.objects.filter(id__in=claimed).update(forfeit_notice_sent_at=timezone.now())
            for match in _with_players(claimed):
                players = [seat.player.user for seat in match.seats.all()]
                notify(
                    recipients=players,
                    subject=f"Double forfeit: {match.league}, round {match.round.number}",
                    lines=[
                        "Your match was not reported by its deadline, so it counts as a loss for "
                        "both players (rule L8).",
                        "If you did play it, contact the director.",
                    ],
                    match=match,
                    preference=None,  # a result everyone must hear about
                )
                sent += len(players)
    return sent


def _with_players(match_ids):
    return (
        Match.objects.filter(id__in=match_ids)
        .select_related("league", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
    )


@shared_task
def send_reminders(match_ids: list[int]) -> int:
    """One reminder per player who wants them, 48 hours before a match's deadline."""
    matches = (
        Match.objects.filter(id__in=match_ids)
        .select_related("league__season__institution", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
    )
    sent = 0
    for match in matches:
        names = [str(seat.player.user) for seat in match.seats.all()]
        deadline = deadline_text(match.deadline, match.league.season.institution.tz)
        recipients = [seat.player.user for seat in match.seats.all() if seat.player.email_reminders]
        # notify() checks the reminder preference again; this count is what the summary reports.
        todo = "schedule and play" if match.status == "unscheduled" else "play and report"
        notify(
            recipients=recipients,
            subject=f"Reminder: your match is due {deadline}",
            lines=[
                f"{' v '.join(names)} ({match.league}, round {match.round.number}) is due {deadline}.",
                f"Remember to {todo} it: an unreported match becomes a double forfeit (L8).",
            ],
            match=match,
            preference=REMINDERS,
        )
        sent += len(recipients)
    return sent

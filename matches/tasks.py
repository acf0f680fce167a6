"""Celery tasks of the matches app: thin, taking ids, calling what the services rendered."""

from celery import shared_task
from django.db.models import Prefetch

from core.tasks import queue_emails

from .deadlines import deadline_text
from .models import Match, Seat
from .notifications import messages


@shared_task
def notify_double_forfeits(match_ids: list[int]) -> int:
    """Tell both players of each match the nightly job recorded as a double forfeit (L8). The
    nightly calls it inside its forfeit transaction, so the notices reach the outbox with the
    forfeits; a failed delivery is retried alone from there."""
    matches = (
        Match.objects.filter(id__in=match_ids)
        .select_related("league", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
    )
    rendered = []
    for match in matches:
        players = [seat.player for seat in match.seats.all()]
        rendered += messages(
            recipients=players,
            subject="Double forfeit",
            lines=[
                "Your match was not reported by its deadline, so it counts as a loss for both players.",
                "If you did play it, contact the director.",
            ],
            match=match,
            preference=None,  # a result everyone must hear about
        )
    queue_emails(rendered)  # one insert for the night's notices
    return len(rendered)


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
    rendered = []
    for match in matches:
        names = [seat.player.name for seat in match.seats.all()]
        deadline = deadline_text(
            match.deadline, match.league.season.institution.tz, match.league.report_window_days
        )
        recipients = [seat.player for seat in match.seats.all() if seat.player.email_reminders]
        todo = "schedule and play" if match.status == "unscheduled" else "play and report"
        rendered += messages(
            recipients=recipients,
            subject=f"Reminder: {deadline}",
            lines=[
                f"{' v '.join(names)} ({match.league}, round {match.round.number}): {deadline}.",
                f"Remember to {todo} it: an unreported match becomes a double forfeit.",
            ],
            match=match,
            preference=None,  # the seats' preference is read above, with the seats
        )
    queue_emails(rendered)  # one insert for the night's reminders
    return len(rendered)

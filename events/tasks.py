"""Celery tasks of the events app: thin, calling the services."""

from celery import shared_task

from events.services.card_settling import settle_all_due_cards


@shared_task
def settle_table_cards() -> int:
    """Count the players' cards that one other seat confirmed, once their round's time is up
    (S2). Beat sends it every 30 seconds; a tick nobody took is dropped, the next does the
    same work."""
    return settle_all_due_cards()

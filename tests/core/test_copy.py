"""Many rows at once (core/copy.py): COPY on PostgreSQL, and an upsert through a temporary
table, each writing exactly what ``bulk_create`` would."""

from datetime import date

from core.copy import copy_instances, upsert_rows
from ratings.models import PlayerRating
from tests.support import ProfileFactory

COLUMNS = ["player_id", "rating", "deviation", "volatility", "games", "last_played"]


def test_upsert_rows_inserts_new_rows_and_replaces_those_of_the_same_key(db):
    kept, replaced, new = ProfileFactory(), ProfileFactory(), ProfileFactory()
    PlayerRating.objects.create(
        player=kept, rating=1600, deviation=80, volatility=0.06, games=30, last_played=None
    )
    PlayerRating.objects.create(
        player=replaced, rating=1400, deviation=90, volatility=0.06, games=20, last_played=None
    )
    upsert_rows(
        PlayerRating,
        COLUMNS,
        [
            [replaced.pk, 1450.5, 85.0, 0.059, 21.0, date(2026, 11, 26)],
            [new.pk, 1500.0, 350.0, 0.06, 1.0, None],
        ],
        key="player_id",
    )
    rows = {
        row.player_id: (row.rating, row.deviation, row.games, row.last_played)
        for row in PlayerRating.objects.all()
    }
    assert rows == {
        kept.pk: (1600, 80, 30, None),
        replaced.pk: (1450.5, 85.0, 21.0, date(2026, 11, 26)),
        new.pk: (1500.0, 350.0, 1.0, None),
    }
    # The temporary table is gone: a second upsert in the same transaction works.
    upsert_rows(PlayerRating, COLUMNS, [[new.pk, 1510.0, 300.0, 0.06, 2.0, None]], "player_id")
    assert PlayerRating.objects.get(player=new).rating == 1510.0


def test_copy_instances_writes_what_bulk_create_would_and_gives_each_its_key(db):
    """The outbox's rows (core.tasks.queue_emails): lists, JSON, defaults and auto_now."""
    from post_office.models import Email

    def outbox_row(number):
        return Email(
            from_email="league@example.edu",
            to=[f"player{number}@example.edu"],
            subject=f"Notice {number}",
            message="Plain 'text', with quotes",
            html_message='<p class="x">It\'s <b>HTML</b></p>',
            headers={"Reply-To": "director@example.edu"} if number else None,
        )

    copied = [outbox_row(0), outbox_row(1)]
    copy_instances(copied)
    created = [outbox_row(2), outbox_row(3)]
    Email.objects.bulk_create(created)

    assert all(email.pk and not email._state.adding for email in copied)

    def stored(email):
        row = Email.objects.get(pk=email.pk)
        return (row.to, row.html_message, row.message, row.headers, row.status, row.priority)

    assert stored(copied[0]) == (
        ["player0@example.edu"],
        '<p class="x">It\'s <b>HTML</b></p>',
        "Plain 'text', with quotes",
        None,
        stored(created[0])[4],
        stored(created[0])[5],
    )
    assert stored(copied[1])[3] == stored(created[1])[3] == {"Reply-To": "director@example.edu"}
    assert Email.objects.get(pk=copied[0].pk).created is not None

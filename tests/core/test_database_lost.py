"""Issue 45: a database restart costs no 500. The app's connection to PostgreSQL is killed for
real (``pg_terminate_backend`` from another connection): between two requests, and in the middle
of one, at a chosen query. A read is answered on a fresh connection; a write that was cut off
answers "not saved, try again" (503) with nothing of it saved, and sent again it is saved."""

import psycopg
import pytest
from django.db import connection
from django.urls import reverse

from matches.models import MatchStatus, ResultReport

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def client(client):
    """The test client re-raises any error a request met, even one answered well after it: here
    the answer is what counts."""
    client.raise_request_exception = False
    return client


def terminate(pid: int) -> None:
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"],
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


class KillAt:
    """Kills this process's own connection just before the first query that `matches`."""

    def __init__(self, matches):
        self.matches, self.killed = matches, []

    def __call__(self, execute, sql, params, many, context):
        if not self.killed and self.matches(sql):
            self.killed.append(sql)
            terminate(context["connection"].connection.info.backend_pid)
        return execute(sql, params, many, context)


def test_a_read_after_the_connection_was_killed_between_requests_is_answered(client, player):
    client.force_login(player.user)
    assert client.get(reverse("league_list")).status_code == 200
    connection.ensure_connection()
    terminate(connection.connection.info.backend_pid)

    response = client.get(reverse("league_list"))

    assert response.status_code == 200


def test_a_read_cut_off_in_the_middle_is_answered_again_on_a_fresh_connection(client, player):
    client.force_login(player.user)
    kill = KillAt(lambda sql: "league_league" in sql)

    with connection.execute_wrapper(kill):
        response = client.get(reverse("league_list"))

    assert kill.killed, "the connection was never killed"
    assert response.status_code == 200
    assert b"Leagues" in response.content


def test_a_write_cut_off_answers_not_saved_and_saves_nothing_then_goes_through(
    client, match, player
):
    client.force_login(player.user)
    url = reverse("match_report", args=[match.pk])
    card = {"score_1": 400, "score_2": 350, "ended_by": "went_out"}
    kill = KillAt(lambda sql: sql.startswith("INSERT") and "matches_resultreport" in sql)

    with connection.execute_wrapper(kill):
        cut_off = client.post(url, card)

    assert kill.killed, "the connection was never killed"
    assert cut_off.status_code == 503
    assert "Not saved: try again" in cut_off.content.decode()
    assert "nothing was saved" in cut_off.content.decode()
    assert not ResultReport.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED

    again = client.post(url, card)

    assert again.status_code == 302
    assert ResultReport.objects.filter(match=match).count() == 1

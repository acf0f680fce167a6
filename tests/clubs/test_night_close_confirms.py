"""Closing a club night settles the reports the table vouched for (G9, ours): a scorekeeper's
report that at least one other seat has confirmed is final once the night is closed, whether
that seat confirmed before the closing or after it; one nobody else confirmed keeps its
confirmation window, a disputed one waits for the director. Each outcome counts once, also
when a confirmation and the closing meet on two database connections."""

import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from clubs.services import check_in, close_night, seat_night
from core.errors import DomainError
from league.models import LeagueFormat, Round, Standing
from matches.models import AuditEvent, Match, MatchStatus, ReportStatus, ResultReport
from matches.services import MatchError, report_confirm, report_dispute, report_submit
from tests.support import LeagueFactory, entrant, run_together

SCORES = [400, 350, 300, 280]


@pytest.fixture
def club(season):
    return LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")


def seated_night(club, staff, director, present: int) -> list[Match]:
    """Night 1 with `present` members checked in and seated: its tables, in number order."""
    tonight = Round.objects.create(league=club, number=1, play_by=club.season.institution.today())
    for index in range(1, present + 1):
        check_in(actor=staff.user, round=tonight, player=entrant(club, first_name=f"M{index}"))
    return seat_night(actor=director.user, round=tonight)


def players(table: Match) -> list:
    """The table's players in seat order; the first keeps score (G9)."""
    return [seat.player for seat in table.seats.order_by("order").select_related("player__user")]


def report(table: Match, *, confirmed_by: int = 0) -> ResultReport:
    """The scorekeeper reports; then the next `confirmed_by` seats confirm."""
    seated = players(table)
    made = report_submit(actor=seated[0].user, match=table, scores=SCORES[: len(seated)])
    for other in seated[1 : 1 + confirmed_by]:
        report_confirm(actor=other.user, report=made)
    return made


def close(tonight_table: Match, director, reason="Night over"):
    return close_night(actor=director.user, round=tonight_table.round, reason=reason)


def test_g9_closing_the_night_makes_a_report_another_seat_confirmed_final(
    club, staff, director, django_capture_on_commit_callbacks
):
    # 11 present: tables of four, four and three.
    vouched, unanswered, disputed = seated_night(club, staff, director, 11)
    report(vouched, confirmed_by=1)
    report(unanswered)
    against = report(disputed)
    report_dispute(
        actor=players(disputed)[2].user, report=against, scores=[390, 350, 300], note="Turn 9"
    )
    with django_capture_on_commit_callbacks(execute=True):
        closed = close(vouched, director)
    assert (closed.forfeited, closed.confirmed) == (0, 1)
    for table in (vouched, unanswered, disputed):
        table.refresh_from_db()
    assert vouched.status == MatchStatus.CONFIRMED
    assert vouched.finalised_at is not None
    assert vouched.reports.get().status == ReportStatus.CONFIRMED
    assert [(s.score, s.place) for s in vouched.seats.order_by("order")] == [
        (400, 1),
        (350, 2),
        (300, 3),
        (280, 4),
    ]
    event = AuditEvent.objects.get(match=vouched, action="confirmed")
    assert event.actor == director.user
    assert event.reason == "Confirmed by 1 of 3 other seats when the night closed."
    # Nobody else confirmed: its window runs on. Disputed: the director rules.
    assert unanswered.status == MatchStatus.REPORTED
    assert unanswered.reports.get().status == ReportStatus.PENDING
    assert disputed.status == MatchStatus.DISPUTED
    assert not AuditEvent.objects.filter(match__in=[unanswered, disputed], action="confirmed")
    # Standings follow at once, as after any other confirmation: the scorekeeper won three.
    row = Standing.objects.get(league=club, player=players(vouched)[0])
    assert (row.wins, row.losses, row.games) == (3, 0, 3)


def test_g9_closing_twice_changes_nothing(club, staff, director):
    vouched, other = seated_night(club, staff, director, 8)
    report(vouched, confirmed_by=2)
    close(vouched, director)
    trail = list(AuditEvent.objects.order_by("id").values_list("id", "action"))
    states = list(Match.objects.order_by("id").values_list("status", "finalised_at"))
    with pytest.raises(DomainError, match="Night 1 is closed"):
        close(vouched, director, reason="Again")
    assert list(AuditEvent.objects.order_by("id").values_list("id", "action")) == trail
    assert list(Match.objects.order_by("id").values_list("status", "finalised_at")) == states
    assert AuditEvent.objects.get(match=vouched, action="confirmed").reason == (
        "Confirmed by 2 of 3 other seats when the night closed."
    )
    other.refresh_from_db()
    assert other.status == MatchStatus.DOUBLE_FORFEIT


def test_g9_a_seat_confirming_after_the_night_closed_makes_the_report_final(club, staff, director):
    (table,) = seated_night(club, staff, director, 3)
    made = report(table)
    close(table, director)
    table.refresh_from_db()
    assert table.status == MatchStatus.REPORTED  # nobody else had confirmed: it waited
    second = players(table)[1]
    returned = report_confirm(actor=second.user, report=made)
    assert returned.status == MatchStatus.CONFIRMED
    event = AuditEvent.objects.get(match=table, action="confirmed")
    assert (event.actor, event.reason) == (
        second.user,
        "Confirmed by 1 of 2 other seats after the night closed.",
    )
    with pytest.raises(MatchError):  # the last seat has nothing left to confirm
        report_confirm(actor=players(table)[2].user, report=made)


def test_g9_a_confirmation_at_an_open_night_still_waits_for_every_seat(club, staff, director):
    (table,) = seated_night(club, staff, director, 3)
    report(table, confirmed_by=1)
    table.refresh_from_db()
    assert table.status == MatchStatus.REPORTED
    assert not AuditEvent.objects.filter(match=table, action="confirmed").exists()


def test_g9_closing_a_night_takes_as_many_queries_for_many_tables_as_for_few(
    season, staff, director
):
    counted = []
    for name, present in (("Few", 7), ("Many", 19)):
        club = LeagueFactory(season=season, format=LeagueFormat.CLUB, name=name)
        tables = seated_night(club, staff, director, present)
        for table in tables:
            report(table, confirmed_by=1)
        with CaptureQueriesContext(connection) as queries:
            closed = close(tables[0], director)
        assert closed.confirmed == len(tables)
        counted.append(len(queries))
    assert counted[0] == counted[1], counted


# --- A confirmation and the closing at the same moment, on two connections ---------------------


@pytest.fixture
def race_night(transactional_db, club, staff, director):
    return seated_night(club, staff, director, 4)[0]


def confirmed_once(table: Match):
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED
    assert (
        AuditEvent.objects.filter(match=table, action__in=["confirmed", "auto_confirmed"]).count()
        == 1
    )
    assert table.reports.get().status == ReportStatus.CONFIRMED
    assert [s.score for s in table.seats.order_by("order")] == SCORES


def holding(action, holds: threading.Event):
    """`action` in a transaction kept open a moment after it acted, so the other side waits."""

    def run():
        with transaction.atomic():
            result = action()
            holds.set()
            time.sleep(0.5)
        return result

    return run


def after(action, holds: threading.Event):
    def run():
        holds.wait(timeout=10)
        return action()

    return run


def confirming_racing_closing(night, director, player, made, first):
    """`player` confirms `made` while the director closes the night: `first` holds its
    transaction open so the other waits ("either": both at once). Returns both outcomes."""

    def confirm():
        return report_confirm(actor=player.user, report=made)

    def closing():
        return close(night, director)

    holds = threading.Event()
    if first == "confirmation":
        calls = holding(confirm, holds), after(closing, holds)
    elif first == "closing":
        calls = after(confirm, holds), holding(closing, holds)
    else:
        calls = confirm, closing
    return run_together(*calls)


@pytest.mark.parametrize("first", ["confirmation", "closing", "either"])
def test_g9_the_first_other_confirmation_racing_the_closing_counts_once(
    race_night, director, first
):
    made = report(race_night)
    confirmation, closed = confirming_racing_closing(
        race_night, director, players(race_night)[1], made, first
    )
    assert isinstance(confirmation, Match), confirmation
    assert closed.forfeited == 0, closed
    confirmed_once(race_night)


@pytest.mark.parametrize("first", ["confirmation", "closing", "either"])
def test_g9_the_last_confirmation_racing_the_closing_counts_once(race_night, director, first):
    made = report(race_night, confirmed_by=2)
    last = players(race_night)[3]
    confirmation, closed = confirming_racing_closing(race_night, director, last, made, first)
    assert closed.forfeited == 0, closed
    if isinstance(confirmation, Match):
        assert closed.confirmed == 0  # every seat had confirmed: nothing left for the closing
        assert AuditEvent.objects.get(match=race_night, action="confirmed").actor == last.user
    else:
        assert isinstance(confirmation, MatchError), confirmation
        assert closed.confirmed == 1
        assert AuditEvent.objects.get(match=race_night, action="confirmed").actor == director.user
    if first != "either":
        assert isinstance(confirmation, Match) == (first == "confirmation")
    confirmed_once(race_night)

"""Club nights (E4, G9, L8): checking in, seating those present at tables of four and three,
re-seating, closing the night, and score cards entered by the director."""

import pytest
from django.utils import timezone

from clubs.seating import count_repeats
from clubs.services import check_in, check_out, close_night, seat_night
from core.errors import DomainError, NotAllowed
from league.models import CheckIn, Entry, LeagueFormat, Round
from league.selectors import round_tables as night_tables
from matches.models import AuditEvent, MatchStatus, Outcome
from matches.services import CardConflict, card_enter, report_submit
from tests.support import LeagueFactory, entrant, staff_member


@pytest.fixture
def club(season):
    return LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")


def night(club, number=1):
    today = club.season.institution.today()
    return Round.objects.create(league=club, number=number, play_by=today)


def members(club, count):
    return [entrant(club, first_name=f"M{index}") for index in range(1, count + 1)]


def present(night_, players, by):
    for each in players:
        check_in(actor=by.user, round=night_, player=each)


def seats_of(match):
    return [seat.player_id for seat in match.seats.order_by("order")]


# --- Check-in -----------------------------------------------------------------------------------


def test_e4_front_desk_and_director_check_players_in_and_again_changes_nothing(
    club, staff, director
):
    tonight = night(club)
    ana, ben = members(club, 2)
    first = check_in(actor=staff.user, round=tonight, player=ana)
    again = check_in(actor=director.user, round=tonight, player=ana)
    check_in(actor=director.user, round=tonight, player=ben)
    assert first.pk == again.pk
    assert first.checked_in_by == staff.user
    assert CheckIn.objects.filter(round=tonight).count() == 2


def test_e4_students_and_other_institutions_staff_cannot_check_anyone_in(
    club, other_staff, other_director
):
    tonight = night(club)
    ana, ben = members(club, 2)
    for someone in (ana.user, other_staff.user, other_director.user, None):
        with pytest.raises(NotAllowed):
            check_in(actor=someone, round=tonight, player=ben)
    assert not CheckIn.objects.exists()


def test_e4_a_player_not_in_the_league_is_refused_by_name(club, staff, player):
    with pytest.raises(DomainError, match="Rowan Pemberton is not in this league"):
        check_in(actor=staff.user, round=night(club), player=player)
    assert not CheckIn.objects.exists()


def test_e4_a_withdrawn_member_is_not_in_the_league(club, staff):
    (ana,) = members(club, 1)
    Entry.objects.filter(player=ana).update(withdrawn_at=timezone.now())
    with pytest.raises(DomainError, match="is not in this league"):
        check_in(actor=staff.user, round=night(club), player=ana)


def test_e4_checking_in_gives_player_numbers_in_joining_order_and_keeps_them(club, staff):
    tonight = night(club)
    ana, ben, cy = members(club, 3)
    check_in(actor=staff.user, round=tonight, player=cy)
    numbers = dict(Entry.objects.filter(league=club).values_list("player_id", "player_number"))
    assert [numbers[ana.pk], numbers[ben.pk], numbers[cy.pk]] == [1, 2, 3]
    di = entrant(club, first_name="Di")
    check_in(actor=staff.user, round=tonight, player=di)
    assert Entry.objects.get(player=di).player_number == 4
    assert Entry.objects.get(player=ana).player_number == 1


def test_e4_check_in_is_for_club_nights_only(league, staff, player):
    week = Round.objects.create(league=league, number=1, play_by=timezone.now().date())
    Entry.objects.create(league=league, player=player)
    with pytest.raises(DomainError, match="is not a club"):
        check_in(actor=staff.user, round=week, player=player)


def test_e4_check_out_undoes_a_check_in_but_not_once_seated(club, staff, director):
    tonight = night(club)
    players = members(club, 4)
    present(tonight, players, staff)
    late = entrant(club, first_name="Late")
    check_in(actor=staff.user, round=tonight, player=late)
    check_out(actor=staff.user, round=tonight, player=late)
    assert not CheckIn.objects.filter(round=tonight, entry__player=late).exists()
    seat_night(actor=director.user, round=tonight)
    with pytest.raises(DomainError, match="already seated"):
        check_out(actor=staff.user, round=tonight, player=players[0])
    assert CheckIn.objects.filter(round=tonight).count() == 4


# --- Seating (E4, G9) ---------------------------------------------------------------------------


def test_e4_g9_seven_present_sit_at_a_four_and_a_three_seat_one_keeping_score(
    club, staff, director
):
    tonight = night(club)
    players = members(club, 8)
    present(tonight, players[:7], staff)  # the eighth stayed home
    now = timezone.now()
    tables = seat_night(actor=director.user, round=tonight, seed=3, now=now)
    assert [match.seats.count() for match in tables] == [4, 3]
    assert [match.pk for match in night_tables(tonight)] == [match.pk for match in tables]
    seated = sorted(player for match in tables for player in seats_of(match))
    assert seated == sorted(each.pk for each in players[:7])
    for match in tables:
        match.refresh_from_db()
        assert match.status == MatchStatus.SCHEDULED
        assert match.scorekeeper == 1
        assert match.scheduled_at == now
        assert match.deadline > now  # the end of the night's day


def test_e4_the_next_night_keeps_last_nights_tablemates_apart(club, staff, director):
    """Nine present on two nights: three tables of three; the second night can seat everyone
    with strangers (one from each of the first night's tables), and does."""
    players = members(club, 9)
    first, second = night(club, 1), night(club, 2)
    present(first, players, staff)
    present(second, players, staff)
    monday = [seats_of(match) for match in seat_night(actor=director.user, round=first)]
    tuesday = [seats_of(match) for match in seat_night(actor=director.user, round=second)]
    assert [len(table) for table in tuesday] == [3, 3, 3]
    assert count_repeats(tuesday, [monday]) == 0


def test_e4_only_the_director_seats_a_night(club, staff):
    tonight = night(club)
    present(tonight, members(club, 4), staff)
    with pytest.raises(NotAllowed):
        seat_night(actor=staff.user, round=tonight)
    assert not tonight.matches.exists()


def test_e4_a_lone_player_cannot_be_seated(club, staff, director):
    tonight = night(club)
    present(tonight, members(club, 1), staff)
    with pytest.raises(DomainError, match="One player cannot make a table"):
        seat_night(actor=director.user, round=tonight)


def test_e4_a_seated_night_is_reseated_only_with_repair(club, staff, director):
    tonight = night(club)
    players = members(club, 8)
    present(tonight, players[:7], staff)
    seat_night(actor=director.user, round=tonight)
    check_in(actor=staff.user, round=tonight, player=players[7])  # a late arrival
    with pytest.raises(DomainError, match="already seated"):
        seat_night(actor=director.user, round=tonight)
    tables = seat_night(actor=director.user, round=tonight, repair=True)
    assert [match.seats.count() for match in tables] == [4, 4]
    assert tonight.matches.count() == 2


def test_e4_reseating_is_refused_once_a_table_has_a_result(club, staff, director):
    tonight = night(club)
    present(tonight, members(club, 7), staff)
    first_table = seat_night(actor=director.user, round=tonight)[0]
    scorekeeper = first_table.seats.get(order=1).player
    report_submit(actor=scorekeeper.user, match=first_table, scores=[412, 377, 390, 301])
    with pytest.raises(DomainError, match="has results reported"):
        seat_night(actor=director.user, round=tonight, repair=True)
    assert tonight.matches.count() == 2


# --- Closing the night (L8, G9) -------------------------------------------------------------------


def test_l8_g9_closing_the_night_forfeits_only_tables_without_scores(club, staff, director):
    tonight = night(club)
    present(tonight, members(club, 11), staff)
    carded, reported, empty = seat_night(actor=director.user, round=tonight)
    card_enter(actor=director.user, match=carded, scores=[412, 377, 390, 301])
    keeper = reported.seats.get(order=1).player
    report_submit(actor=keeper.user, match=reported, scores=[400, 350, 300, 280])
    assert close_night(actor=director.user, round=tonight, reason="Night over").forfeited == 1
    for match in (carded, reported, empty):
        match.refresh_from_db()
    assert (carded.status, reported.status) == (MatchStatus.CONFIRMED, MatchStatus.REPORTED)
    assert empty.status == MatchStatus.DOUBLE_FORFEIT
    assert set(empty.seats.values_list("outcome", flat=True)) == {Outcome.DOUBLE_FORFEIT}
    event = AuditEvent.objects.get(match=empty, action="double_forfeit")
    assert (event.actor, event.reason) == (director.user, "Night over")
    with pytest.raises(DomainError, match="Night 1 is closed"):  # closing again says so
        close_night(actor=director.user, round=tonight, reason="Again")
    assert AuditEvent.objects.filter(action="double_forfeit").count() == 1


def test_l8_only_the_director_closes_a_night_with_a_reason(club, staff, director):
    tonight = night(club)
    present(tonight, members(club, 4), staff)
    (table,) = seat_night(actor=director.user, round=tonight)
    with pytest.raises(NotAllowed):
        close_night(actor=staff.user, round=tonight, reason="Night over")
    with pytest.raises(DomainError, match="reason is required"):
        close_night(actor=director.user, round=tonight, reason=" ")
    table.refresh_from_db()
    assert table.status == MatchStatus.SCHEDULED


# --- Score cards (E4) -----------------------------------------------------------------------------


@pytest.fixture
def seated_table(club, staff, director):
    tonight = night(club)
    present(tonight, members(club, 4), staff)
    return seat_night(actor=director.user, round=tonight)[0]


def test_e4_a_card_entered_by_the_director_is_final_at_once(seated_table, director):
    match = card_enter(actor=director.user, match=seated_table, scores=[412, 377, 390, 301])
    assert match.status == MatchStatus.CONFIRMED
    seats = list(match.seats.order_by("order"))
    assert [(seat.score, seat.place, seat.outcome) for seat in seats] == [
        (412, 1, Outcome.WIN),
        (377, 3, Outcome.LOSS),
        (390, 2, Outcome.LOSS),
        (301, 4, Outcome.LOSS),
    ]
    event = AuditEvent.objects.get(match=match, action="card_entered")
    assert event.actor == director.user


def test_e4_the_same_card_again_changes_nothing_and_a_different_one_needs_a_reason(
    seated_table, director
):
    card_enter(actor=director.user, match=seated_table, scores=[412, 377, 390, 301])
    card_enter(actor=director.user, match=seated_table, scores=[412, 377, 390, 301])
    assert AuditEvent.objects.filter(match=seated_table, action="card_entered").count() == 1
    with pytest.raises(CardConflict, match="already has 412–377–390–301"):
        card_enter(actor=director.user, match=seated_table, scores=[412, 377, 391, 301])
    assert seated_table.seats.get(order=3).score == 390
    card_enter(
        actor=director.user,
        match=seated_table,
        scores=[412, 377, 391, 301],
        override_reason="Seat 3's last play was added wrong",
    )
    assert seated_table.seats.get(order=3).score == 391
    latest = AuditEvent.objects.filter(match=seated_table, action="card_entered").last()
    assert latest.reason == "Seat 3's last play was added wrong"


def test_e4_a_card_over_a_scorekeepers_report_settles_it_or_conflicts(seated_table, director):
    keeper = seated_table.seats.get(order=1).player
    report_submit(actor=keeper.user, match=seated_table, scores=[400, 350, 300, 280])
    with pytest.raises(CardConflict, match="has a report of 400–350–300–280"):
        card_enter(actor=director.user, match=seated_table, scores=[400, 350, 300, 290])
    match = card_enter(actor=director.user, match=seated_table, scores=[400, 350, 300, 280])
    assert match.status == MatchStatus.CONFIRMED
    assert match.reports.get().status == "superseded"


def test_e4_only_the_director_or_the_site_enters_a_card(seated_table, staff):
    keeper = seated_table.seats.get(order=1).player
    for someone in (staff.user, keeper.user, None):
        with pytest.raises(NotAllowed):
            card_enter(actor=someone, match=seated_table, scores=[412, 377, 390, 301])
    match = card_enter(actor=None, as_system=True, match=seated_table, scores=[412, 377, 390, 301])
    assert match.status == MatchStatus.CONFIRMED
    assert AuditEvent.objects.get(match=match, action="card_entered").actor is None


def test_e4_a_card_needs_every_seat_in_range(seated_table, director):
    with pytest.raises(DomainError, match="4 seats"):
        card_enter(actor=director.user, match=seated_table, scores=[412, 377, 390])
    with pytest.raises(DomainError, match="above 1500"):
        card_enter(actor=director.user, match=seated_table, scores=[412, 377, 390, 1501])
    seated_table.refresh_from_db()
    assert seated_table.status == MatchStatus.SCHEDULED


def test_e4_a_staff_member_of_another_institution_is_not_the_director(club, other_institution):
    stranger = staff_member(other_institution, "Directors")
    tonight = night(club)
    with pytest.raises(NotAllowed):
        close_night(actor=stranger.user, round=tonight, reason="x")

"""Games of three and four players (G9, E4): the scorekeeper reports every seat's score, every
other seat confirms or disputes, placement by final score with G2's tie-break, standings that
count a game of N seats as N-1 games between its seats, and the club's tables left to the
director by the nightly (L8)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts import roles
from league.models import ChallengeRule, LeagueFormat, Standing
from league.standings import rebuild_standings
from matches.models import AuditEvent, Dispute, MatchStatus, ReportStatus, ResultReport
from matches.results import placements
from matches.services import (
    MatchError,
    Ruling,
    confirm_stale_reports,
    forfeit_overdue_matches,
    report_confirm,
    report_dispute,
    report_submit,
    rule,
)
from tests.support import GCG_FIXTURES, LeagueFactory, eligible_student, staff_member, table_of


@pytest.fixture
def club(season):
    return LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")


@pytest.fixture
def four(season):
    return [eligible_student(season, first_name=name) for name in ("Ana", "Ben", "Cat", "Dov")]


@pytest.fixture
def table(club, four):
    return table_of(club, four)


def outcomes_and_places(match):
    return [(seat.outcome, seat.place, seat.score) for seat in match.seats.order_by("order")]


# --- Placement (G9, G2) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "pre", "places"),
    [
        ([412, 377, 390, 301], [], [1, 3, 2, 4]),
        ([400, 400, 350], [], [1, 1, 3]),  # an exact tie shares the place
        ([400, 400, 350], [390, 395, None], [2, 1, 3]),  # G2 breaks it
        ([400, 400, 350], [390, None, None], [1, 1, 3]),  # one missing: still shared
        ([-6, -16], [], [1, 2]),  # G1: negative finals happen
    ],
)
def test_g9_placement_is_by_final_score_ties_broken_by_the_score_before_tiles(scores, pre, places):
    assert placements(scores, pre) == places


# --- The scorekeeper reports, every other seat confirms (G9) --------------------------------------


def test_g9_the_scorekeeper_reports_every_seat_and_the_result_counts_once_all_confirm(
    table, four, django_capture_on_commit_callbacks
):
    ana, ben, cat, dov = four
    report = report_submit(actor=ana.user, match=table, scores=[377, 412, 301, 390])
    table.refresh_from_db()
    assert table.status == MatchStatus.REPORTED
    assert [line.place for line in report.scores.order_by("order")] == [3, 1, 4, 2]
    report_confirm(actor=ben.user, report=report)
    report_confirm(actor=cat.user, report=report)
    table.refresh_from_db()
    assert table.status == MatchStatus.REPORTED  # Dov has not answered yet
    assert AuditEvent.objects.filter(match=table, action="seat_confirmed").count() == 2
    with pytest.raises(MatchError, match="already answered"):
        report_confirm(actor=ben.user, report=report)
    with django_capture_on_commit_callbacks(execute=True):
        report_confirm(actor=dov.user, report=report)
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED
    assert outcomes_and_places(table) == [
        ("loss", 3, 377),
        ("win", 1, 412),
        ("loss", 4, 301),
        ("loss", 2, 390),
    ]


def test_g9_a_seat_that_does_not_keep_score_cannot_report_and_nothing_changes(table, four):
    with pytest.raises(MatchError, match="the scorekeeper reports"):
        report_submit(actor=four[1].user, match=table, scores=[377, 412, 301, 390])
    assert not ResultReport.objects.exists()


def test_g9_the_table_may_name_another_scorekeeper(club, four):
    match = table_of(club, four, scorekeeper=3)
    with pytest.raises(MatchError, match="the scorekeeper reports"):
        report_submit(actor=four[0].user, match=match, scores=[377, 412, 301, 390])
    report_submit(actor=four[2].user, match=match, scores=[377, 412, 301, 390])
    assert ResultReport.objects.get().submitted_by == four[2]


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ([377, 412, 301], "4 seats: enter one score for each"),
        ([377, 412, 301, None], "missing: seat 4"),
        ([377, 412, 301, 1501], "above 1500"),
        ([377, 412, 301, -101], "below -100"),
        ([377, 412, 301, -5], "yes, really"),
    ],
)
def test_g9_g1_a_report_missing_a_seat_or_out_of_range_is_refused_and_changes_nothing(
    table, four, scores, message
):
    with pytest.raises(MatchError, match=message):
        report_submit(actor=four[0].user, match=table, scores=scores)
    table.refresh_from_db()
    assert table.status == MatchStatus.UNSCHEDULED
    assert not ResultReport.objects.exists()


def test_g1_a_negative_final_score_counts_after_yes_really(match, player, opponent):
    """G1: a scoreless ending with tiles held leaves negative finals (-6 v -16 in a real
    record); the range is -100 to 1500."""
    report = report_submit(actor=player.user, match=match, scores=[-6, -16], unusual_confirmed=True)
    report_confirm(actor=opponent.user, report=report)
    assert [seat.score for seat in match.seats.order_by("order")] == [-6, -16]


# --- Disputes at a table (G9, L9) -----------------------------------------------------------------


def test_g9_one_dispute_sends_the_table_to_the_director_and_each_disputer_is_heard(
    table, four, director
):
    ana, ben, cat, dov = four
    report = report_submit(actor=ana.user, match=table, scores=[377, 412, 301, 390])
    report_confirm(actor=ben.user, report=report)
    report_dispute(actor=cat.user, report=report, scores=[377, 412, 331, 390], note="My 30")
    table.refresh_from_db()
    assert table.status == MatchStatus.DISPUTED
    with pytest.raises(MatchError, match="nothing to confirm"):
        report_confirm(actor=dov.user, report=report)
    with pytest.raises(MatchError, match="already answered"):
        report_dispute(actor=ben.user, report=report, scores=[1, 2, 3, 4], note="changed my mind")
    report_dispute(actor=dov.user, report=report, scores=[377, 412, 301, 410], note="Turn 9")
    assert [d.scores for d in Dispute.objects.order_by("id")] == [
        [377, 412, 331, 390],
        [377, 412, 301, 410],
    ]
    rule(
        actor=director.user,
        match=table,
        dispute=Dispute.objects.first(),
        ruling=Ruling.AMEND,
        reason="Sheet checked: Cat's 30 counts.",
        scores=[377, 412, 331, 390],
    )
    table.refresh_from_db()
    assert table.status == MatchStatus.RESOLVED
    assert not Dispute.objects.filter(resolved_at__isnull=True).exists()
    assert [place for _, place, _ in outcomes_and_places(table)] == [3, 1, 4, 2]


def test_g9_a_forfeit_ruling_names_the_seats_that_forfeit(table, four, director):
    rule(
        actor=director.user,
        match=table,
        ruling=Ruling.FORFEIT,
        reason="Left before the game",
        forfeiting=[2, 4],
    )
    assert [outcome for outcome, _, _ in outcomes_and_places(table)] == [
        "forfeit_win",
        "forfeit_loss",
        "forfeit_win",
        "forfeit_loss",
    ]


def test_g9_a_table_of_five_or_a_player_seated_twice_is_refused(club, four, season):
    from core.errors import DomainError

    fifth = eligible_student(season)
    with pytest.raises(DomainError, match="not 5"):
        table_of(club, [*four, fifth])
    with pytest.raises(DomainError, match="two seats"):
        table_of(club, [four[0], four[1], four[0]])


# --- Standings count N-1 games per seat (G9) ------------------------------------------------------


def standing(league, player):
    return Standing.objects.get(league=league, player=player)


def test_g9_standings_count_a_game_of_four_as_three_games_between_its_seats(table, four):
    ana, ben, cat, dov = four
    report = report_submit(actor=ana.user, match=table, scores=[377, 412, 301, 390])
    for each in (ben, cat, dov):
        report_confirm(actor=each.user, report=report)
    rebuild_standings([table.league_id])
    ana_row = standing(table.league, ana)  # third: beat Cat, lost to Ben and Dov
    assert (ana_row.wins, ana_row.losses, ana_row.ties, ana_row.games) == (1, 2, 0, 3)
    assert ana_row.matches == 1
    assert ana_row.points_for == 3 * 377
    assert ana_row.points_against == 412 + 301 + 390
    assert ana_row.spread == 3 * 377 - (412 + 301 + 390)
    assert ana_row.win_pct == Decimal("0.333")
    ben_row = standing(table.league, ben)
    assert (ben_row.wins, ben_row.losses, ben_row.rank) == (3, 0, 1)
    assert [standing(table.league, p).rank for p in four] == [3, 1, 4, 2]


def test_g9_a_double_forfeit_of_a_table_is_n_minus_1_double_forfeits_for_each_seat(
    club, four, director
):
    match = table_of(club, four[:3])
    rule(actor=director.user, match=match, ruling=Ruling.DOUBLE_FORFEIT, reason="No show")
    rebuild_standings([club.pk])
    row = standing(club, four[0])
    assert (row.double_forfeits, row.losses, row.games, row.matches) == (2, 2, 2, 1)
    assert row.spread == -2 * club.double_forfeit_spread


def test_g9_forfeiting_seats_lose_to_the_others_and_double_forfeit_between_themselves(
    table, four, director
):
    rule(actor=director.user, match=table, ruling=Ruling.FORFEIT, reason="Left", forfeiting=[2, 4])
    rebuild_standings([table.league_id])
    ana, ben = standing(table.league, four[0]), standing(table.league, four[1])
    assert (ana.forfeits_won, ana.forfeits_lost, ana.double_forfeits, ana.games) == (2, 0, 0, 2)
    assert (ben.forfeits_won, ben.forfeits_lost, ben.double_forfeits, ben.games) == (0, 2, 1, 3)


def test_g9_club_standings_rank_by_win_percentage_then_spread_per_game(club, four, season):
    """Ana plays one game of four and wins it (3 of 3); Ben sits two tables, winning 5 of 6."""
    ana, ben, cat, dov = four
    eve = eligible_student(season, first_name="Eve")
    first = table_of(club, [ana, ben, cat, dov])
    report = report_submit(actor=ana.user, match=first, scores=[420, 400, 300, 350])
    for each in (ben, cat, dov):
        report_confirm(actor=each.user, report=report)
    second = table_of(club, [ben, cat, dov, eve])
    report = report_submit(actor=ben.user, match=second, scores=[450, 300, 350, 320])
    for each in (cat, dov, eve):
        report_confirm(actor=each.user, report=report)
    rebuild_standings([club.pk])
    assert standing(club, ben).wins > standing(club, ana).wins
    assert (standing(club, ana).rank, standing(club, ben).rank) == (1, 2)


# --- The nightly: club tables wait for the director (L8); stale reports confirm (G9) -------------


def test_l8_the_nightly_never_forfeits_a_club_table(club, four):
    match = table_of(club, four, play_by=timezone.now().date() - timedelta(days=2))
    forfeited = forfeit_overdue_matches(
        timezone.now(), spare_formats=[LeagueFormat.CLUB], announce=False
    )
    assert match.pk not in forfeited
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED


def test_g9_the_nightly_confirms_a_table_report_nobody_disputed_in_its_window(table, four):
    ana, ben = four[:2]
    submitted = timezone.now() - timedelta(days=3)
    report = report_submit(actor=ana.user, match=table, scores=[377, 412, 301, 390], now=submitted)
    report_confirm(actor=ben.user, report=report, now=submitted + timedelta(hours=1))
    assert confirm_stale_reports(timezone.now(), announce=False) == [table.pk]
    report.refresh_from_db()
    assert report.status == ReportStatus.CONFIRMED
    assert outcomes_and_places(table) == [
        ("loss", 3, 377),
        ("win", 1, 412),
        ("loss", 4, 301),
        ("loss", 2, 390),
    ]


# --- Who may see a table ----------------------------------------------------------------------------


def test_g9_every_seat_sees_the_table_and_other_club_members_get_404(client, table, four, season):
    from django.urls import reverse

    for each in four:
        client.force_login(each.user)
        assert client.get(reverse("match_detail", args=[table.pk])).status_code == 200
    client.force_login(eligible_student(season).user)
    assert client.get(reverse("match_detail", args=[table.pk])).status_code == 404
    client.force_login(staff_member(season.institution, roles.FRONT_DESK).user)
    assert client.get(reverse("match_detail", args=[table.pk])).status_code == 404


def test_g9_the_match_page_runs_as_many_queries_for_four_seats_as_for_two(
    client, table, four, match, player, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    def count(url, user):
        client.force_login(user)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    report = report_submit(actor=four[0].user, match=table, scores=[377, 412, 301, 390])
    report_confirm(actor=four[1].user, report=report)
    submitted = report_submit(actor=player.user, match=match, scores=[400, 350])
    assert submitted.pk
    four_seats = count(reverse("match_detail", args=[table.pk]), four[2].user)
    two_seats = count(reverse("match_detail", args=[match.pk]), player.user)
    assert four_seats == two_seats


def test_g9_a_clubs_standings_page_shows_games_sat_and_win_percentage(client, table, four):
    from django.urls import reverse

    from league.refresh import refresh_leagues

    report = report_submit(actor=four[0].user, match=table, scores=[377, 412, 301, 390])
    for each in four[1:]:
        report_confirm(actor=each.user, report=report)
    refresh_leagues([table.league_id])
    page = client.get(reverse("league_standings", args=[table.league])).content.decode()
    assert '<th scope="col" class="col-matches">Sat</th>' in page
    assert '<th scope="col" class="col-win_pct">Win %</th>' in page
    assert "counts as a game against each other player" in page
    rows = client.get(reverse("league_standings_json", args=[table.league])).json()
    ben = next(row for row in rows["standings"] if row["player"].startswith("Ben"))
    assert (ben["rank"], ben["wins"], ben["games"], ben["matches"], ben["win_pct"]) == (
        1,
        3,
        3,
        1,
        1.0,
    )


def test_g9_my_matches_shows_the_placings_of_a_table(client, table, four):
    report = report_submit(actor=four[0].user, match=table, scores=[377, 412, 301, 390])
    for each in four[1:]:
        report_confirm(actor=each.user, report=report)
    client.force_login(four[0].user)
    page = client.get("/").content.decode()
    assert "Final: 3rd of 4" in page
    ana, ben, cat, dov = (each.name for each in four)  # in full: two Bens are two people
    assert f"1st {ben} 412 · 2nd {dov} 390 · 3rd you 377 · 4th {cat} 301" in page


def test_g2_g9_the_director_breaks_a_tie_with_the_scores_before_tiles(table, four, director):
    rule(
        actor=director.user,
        match=table,
        ruling=Ruling.AMEND,
        reason="Cards compared",
        scores=[400, 400, 350, 300],
        pre_adjustment=[390, 395, None, None],
    )
    assert [place for _, place, _ in outcomes_and_places(table)] == [2, 1, 3, 4]


# --- A table's report with its game record (G9, G1, G3, G5) -----------------------------------------

GCG = GCG_FIXTURES


@pytest.fixture
def recorded_table(season):
    """The four players of the fixture record, seated in its order at a club table."""
    names = [("Mara", "Quist"), ("Jo", "Okonkwo"), ("Lev", "Antal"), ("Nia", "Brandt")]
    players = [eligible_student(season, first_name=first, last_name=last) for first, last in names]
    club = LeagueFactory(
        season=season,
        format=LeagueFormat.CLUB,
        challenge_rule=ChallengeRule.CLUB_BONUS_TO_CHALLENGER,
    )
    return table_of(club, players), players


def test_g9_g3_a_four_seat_report_is_checked_against_its_four_player_record(recorded_table):
    """Twelve passes end the game (G3); each player loses their own tiles (G1, standard)."""
    match, players = recorded_table
    record = (GCG / "club_night_four_players_passes.gcg").read_bytes()
    with pytest.raises(MatchError, match="Jo Okonkwo's score differs"):
        report_submit(
            actor=players[0].user,
            match=match,
            scores=[28, 14, -12, -20],
            unusual_confirmed=True,
            game_record=record,
        )
    report = report_submit(
        actor=players[0].user,
        match=match,
        scores=[28, 4, -12, -20],
        ended_by="scoreless_turns",
        unusual_confirmed=True,
        game_record=record,
    )
    lines = list(report.scores.order_by("order"))
    assert [line.pre_adjustment for line in lines] == [36, 12, 5, 9]
    assert [line.place for line in lines] == [1, 2, 3, 4]


def test_g9_a_record_of_three_players_for_a_table_of_four_is_refused(recorded_table):
    match, players = recorded_table
    with pytest.raises(MatchError, match="The game record has 3 players; this match has 4 seats"):
        report_submit(
            actor=players[0].user,
            match=match,
            scores=[300, 290, 280, 270],
            game_record=(GCG / "club_night_three_players.gcg").read_bytes(),
        )
    assert not ResultReport.objects.exists()


@pytest.mark.parametrize(
    ("rule", "flagged"),
    [(ChallengeRule.CLUB_BONUS_TO_CHALLENGER, False), (ChallengeRule.LOSE_TURN, True)],
)
def test_g5_a_tables_record_is_checked_under_the_leagues_challenge_rule(
    client, season, rule, flagged
):
    """003 rule 9: the club's +10 to a successful challenger is applied, not only shown; a record
    kept under another challenge rule than the league's is flagged on the match page."""
    names = [("Sam", "Whitaker"), ("Ines", "Duarte"), ("Theo", "Marsh")]
    players = [eligible_student(season, first_name=first, last_name=last) for first, last in names]
    club = LeagueFactory(season=season, format=LeagueFormat.CLUB, challenge_rule=rule)
    match = table_of(club, players)
    report_submit(
        actor=players[0].user,
        match=match,
        scores=[47, 12, 2],
        unusual_confirmed=True,
        game_record=(GCG / "club_night_three_players.gcg").read_bytes(),
    )
    from django.urls import reverse

    client.force_login(players[1].user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert ("kept under another challenge rule" in page) is flagged


def test_g9_the_results_export_has_every_seat_of_a_table(client, table, four, director):
    from django.urls import reverse

    report = report_submit(actor=four[0].user, match=table, scores=[377, 412, 301, 390])
    for each in four[1:]:
        report_confirm(actor=each.user, report=report)
    client.force_login(director.user)
    lines = client.get(reverse("export_results", args=[table.league.slug])).content.decode()
    header, row = lines.splitlines()[:2]
    assert header.split(",")[3:7] == ["player_1", "score_1", "place_1", "outcome_1"]
    assert header.split(",")[-5:] == ["player_4", "score_4", "place_4", "outcome_4", "finalised_at"]
    assert ",377,3,loss," in row and ",412,1,win," in row and ",390,2,loss," in row

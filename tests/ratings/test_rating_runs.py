"""R2: an institution's games rated by period from the database (ratings/services.py, run by
league/rating_runs.py: the nightly and `manage.py rate`)."""

import pytest

from league.nightly import run_for_institution
from league.rating_runs import rate
from matches.models import MatchStatus
from matches.services import card_enter
from ratings.models import PlayerRating, RatingChange, RatingPeriod
from tests.support import entrant, refused, run, run_together, table_of

pytestmark = pytest.mark.django_db


def card(director, match, scores, **more):
    return card_enter(actor=director.user, match=match, scores=scores, **more)


def ratings_now(players):
    return {
        r.player_id: (round(r.rating, 6), round(r.deviation, 6), r.games)
        for r in PlayerRating.objects.filter(player__in=players)
    }


def history():
    return sorted(
        RatingChange.objects.values_list(
            "period__key", "player_id", "rating_before", "rating", "deviation", "games"
        )
    )


def test_r2_every_game_with_scores_is_rated_and_forfeits_byes_and_open_rounds_are_not(
    league, table, director
):
    ada, bo, cy, di = table
    card(director, table_of(league, [ada, bo]), [420, 380])
    forfeited = table_of(league, [cy, di])
    forfeited.status = MatchStatus.FORFEIT
    forfeited.save(update_fields=["status"])
    table_of(league, [ada, di])  # still to play: its round is not a period yet

    run_ = rate(league.season.institution)

    assert run_.periods == 1
    assert list(RatingPeriod.objects.values_list("key", flat=True)) == [
        f"r{league.rounds.get(number=1).pk}"
    ]
    rated = ratings_now(table)
    assert set(rated) == {ada.pk, bo.pk}
    assert rated[ada.pk][0] > 1500 > rated[bo.pk][0]
    assert rated[ada.pk][2] == 1


def test_r2_a_table_of_four_is_rated_as_its_six_pairings(league, director):
    players = [entrant(league) for _ in range(4)]
    card(director, table_of(league, players), [400, 390, 380, 370])
    rate(league.season.institution)
    rated = ratings_now(players)
    assert [rated[p.pk][2] for p in players] == [3, 3, 3, 3]
    by_place = [rated[p.pk][0] for p in players]
    assert by_place == sorted(by_place, reverse=True)  # first place highest, last lowest


def test_r2_running_it_twice_changes_nothing(league, table, director):
    ada, bo, cy, di = table
    card(director, table_of(league, [ada, bo]), [420, 380])
    card(director, table_of(league, [cy, di]), [300, 410])
    institution = league.season.institution
    rate(institution)
    before, now = history(), ratings_now(table)

    again = rate(institution)

    assert (again.periods, again.kept) == (0, 2)
    assert history() == before and ratings_now(table) == now


def test_r2_a_late_correction_rerates_from_its_period_forward_as_from_scratch(
    league, table, director
):
    ada, bo, cy, di = table
    first = table_of(league, [ada, bo])
    card(director, first, [420, 380])
    card(director, table_of(league, [ada, cy]), [400, 390])
    card(director, table_of(league, [bo, di]), [350, 360])
    institution = league.season.institution
    rate(institution)
    untouched = ratings_now(table)

    card(director, first, [380, 420], override_reason="Scores swapped on the card.")
    rerated = rate(institution)

    assert (rerated.periods, rerated.kept) == (3, 0)
    corrected = ratings_now(table)
    assert corrected[bo.pk][0] > untouched[bo.pk][0] and corrected[ada.pk][0] < untouched[ada.pk][0]
    rate(institution, from_scratch=True)
    assert ratings_now(table) == corrected


def test_r2_an_event_is_one_period_rated_once_its_last_round_is_complete(
    director, season, institution
):
    from tests.support import LeagueFactory

    event = LeagueFactory(season=season, name="Fest", slug="fest", format="event")
    a, b, c, d = (entrant(event) for _ in range(4))
    card(director, table_of(event, [a, b]), [400, 380])
    waiting = table_of(event, [c, d])
    assert rate(institution).periods == 0  # its second round is still open
    card(director, waiting, [390, 370])
    rate(institution)
    assert list(RatingPeriod.objects.values_list("key", "round")) == [(f"l{event.pk}", None)]
    assert RatingChange.objects.count() == 4


def test_r2_the_nightly_rates_the_days_games(league, table, director, institution):
    ada, bo, _, _ = table
    card(director, table_of(league, [ada, bo]), [420, 380])
    run_for_institution(institution=institution, today=institution.today())
    assert set(ratings_now(table)) == {ada.pk, bo.pk}


@pytest.mark.django_db(transaction=True)
def test_r2_two_runs_at_once_rate_each_period_once(league, table, director):
    ada, bo, cy, di = table
    card(director, table_of(league, [ada, bo]), [420, 380])
    card(director, table_of(league, [cy, di]), [300, 410])
    institution = league.season.institution

    outcomes = run_together(lambda: rate(institution), lambda: rate(institution))

    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert sorted((o.periods, o.kept) for o in outcomes) == [(0, 2), (2, 0)]
    assert RatingChange.objects.count() == 4


def test_r2_the_rate_command_says_what_it_did_and_refuses_an_unknown_institution(
    league, table, director
):
    ada, bo, _, _ = table
    card(director, table_of(league, [ada, bo]), [420, 380])
    out, _ = run("rate")
    assert f"{league.season.institution.slug}: 1 periods rated, 0 kept, 2 players" in out
    assert "no-such-place" in str(refused("rate", "--institution", "no-such-place"))

"""R1: a player's rating history on their profile (ratings/history.py, shown through
core/page_sections.py): a plot drawn as an inline SVG and a table of the rated periods,
read in one query however many there are. The plot's arithmetic is tested on its own, without a
database."""

import re
from datetime import date, timedelta
from itertools import pairwise

import pytest
from django.urls import reverse

from league.models import Entry
from league.rating_runs import rate
from matches.services import card_enter
from ratings import history
from ratings.history import (
    BOTTOM,
    HEIGHT,
    INSET,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    change_words,
    date_tick_indices,
    plot,
    rating_scale,
)
from ratings.models import PlayerRating
from tests.support import LeagueFactory, table_of

START = date(2025, 9, 9)


def played(director, league, players, scores, play_by):
    card_enter(actor=director.user, match=table_of(league, players, play_by=play_by), scores=scores)


def rows_of(page: str) -> list[str]:
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return [line.strip() for line in body.splitlines() if "<tr" in line]


@pytest.mark.django_db
def test_r1_the_profile_plots_each_rated_period_and_tables_it(
    client, league, table, director, season
):
    ada, bo, cy, di = table
    # Played out of date order: the history goes by the periods' days, not the rounds' numbers.
    played(director, league, [ada, bo], [420, 380], START + timedelta(days=14))
    played(director, league, [ada, cy], [300, 410], START)
    played(director, league, [ada, di], [390, 350], START + timedelta(days=7))
    event = LeagueFactory(season=season, name="Fall Fest", slug="fall-fest", format="event")
    for player in (ada, bo):
        Entry.objects.create(league=event, player=player)
    played(director, event, [ada, bo], [400, 399], START + timedelta(days=21))
    rate(league.season.institution)

    client.force_login(ada.user)
    page = client.get(reverse("profile")).content.decode()
    now = PlayerRating.objects.get(player=ada)

    # The plot: an image with a name and a summary, a dot per period joined by a line.
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert 'role="img"' in svg
    assert 'aria-labelledby="rating-plot-title rating-plot-desc"' in svg
    assert 'viewBox="0 0 320 180" width="100%"' in svg
    summary = re.search(r'<desc id="rating-plot-desc">([^<]*)</desc>', svg).group(1)
    assert summary == (
        f"Rating from 1500 to {round(now.rating)} over 4 periods, Sep 9, 2025 to Sep 30, 2025."
    )
    assert svg.count("<circle") == 4 and svg.count("<polyline") == 1
    assert svg.count('class="dot provisional"') == 4  # four games: provisional throughout
    assert "style=" not in svg  # the Content-Security-Policy allows no inline style

    # The table: each period with its day and what it was, the rating before and after, chained.
    rows = rows_of(page)
    assert len(rows) == 4
    assert "Sep 9, 2025" in rows[0] and "Tuesday League, round 2" in rows[0]
    assert "Sep 16, 2025" in rows[1] and "Tuesday League, round 3" in rows[1]
    assert "Sep 23, 2025" in rows[2] and "Tuesday League, round 1" in rows[2]
    assert (
        "Sep 30, 2025" in rows[3] and '<th scope="row">Fall Fest<' in rows[3]
    )  # an event: its name
    ratings = [
        re.search(r'<td><span class="before">(\d+)\*? → </span>(\d+)\*?</td>', row).groups()
        for row in rows
    ]
    assert ratings[0][0] == "1500"
    assert all(before == previous[1] for previous, (before, _) in pairwise(ratings))
    assert ratings[-1][1] == str(round(now.rating))
    assert "−" in rows[0] and "+" in rows[1]  # lost the first, won the second
    assert all('<td class="col-games">1</td>' in row for row in rows)  # one game in each period
    assert "A rating marked * (a hollow dot) is provisional" in page
    assert '<div class="table-wrap" tabindex="0" role="region"' in page


@pytest.mark.django_db
def test_r1_a_single_rated_period_is_a_single_point(client, league, table, director):
    ada, bo, *_ = table
    played(director, league, [ada, bo], [420, 380], START)
    rate(league.season.institution)
    client.force_login(bo.user)
    page = client.get(reverse("profile")).content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert svg.count("<circle") == 1 and "<polyline" not in svg
    assert "over 1 period," in svg
    assert len(rows_of(page)) == 1


@pytest.mark.django_db
def test_r1_a_player_without_rated_games_sees_a_sentence_not_an_empty_plot(client, player):
    client.force_login(player.user)
    page = client.get(reverse("profile")).content.decode()
    assert "No rated games yet:" in page
    assert "<svg" not in page and 'data-testid="rating-history"' in page


@pytest.mark.django_db
def test_r1_the_profile_runs_the_same_queries_with_one_period_and_with_many(
    client, league, table, director, django_assert_num_queries
):
    ada, bo, cy, di = table
    played(director, league, [ada, bo], [420, 380], START)
    rate(league.season.institution)
    client.force_login(ada.user)
    client.get(reverse("profile"))
    # The session, user, profile, season, eligibility, history.
    with django_assert_num_queries(6) as one:
        assert "over 1 period," in client.get(reverse("profile")).content.decode()
    for week, opponent in enumerate([bo, cy, di, bo, cy, di], start=1):
        played(director, league, [ada, opponent], [350, 360], START + timedelta(weeks=week))
    rate(league.season.institution)
    with django_assert_num_queries(len(one.captured_queries)):
        assert "over 7 periods," in client.get(reverse("profile")).content.decode()


def test_r1_the_section_is_registered_once_with_the_profile():
    from core import page_sections

    assert page_sections._sections["profile"].count(history.history_section) == 1
    page_sections.register("profile", history.history_section)  # ready() may run again
    assert page_sections._sections["profile"].count(history.history_section) == 1


# --- The plot's arithmetic (pure) ---------------------------------------------------------------


def test_r1_the_rating_axis_is_round_numbers_around_the_ratings_at_most_five_ticks():
    assert rating_scale(1480, 1623) == (1450, 1650, 50)
    assert rating_scale(1500, 1500) == (1480, 1520, 10)  # a flat history is not stretched
    assert rating_scale(612, 2100) == (500, 2500, 500)
    for low, high in [(1480, 1623), (1500, 1501), (900, 1900), (1234, 1299)]:
        bottom, top, step = rating_scale(low, high)
        assert bottom <= low and high <= top and top - bottom >= 40
        assert (top - bottom) // step + 1 <= 5 and bottom % step == 0 == top % step


def test_r1_the_points_run_left_to_right_and_higher_ratings_higher():
    days = [START + timedelta(weeks=week) for week in range(5)]
    drawn = plot([1500, 1523, 1511, 1560, 1600], days, [True, True, True, False, False])
    xs = [point.x for point in drawn.points]
    ys = [point.y for point in drawn.points]
    assert xs[0] == LEFT + INSET and xs[-1] == WIDTH - RIGHT - INSET
    assert xs == sorted(xs) and len(set(round(b - a, 1) for a, b in pairwise(xs))) == 1
    assert ys[1] < ys[0] and ys[2] > ys[1] and ys[4] < ys[3]  # y grows downwards in SVG
    assert all(TOP <= y <= HEIGHT - BOTTOM for y in ys)
    assert [point.provisional for point in drawn.points] == [True, True, True, False, False]
    # The axis: its ticks' labels are ratings, the top one at the top of the drawing area.
    assert [tick.label for tick in drawn.rating_ticks] == [1500, 1525, 1550, 1575, 1600]
    assert drawn.rating_ticks[-1].at == TOP and drawn.rating_ticks[0].at == HEIGHT - BOTTOM
    # Dates under the first and the last point, anchored so that neither runs off the plot.
    assert [tick.label for tick in drawn.date_ticks][0] == days[0]
    assert drawn.date_ticks[-1].label == days[-1]
    assert (drawn.date_ticks[0].anchor, drawn.date_ticks[-1].anchor) == ("start", "end")


def test_r1_one_period_is_one_point_in_the_middle_and_none_is_nothing():
    drawn = plot([1523], [START], [True])
    assert len(drawn.points) == 1
    assert drawn.points[0].x == (LEFT + INSET + WIDTH - RIGHT - INSET) / 2
    assert drawn.date_ticks[0].anchor == "middle"
    assert plot([], [], []).points == []


def test_r1_at_most_four_dates_are_labelled_the_first_and_the_last_always_never_crowded():
    assert date_tick_indices(1) == [0]
    assert date_tick_indices(2) == [0, 1]
    assert date_tick_indices(4) == [0, 1, 2, 3]  # 85 apart
    assert date_tick_indices(5) == [0, 2, 4]  # not [0, 1, 3, 4]: Sep 9 and Sep 16 ran together
    assert date_tick_indices(9) == [0, 4, 8]
    assert date_tick_indices(40)[0] == 0 and date_tick_indices(40)[-1] == 39
    assert len(date_tick_indices(40)) == 4


def test_r1_a_change_is_written_from_the_whole_numbers_shown():
    assert change_words(1500, 1523.4) == "+23"
    assert change_words(1523.4, 1511.2) == "\N{MINUS SIGN}12"
    assert change_words(1500.4, 1499.6) == "0"  # 1500 → 1500 as shown

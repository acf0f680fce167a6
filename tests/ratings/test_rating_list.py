"""R1: the institution's rating list, for its signed-in members (/ratings/), named as members
see players (P2, P4)."""

import pytest
from django.urls import reverse

from accounts.services import profile_forget
from league.rating_runs import rate
from matches.services import card_enter
from tests.support import entrant, table_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(league, table, director):
    ada, bo, cy, di = table
    card_enter(actor=director.user, match=table_of(league, [ada, bo]), scores=[420, 380])
    card_enter(actor=director.user, match=table_of(league, [cy, di]), scores=[300, 410])
    rate(league.season.institution)
    return table


def rows_of(page: str) -> list[str]:
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return [line.strip() for line in body.splitlines() if "<tr" in line]


def test_r1_a_member_sees_every_rated_player_highest_first_with_their_own_row_marked(client, rated):
    ada, bo, cy, di = rated
    client.force_login(bo.user)
    page = client.get(reverse("rating_list")).content.decode()
    rows = rows_of(page)
    assert len(rows) == 4
    assert "Ada Example" in rows[0] or "Di Example" in rows[0]  # the two winners first
    mine = [row for row in rows if "Bo Example" in row]
    assert mine[0].startswith('<tr class="mine" aria-current="true">')  # site.css says "you"
    assert page.count("*</td>") == 4  # one game each: every rating provisional
    assert 'href="/ratings/"' in page  # the frame's link


def test_p2_p4_a_withheld_player_is_a_number_and_a_forgotten_one_a_former_player(
    client, rated, director
):
    ada, bo, cy, di = rated
    bo.withholds_name = True
    bo.save(update_fields=["withholds_name"])
    profile_forget(actor=director.user, profile=cy, reason="Asked to be forgotten.")
    client.force_login(ada.user)
    page = client.get(reverse("rating_list")).content.decode()
    assert "Bo Example" not in page and "Player " in page
    assert "Cy Example" not in page and "Former player" in page


def test_r1_the_list_needs_a_sign_in_and_runs_the_same_queries_for_many_players(
    client, rated, league, director, django_assert_num_queries
):
    assert client.get(reverse("rating_list")).status_code == 302  # to the log-in page
    ada = rated[0]
    client.force_login(ada.user)
    client.get(reverse("rating_list"))
    with django_assert_num_queries(4) as few:  # the session, the user (and profile), count, page
        client.get(reverse("rating_list"))
    more = [entrant(league) for _ in range(6)]
    for first, second in zip(more[::2], more[1::2], strict=True):
        card_enter(actor=director.user, match=table_of(league, [first, second]), scores=[300, 350])
    rate(league.season.institution)
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(reverse("rating_list"))

"""The pages of a student's own entry (E1): withdrawing from the league page, the waitlist on
the leagues list and the league page, the list filtered to what a student can join, and the
director's late entry in the admin."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Entry, League, Round, WaitlistEntry
from league.services import rounds_generate, waitlist_join
from matches.models import Match
from tests.support import LeagueFactory, eligible, eligible_student, entrant


def page(client, url, **kwargs) -> str:
    return client.get(url, **kwargs).content.decode()


def draw(league, director, **kwargs):
    first = kwargs.pop("first_play_by", timezone.localdate() + timedelta(days=7))
    rounds_generate(actor=director.user, league=league, first_play_by=first, **kwargs)


@pytest.fixture
def full_league(league):
    league.capacity = 2
    league.save()
    return league, [entrant(league, first_name=name) for name in ("Ada", "Bo")]


# --- Withdrawing from the league page ---------------------------------------------------------------


def test_e1_a_student_withdraws_from_the_league_page_before_the_draw_at_once(
    client, league, player, season
):
    Entry.objects.create(league=league, player=eligible(player, season))
    client.force_login(player.user)
    detail = page(client, league.get_absolute_url())
    assert "Withdraw from Tuesday League</button>" in detail

    response = client.post(reverse("league_withdraw", args=[league]), follow=True)

    assert "You withdrew from Tuesday League." in response.content.decode()
    assert not Entry.objects.get(player=player).active


def test_e1_after_the_draw_the_page_warns_of_the_forfeits_and_a_confirm_step_withdraws(
    client, league, director, season
):
    ada, *_ = (entrant(league, first_name=name) for name in ("Ada", "Bo", "Cy", "Di"))
    draw(league, director)
    client.force_login(ada.user)
    url = reverse("league_withdraw", args=[league])

    detail = page(client, league.get_absolute_url())
    assert "Withdrawing now turns your remaining 3 games into forfeits" in detail
    assert f'href="{url}"' in detail  # a link to the confirm step, not a button that does it
    confirm = page(client, url)
    assert "your remaining 3 games become forfeits to your opponents" in confirm
    assert "Withdraw and forfeit 3 games</button>" in confirm

    unconfirmed = client.post(url, follow=True).content.decode()
    assert "your remaining 3 games become forfeits" in unconfirmed
    assert Entry.objects.get(player=ada).active

    done = client.post(url, {"accept_forfeits": "yes"}, follow=True).content.decode()
    assert "You withdrew from Tuesday League. 3 games went to your opponents." in done
    assert not Entry.objects.get(player=ada).active


def test_e1_withdrawing_is_for_the_leagues_own_students(client, league, player, outsider, season):
    Entry.objects.create(league=league, player=eligible(player, season))
    client.force_login(outsider.user)
    assert client.post(reverse("league_withdraw", args=[league])).status_code == 404
    client.force_login(eligible_student(season).user)  # of the institution, not in the league
    assert client.post(reverse("league_withdraw", args=[league])).status_code == 404
    assert Entry.objects.get(player=player).active


# --- The waitlist ------------------------------------------------------------------------------------


def test_e1_a_full_league_offers_join_the_waitlist_and_its_page_shows_the_place(
    client, full_league, season
):
    league, (ada, _) = full_league
    first, me = eligible_student(season), eligible_student(season)
    waitlist_join(actor=first.user, league=league)
    client.force_login(me.user)

    listed = page(client, reverse("league_list"))
    assert "Join the waitlist for Tuesday League</button>" in listed
    assert "is full (2 players): join the waitlist" in listed

    joined = client.post(reverse("league_waitlist", args=[league]), follow=True)
    assert "You are on the waitlist for Tuesday League." in joined.content.decode()
    assert "You are number 2 on the waitlist for Tuesday League" in joined.content.decode()
    assert "Your place on the waitlist" in page(client, reverse("league_list"))

    left = client.post(reverse("league_waitlist_leave", args=[league]), follow=True)
    assert "You left the waitlist for Tuesday League." in left.content.decode()
    assert not WaitlistEntry.objects.filter(player=me).exists()


@pytest.mark.parametrize("address", ["league_waitlist", "league_waitlist_leave"])
def test_e1_a_waitlist_address_opened_by_get_leads_to_the_league_page_and_changes_nothing(
    client, full_league, season, address
):
    league, _ = full_league
    me = eligible_student(season)
    client.force_login(me.user)

    response = client.get(reverse(address, args=[league]))

    assert response.status_code == 302 and response.url == league.get_absolute_url()
    assert not WaitlistEntry.objects.exists()


def test_e1_the_league_page_says_it_started_without_a_student_still_waiting(
    client, full_league, director, season
):
    league, _ = full_league
    me = eligible_student(season)
    waitlist_join(actor=me.user, league=league)
    draw(league, director)
    client.force_login(me.user)
    assert "Tuesday League started without you" in page(client, league.get_absolute_url())
    assert "Tuesday League started without you" in page(client, reverse("league_list"))


# --- Say why before the tap, and the list filtered to what a student can join ----------------------


def test_l10_only_leagues_i_can_join_lists_the_open_ones_and_the_waitlists(
    client, league, player, season, director
):
    eligible(player, season)
    LeagueFactory(season=season, name="Open League", slug="open-league")
    full = LeagueFactory(season=season, name="Full League", slug="full-league", capacity=2)
    entrant(full), entrant(full)
    drawn = LeagueFactory(season=season, name="Drawn League", slug="drawn-league")
    entrant(drawn), entrant(drawn)
    draw(drawn, director)
    mine = LeagueFactory(season=season, name="My League", slug="my-league")
    Entry.objects.create(league=mine, player=player)
    client.force_login(player.user)

    everything = page(client, reverse("league_list"))
    assert "Drawn League has started: its rounds are already drawn." in everything
    assert "disabled" in everything.split("Join Drawn League")[0].rsplit("<button", 1)[1]

    only_open = page(client, reverse("league_list"), data={"open": "1"})
    assert "Join Open League</button>" in only_open and "Join Tuesday League" in only_open
    assert "Join the waitlist for Full League" in only_open
    assert "Drawn League" not in only_open and "My League" not in only_open
    assert "Show all leagues" in only_open


@pytest.mark.parametrize("leagues", [1, 6])
def test_the_leagues_page_filtered_runs_a_constant_number_of_queries(
    client, player, season, leagues, django_assert_num_queries
):
    eligible(player, season)
    for _ in range(leagues):
        full = LeagueFactory(season=season, capacity=2)
        entrant(full), entrant(full)
        WaitlistEntry.objects.create(league=full, player=player)
        LeagueFactory(season=season)
    client.force_login(player.user)
    client.get(reverse("league_list"))
    # The session, the user; the list's count and its page (each league with its players,
    # rounds, the student's entry, waitlist place and eligibility); filtered, the open leagues.
    for query, queries in (({}, 4), ({"open": "1"}, 3)):
        with django_assert_num_queries(queries):
            assert client.get(reverse("league_list"), data=query).status_code == 200


def test_the_leagues_page_shows_twenty_leagues_a_page(client, player, season):
    """Issue 18: an institution with 200 leagues lists them a page at a time, newest season
    first and by name; the filtered list pages the same way."""
    from league.views import LEAGUES_PER_PAGE

    eligible(player, season)
    for number in range(LEAGUES_PER_PAGE + 3):
        LeagueFactory(season=season, name=f"League {number:02d}", slug=f"league-{number:02d}")
    client.force_login(player.user)
    first = page(client, reverse("league_list"))
    assert "League 00" in first and f"League {LEAGUES_PER_PAGE - 1:02d}" in first
    assert f"League {LEAGUES_PER_PAGE:02d}" not in first and "Page 1 of 2" in first
    second = page(client, reverse("league_list"), data={"page": 2})
    assert f"League {LEAGUES_PER_PAGE + 2:02d}" in second and "League 00" not in second
    only_open = page(client, reverse("league_list"), data={"open": "1", "page": 2})
    assert f"Join League {LEAGUES_PER_PAGE + 2:02d}" in only_open
    assert 'href="?open=1&amp;page=1"' in only_open


def test_e1_each_student_sees_their_own_join_button_on_the_kept_league_cards(
    client, league, player, season
):
    """Issue 18: the leagues list keeps each card rendered, the join button with it, so the
    student's own state is part of what a card is kept by; every button posts the page's one
    form, which holds the CSRF token, to its own league's join URL."""
    inside = entrant(league, first_name="Ada")
    eligible(player, season)
    client.force_login(inside.user)
    theirs = page(client, reverse("league_list"))
    client.force_login(player.user)
    mine = page(client, reverse("league_list"))

    assert "You are in this league." in theirs and "Join Tuesday League" not in theirs
    assert "You are in this league." not in mine
    join = reverse("league_join", args=[league])
    assert f'form="join-forms" formaction="{join}"' in mine
    assert mine.count('name="csrfmiddlewaretoken"') == 2  # the join form's and the log-out's

    client.post(join)
    assert Entry.objects.filter(league=league, player=player).exists()
    assert "You are in this league." in page(client, reverse("league_list"))


@pytest.mark.parametrize("players", [4, 9])
def test_e1_the_league_page_of_a_student_in_it_runs_a_constant_number_of_queries(
    client, league, director, season, players, django_assert_max_num_queries
):
    profiles = [entrant(league) for _ in range(players)]
    draw(league, director)
    client.force_login(profiles[0].user)
    client.get(league.get_absolute_url())
    # The anonymous page's five, the session, the user and their roles: nothing more.
    with django_assert_max_num_queries(8):
        assert "Withdrawing now turns your remaining" in page(client, league.get_absolute_url())


@pytest.mark.parametrize("waiting", [1, 8])
def test_e1_the_league_page_of_a_student_waiting_runs_a_constant_number_of_queries(
    client, full_league, season, waiting, django_assert_max_num_queries
):
    league, _ = full_league
    for _ in range(waiting):
        waitlist_join(actor=eligible_student(season).user, league=league)
    me = eligible_student(season)
    waitlist_join(actor=me.user, league=league)
    client.force_login(me.user)
    client.get(league.get_absolute_url())
    with django_assert_max_num_queries(9):  # the signed-in page's eight and the waitlist
        assert f"You are number {waiting + 1} on the waitlist" in page(
            client, league.get_absolute_url()
        )


# --- Joining from the league page ------------------------------------------------------------------


@pytest.mark.parametrize("others", [1, 6])
def test_l10_the_league_page_offers_join_to_an_eligible_student_not_in_it(
    client, league, season, others, django_assert_max_num_queries
):
    """Issue 17: the league page of a league a student could join had no Join; they had to go
    back to the list. It offers it, and joining brings them back to the page."""
    for _ in range(others):
        entrant(league)
    me = eligible_student(season)
    client.force_login(me.user)
    client.get(league.get_absolute_url())
    # The signed-in page's eight, the waitlist place and the eligibility.
    with django_assert_max_num_queries(10):
        html = page(client, league.get_absolute_url())
    assert f"Join {league.name}" in html
    response = client.post(reverse("league_join", args=[league]), {"back": "league"})
    assert response.url == league.get_absolute_url()
    assert Entry.objects.filter(league=league, player=me, withdrawn_at__isnull=True).exists()


def test_l10_the_league_page_says_why_a_pending_student_cannot_join(client, league, season):
    from tests.support import ProfileFactory

    pending = ProfileFactory(institution=season.institution)
    client.force_login(pending.user)
    html = page(client, league.get_absolute_url())
    assert f"Join {league.name}</button>" not in html
    assert "not eligible yet" in html


def test_e1_the_league_page_says_a_drawn_league_has_started_before_any_tap(
    client, league, director, season
):
    for _ in range(2):
        entrant(league)
    draw(league, director)
    me = eligible_student(season)
    client.force_login(me.user)
    html = page(client, league.get_absolute_url())
    assert "has started" in html and f"Join {league.name}</button>" not in html


# --- The director's late entry in the admin -------------------------------------------------------


@pytest.fixture
def drawn_five(league, director, season):
    players = [entrant(league) for _ in range(5)]
    draw(
        league,
        director,
        first_play_by=season.institution.today() - timedelta(days=1),
        allow_past=True,
    )
    return players


def test_e1_the_director_enters_a_player_late_in_the_admin_and_is_told_their_games(
    client, league, drawn_five, director, season
):
    late = eligible_student(season, first_name="Fay", last_name="Latimer")
    client.force_login(director.user)
    response = client.post(
        reverse("admin:league_entry_add"), {"league": league.pk, "player": late.pk}, follow=True
    )
    assert response.status_code == 200
    assert "Fay Latimer entered Tuesday League late: 4 games" in response.content.decode(), (
        response.context["adminform"].form.errors
    )
    assert Match.objects.filter(league=league, seats__player=late).count() == 4


def test_e1_a_refused_late_entry_in_the_admin_says_why_instead_of_a_blank_403(
    client, league, drawn_five, director, season
):
    client.force_login(director.user)
    url = reverse("admin:league_entry_add")
    client.post(url, {"league": league.pk, "player": eligible_student(season).pk})
    response = client.post(url, {"league": league.pk, "player": eligible_student(season).pk})
    assert response.status_code == 200  # the form again, not a 403
    assert "remaining rounds have no bye for a late entrant to take" in response.content.decode()
    assert Entry.objects.filter(league=league).count() == 6


def test_l10_the_admin_says_why_a_pending_student_is_not_enrolled(client, league, director):
    from tests.support import ProfileFactory

    pending = ProfileFactory(institution=league.season.institution)
    client.force_login(director.user)
    response = client.post(
        reverse("admin:league_entry_add"), {"league": league.pk, "player": pending.pk}
    )
    assert response.status_code == 200
    assert "not eligible yet for Fall 2026" in response.content.decode()
    assert not Entry.objects.filter(player=pending).exists()
    assert Round.objects.count() == 0


def test_e1_the_director_reads_the_waitlist_in_order_and_another_institutions_does_not(
    client, full_league, director, other_director, season
):
    league, _ = full_league
    first = eligible_student(season, first_name="Quinn", last_name="Firstwait")
    second = eligible_student(season, first_name="Remy", last_name="Secondwait")
    for student in (first, second):
        waitlist_join(actor=student.user, league=league)
    url = reverse("admin:league_waitlistentry_changelist")
    client.force_login(director.user)
    listed = page(client, url)
    assert listed.index("Quinn Firstwait") < listed.index("Remy Secondwait")
    client.force_login(other_director.user)
    assert "Firstwait" not in page(client, url)


def test_a_league_card_is_kept_rendered_and_shows_a_change_at_once(client, player, season):
    """Issue 18: the leagues list keeps each league's card rendered (core/fragments.py), keyed
    by every value it shows: a league that fills or is renamed shows so on the next request."""
    from core import fragments

    fragments.forget_all()
    eligible(player, season)
    league = LeagueFactory(season=season, name="Kept League", slug="kept-league", capacity=4)
    client.force_login(player.user)
    assert "4 of 4 places left" in page(client, reverse("league_list"))
    assert "4 of 4 places left" in page(client, reverse("league_list"))  # from the fragment
    entrant(league)
    League.objects.filter(pk=league.pk).update(name="Renamed League")
    shown = page(client, reverse("league_list"))
    assert "3 of 4 places left" in shown and "Renamed League" in shown
    assert "Kept League" not in shown


def test_a_fragment_refuses_a_model_instance_as_a_value(player):
    """A model instance compares by its primary key alone: as part of a key it would hide a
    change, so only plain values are kept."""
    from core.fragments import rendered

    with pytest.raises(TypeError, match="plain value"):
        rendered("league/_league_card.html", {"name": player})

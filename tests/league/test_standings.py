"""Standings (L6) and brackets (L11): what the nightly pipeline and every confirmed result
rebuild, and the public pages and JSON they are served as."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Bracket, Entry, Standing
from league.nightly import run_for_institution
from league.refresh import refresh_leagues
from league.standings import rebuild_standings
from matches.models import MatchStatus
from matches.services import (
    Ruling,
    rule,
)
from tests.support import (
    confirmed_game,
    entrant,
    match_between,
    submitted_report,
)


def night(institution, day, capture):
    with capture(execute=True):
        return run_for_institution(institution=institution, today=day)


# --- Standings (L6) ----------------------------------------------------------------------------------


def standing(league, profile):
    return Standing.objects.get(league=league, player=profile)


def test_l6_standings_count_wins_ties_forfeits_byes_and_spread(table, league, director, season):
    ada, bo, cy, di = table
    confirmed_game(
        match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380)
    )  # Ada +40
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(333, 333))  # tie
    rule(
        actor=director.user,
        match=match_between(league, ada, cy),
        ruling=Ruling.FORFEIT,
        forfeiting=[2],
        reason="no show",
    )
    rule(
        actor=director.user,
        match=match_between(league, bo, di),
        ruling=Ruling.DOUBLE_FORFEIT,
        reason="nobody reported",
    )
    submitted_report(
        match_between(league, ada, di),
        by=ada,
        scores=[500, 100],
        unusual_confirmed=True,
    )  # unconfirmed: L6

    rebuild_standings([league.pk])

    a = standing(league, ada)
    assert (a.wins, a.losses, a.forfeits_won, a.games) == (2, 0, 1, 2)
    assert a.spread == 40 + league.forfeit_spread
    assert (a.points_for, a.points_against) == (420, 380)  # forfeits add to spread only
    c = standing(league, cy)
    assert (c.ties, c.losses, c.forfeits_lost, c.win_points) == (1, 1, 1, Decimal("0.5"))
    assert c.spread == -league.forfeit_spread
    d = standing(league, di)
    assert (d.double_forfeits, d.losses, d.spread) == (1, 1, -league.double_forfeit_spread)
    assert [row.player for row in Standing.objects.filter(league=league)][0] == ada


def test_a_bye_is_a_win_with_the_forfeit_spread(league, director, season, institution):
    from league.services import rounds_generate

    for _ in range(3):
        entrant(league)
    rounds_generate(
        actor=director.user, league=league, first_play_by=timezone.localdate() + timedelta(days=7)
    )
    rebuild_standings([league.pk])
    assert set(Standing.objects.filter(league=league).values_list("byes", flat=True)) == {
        0
    }  # not yet

    rebuild_standings([league.pk], now=timezone.now() + timedelta(days=60))
    rows = Standing.objects.filter(league=league)
    # Three players, three rounds: each sat out once, and nothing else was played.
    assert {(r.byes, r.wins, r.spread, r.points_for, r.games) for r in rows} == {
        (1, 1, league.forfeit_spread, 0, 0)
    }


def test_ties_on_wins_go_to_spread_then_points_for(table, league):
    ada, bo, cy, di = table
    confirmed_game(
        match_between(league, ada, bo), winner=ada, loser=bo, scores=(400, 390)
    )  # Ada +10
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(450, 350))  # Cy +100
    rebuild_standings([league.pk])
    assert standing(league, cy).rank == 1 and standing(league, ada).rank == 2


def test_head_to_head_breaks_a_tie_on_wins_spread_and_points(table, league):
    ada, bo, cy, di = table
    confirmed_game(match_between(league, bo, ada), winner=bo, loser=ada, scores=(400, 350))
    confirmed_game(match_between(league, ada, cy), winner=ada, loser=cy, scores=(400, 350))
    confirmed_game(match_between(league, di, bo), winner=di, loser=bo, scores=(400, 350))
    # Ada and Bo: 1-1, spread 0, points for 750 each; Bo won their game.
    rebuild_standings([league.pk])
    assert standing(league, bo).rank < standing(league, ada).rank


def test_players_level_on_everything_share_a_rank(table, league):
    rebuild_standings([league.pk])
    assert set(Standing.objects.filter(league=league).values_list("rank", flat=True)) == {1}


def test_standings_are_live_a_confirmation_rebuilds_them(
    table, league, django_capture_on_commit_callbacks
):
    ada, bo, _, _ = table
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
    assert standing(league, ada).wins == 1


@pytest.mark.parametrize("games", [2, 20])
def test_the_rebuild_runs_a_constant_number_of_queries(
    table, league, games, django_assert_max_num_queries
):
    ada, bo, cy, di = table
    for _ in range(games // 2):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
        confirmed_game(match_between(league, cy, di), winner=di, loser=cy)
    # 10 for the table, 1 for brackets to advance, 4 to render its pages (the leagues, their
    # rows, brackets, the upsert), 1 to clear a failure to refresh it that it may have had.
    with django_assert_max_num_queries(16):
        refresh_leagues([league.pk])


# --- Brackets (L11) ------------------------------------------------------------------------------------


def test_l11_a_complete_regular_season_gets_a_seeded_playoff_bracket(
    table, league, institution, django_capture_on_commit_callbacks
):
    ada, bo, cy, di = table
    league.playoff_size = 4
    league.save()
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(450, 300))
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(420, 400))
    confirmed_game(match_between(league, ada, cy), winner=ada, loser=cy, scores=(400, 390))
    confirmed_game(match_between(league, bo, di), winner=bo, loser=di, scores=(410, 400))
    today = timezone.localdate()

    summary = night(institution, today, django_capture_on_commit_callbacks)

    assert summary.brackets_built == 1
    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds[0] == ada.pk  # seed 1 is the league leader
    finals_of_round_1 = [slot for slot in bracket.slots.all() if slot.round_index == 0]
    assert [(s.seed_a, s.seed_b) for s in finals_of_round_1] == [(1, 4), (2, 3)]
    assert all(s.match and s.match.round.playoff and s.match.deadline for s in finals_of_round_1)
    # The playoff does not change the regular-season table.
    first_game = finals_of_round_1[0].match
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(first_game, winner=ada, loser=di)
    assert standing(league, ada).wins == 2


def test_l11_winners_advance_and_the_final_crowns_a_champion(
    table, league, institution, django_capture_on_commit_callbacks
):
    from league.models import LeagueFormat

    ada, bo, cy, di = table
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for seed, profile in enumerate([ada, bo, cy, di], start=1):
        Entry.objects.filter(league=league, player=profile).update(seed=seed)
    today = league.season.registration_deadline + timedelta(days=1)
    night(institution, today, django_capture_on_commit_callbacks)
    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds == [ada.pk, bo.pk, cy.pk, di.pk]  # the director's order

    for slot in bracket.slots.filter(round_index=0):
        winner = slot.match.seats.get(order=1).player  # the better seed sits first
        loser = slot.match.seats.get(order=2).player
        with django_capture_on_commit_callbacks(execute=True):
            confirmed_game(slot.match, winner=winner, loser=loser)
    final = bracket.slots.get(round_index=1)
    assert final.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(final.match, winner=bo, loser=ada)
    bracket.refresh_from_db()
    assert bracket.champion == bo


def test_l11_which_leagues_are_ready_for_their_bracket(table, league, season):
    """The one definition the nightly job asks for all its leagues at once and the draw asks
    again for one league under its lock."""
    from league.models import LeagueFormat
    from league.playoffs import leagues_ready_for_bracket
    from tests.support import LeagueFactory

    ada, bo, cy, di = table

    def league_with(*, played: bool, open_match: bool = False, playoff_size: int = 4):
        made = LeagueFactory(season=season, playoff_size=playoff_size)
        if played:
            confirmed_game(match_between(made, ada, bo), winner=ada, loser=bo)
        if open_match:
            match_between(made, cy, di)
        return made

    complete = league_with(played=True)
    still_playing = league_with(played=True, open_match=True)
    no_matches = league_with(played=False)
    no_playoffs = league_with(played=True, playoff_size=1)
    drawn = league_with(played=True)
    Bracket.objects.create(league=drawn, size=2, seeds=[ada.pk, bo.pk])
    tournament = LeagueFactory(season=season, format=LeagueFormat.SINGLE_ELIMINATION)
    ids = [complete.pk, still_playing.pk, no_matches.pk, no_playoffs.pk, drawn.pk, tournament.pk]

    deadline = season.registration_deadline
    assert leagues_ready_for_bracket(ids, deadline) == {complete.pk}  # registration still open
    assert leagues_ready_for_bracket(ids, deadline + timedelta(days=1)) == {
        complete.pk,
        tournament.pk,
    }


def test_l11_no_bracket_while_regular_matches_are_open(
    match, league, institution, django_capture_on_commit_callbacks
):
    summary = night(institution, timezone.localdate(), django_capture_on_commit_callbacks)
    assert summary.brackets_built == 0


# --- Public JSON ---------------------------------------------------------------------------------------


def test_standings_json_serves_what_the_pipeline_built(client, table, league):
    ada, bo, _, _ = table
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380))
    refresh_leagues([league.pk])
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert data["league"] == league.slug and data["updated"]
    first = data["standings"][0]
    assert set(first) == {
        "rank",
        "player",
        "wins",
        "losses",
        "ties",
        "byes",
        "forfeits_won",
        "forfeits_lost",
        "double_forfeits",
        "spread",
        "points_for",
        "points_against",
        "games",
        "rating",  # R1: none until the player's first rated period
        "rating_provisional",
        "matches",  # G9: games sat; `games` counts the pairings
        "win_pct",
    }
    assert (first["player"], first["wins"], first["spread"]) == ("Ada Example", 1, 40)
    assert (first["matches"], first["win_pct"]) == (1, 1.0)
    assert (first["rating"], first["rating_provisional"]) == (None, None)


def test_r1_the_standings_show_each_players_rating_and_mark_a_provisional_one(
    client, table, league
):
    from league.rating_runs import rate

    ada, bo, _, _ = table
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380))
    rate(league.season.institution)
    refresh_leagues([league.pk])
    data = client.get(reverse("league_standings_json", args=[league])).json()
    rated = {row["player"]: (row["rating"], row["rating_provisional"]) for row in data["standings"]}
    assert rated["Ada Example"][0] > 1500 > rated["Bo Example"][0]
    assert rated["Ada Example"][1] is True  # one game: provisional
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert f'data-sort="{rated["Ada Example"][0]}">{rated["Ada Example"][0]}*</td>' in page
    assert "* marks a provisional one" in page


def test_bracket_json_has_the_public_shape_and_byes_have_no_player_b(
    client, league, institution, season, director
):
    from league.models import LeagueFormat

    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for _ in range(3):
        entrant(league)
    refresh_leagues(
        [league.pk], today=season.registration_deadline + timedelta(days=1), build_brackets=True
    )
    data = client.get(reverse("league_bracket_json", args=[league])).json()
    assert (data["league"], data["size"], data["champion"]) == (league.slug, 4, None)
    bye, game = data["rounds"][0]
    assert "player_b" not in bye and bye["status"] == "bye" and bye["winner"] == bye["player_a"]
    assert set(game) == {"seed_a", "player_a", "seed_b", "player_b", "winner", "status"}


@pytest.mark.parametrize("players", [4, 16])
def test_the_standings_page_reads_in_a_constant_number_of_queries(
    client, league, institution, season, players, django_assert_max_num_queries
):
    for _ in range(players):
        entrant(league)
    refresh_leagues([league.pk])
    with django_assert_max_num_queries(5):
        page = client.get(reverse("league_standings", args=[league]))
    assert page.status_code == 200
    assert page.content.decode().count("<tr") == players + 1


def test_a_private_leagues_json_is_not_public(client, league):
    league.public = False
    league.save()
    assert client.get(reverse("league_standings_json", args=[league])).status_code == 404


def test_l10_a_tournament_bracket_leaves_out_a_player_ruled_ineligible_and_says_why(
    client, table, league, institution, season, director, django_capture_on_commit_callbacks
):
    from league.models import LeagueFormat
    from tests.support import ruled_ineligible

    ada, bo, cy, di = table
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for seed, profile in enumerate([ada, bo, cy, di], start=1):
        Entry.objects.filter(league=league, player=profile).update(seed=seed)
    ruled_ineligible(bo, season, director=director, reason="Suspended")

    night(
        institution,
        season.registration_deadline + timedelta(days=1),
        django_capture_on_commit_callbacks,
    )

    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds == [ada.pk, cy.pk, di.pk]  # Ada's bye; Cy v Di
    game = bracket.slots.get(round_index=0, match__isnull=False).match
    assert {seat.player_id for seat in game.seats.all()} == {cy.pk, di.pk}
    client.force_login(director.user)
    page = client.get(reverse("admin:league_league_changelist")).content.decode()
    assert "Bo Example is not eligible to play in Fall 2026: Suspended." in page


def test_l10_a_playoff_takes_the_next_eligible_player_in_the_standings(
    table, league, institution, season, director, django_capture_on_commit_callbacks
):
    from tests.support import ruled_ineligible

    ada, bo, cy, di = table
    league.playoff_size = 2
    league.save()
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(450, 300))
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(420, 400))
    ruled_ineligible(ada, season, director=director, reason="Not enrolled")

    night(institution, timezone.localdate(), django_capture_on_commit_callbacks)

    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds == [cy.pk, di.pk]  # Ada led the table; Bo, losing by more, is fourth
    assert bracket.left_out == [
        {"player": ada.pk, "why": "Ada Example is not eligible to play in Fall 2026: Not enrolled."}
    ]


def test_l10_a_bracket_game_against_a_player_ruled_ineligible_goes_to_the_opponent(
    table, league, institution, season, director, django_capture_on_commit_callbacks
):
    """Ada won her semi-final and waits for the final; ruled ineligible meanwhile, she has no
    open match to forfeit. The final is drawn when the other semi-final ends, and goes at once to
    her opponent by forfeit instead of waiting to become a double forfeit."""
    from league.models import LeagueFormat
    from tests.support import ruled_ineligible

    ada, bo, cy, di = table
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for seed, profile in enumerate([ada, bo, cy, di], start=1):
        Entry.objects.filter(league=league, player=profile).update(seed=seed)
    night(
        institution,
        season.registration_deadline + timedelta(days=1),
        django_capture_on_commit_callbacks,
    )
    bracket = Bracket.objects.get(league=league)
    ada_v_di, bo_v_cy = (
        slot.match for slot in bracket.slots.filter(round_index=0).order_by("position")
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(ada_v_di, winner=ada, loser=di)
    ruled_ineligible(ada, season, director=director, reason="Suspended")

    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(bo_v_cy, winner=bo, loser=cy)

    final = bracket.slots.get(round_index=1).match
    assert final.status == MatchStatus.FORFEIT
    assert final.seats.get(player=bo).outcome == "forfeit_win"
    assert "Suspended" not in final.audit_events.get(action="forfeit").reason  # players see it
    bracket.refresh_from_db()
    assert bracket.champion == bo

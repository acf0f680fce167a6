"""E1 end to end in a real browser: a campus league season from entry to its champion. Four
students join on the leagues page, the director draws the round robin in the admin, players
propose and accept a time (L1) and the winners report (L7) on the match page while the losers
confirm (L6); one game is never reported and the nightly job makes it a double forfeit (L8);
the standings page shows the order, the same night draws the playoff from it (L11), and the
bracket is played through on the match pages until the bracket page names the champion."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Bracket, LeagueFormat
from matches.models import Match, MatchStatus
from tests.browser import (
    DESKTOP,
    PHONE,
    accept_the_time,
    confirm_the_result,
    draw_the_rounds,
    join,
    propose_a_time,
    report_the_result,
    shoot,
    signed_in,
)
from tests.support import LeagueFactory, confirmed_game, eligible_student

pytestmark = pytest.mark.browser

NAMES = {"Ines": "Varga", "Omar": "Haddad", "Lena": "Fischer", "Tomas": "Reyes"}
# The regular season, by who met whom: (winner, winner's score, loser's score). Ines wins
# everything, Omar beats the other two, and Lena and Tomas never report their game.
REGULAR = {
    frozenset({"Ines", "Omar"}): ("Ines", 410, 370),
    frozenset({"Ines", "Lena"}): ("Ines", 400, 330),
    frozenset({"Ines", "Tomas"}): ("Ines", 420, 300),
    frozenset({"Omar", "Lena"}): ("Omar", 390, 360),
    frozenset({"Omar", "Tomas"}): ("Omar", 380, 350),
}
UNREPORTED = frozenset({"Lena", "Tomas"})
# Lena and Tomas both lose three (their double forfeit among them); Lena's spread is better.
TABLE = ["Ines Varga", "Omar Haddad", "Lena Fischer", "Tomas Reyes"]
# The playoff: 1 v 4 and 2 v 3, then the final; the third seed goes all the way.
PLAYOFF = {
    frozenset({"Ines", "Tomas"}): ("Ines", 430, 390),
    frozenset({"Omar", "Lena"}): ("Lena", 405, 399),
    frozenset({"Ines", "Lena"}): ("Lena", 388, 372),
}
IN_THE_BROWSER = 2  # regular-season games played through the pages; the rest via the services


@pytest.fixture
def campus_league(transactional_db, institution, season, director):
    """A campus league of weekly rounds with a playoff of four, open for entry, and four eligible
    students who have not joined yet."""
    league = LeagueFactory(
        season=season,
        name="Campus League",
        slug="campus-league",
        format=LeagueFormat.LEAGUE,
        round_length_days=7,
        playoff_size=4,
    )
    players = {
        first: eligible_student(season, first_name=first, last_name=last)
        for first, last in NAMES.items()
    }
    return league, players


def first_names(match):
    return frozenset(seat.player.user.first_name for seat in match.seats.all())


def test_e1_a_campus_league_from_entry_through_a_double_forfeit_and_its_playoff_to_a_champion(
    browser, live_server, campus_league, institution, director
):
    league, players = campus_league
    base = live_server.url
    tz = institution.tz
    full = {first: f"{first} {last}" for first, last in NAMES.items()}

    # Each student joins on the leagues page, on their phone.
    phones = {first: signed_in(browser, base, players[first].user.email) for first in NAMES}
    for phone in phones.values():
        join(phone, base, "Campus League")

    # The director draws the round robin in the admin: three weekly rounds from tomorrow.
    desk = signed_in(browser, base, director.user.email, viewport=DESKTOP)
    first_play_by = institution.today() + timedelta(days=1)
    expect(draw_the_rounds(desk, base, league, first_play_by)).to_contain_text("3 rounds drawn")

    # The regular season. The first games are played through the match pages: the loser
    # proposes a time, the winner accepts it and reports, the loser confirms. The rest are
    # reported and confirmed through the same services the pages call (tests.support'
    # confirmed_game), to keep the journey fast. Lena and Tomas never report theirs.
    regular = (
        Match.objects.filter(league=league)
        .exclude(status=MatchStatus.BYE)
        .prefetch_related("seats__player__user")
        .order_by("round__number", "id")
    )
    assert {first_names(match) for match in regular} == {*REGULAR, UNREPORTED}
    tomorrow_evening = (timezone.localtime(timezone.now(), tz) + timedelta(days=1)).replace(
        hour=18, minute=0
    )
    played_here = 0
    for match in regular:
        if first_names(match) == UNREPORTED:
            continue
        winner, won, lost = REGULAR[first_names(match)]
        loser = next(iter(first_names(match) - {winner}))
        if played_here < IN_THE_BROWSER:
            url = f"{base}{match.get_absolute_url()}"
            phones[loser].goto(url)
            propose_a_time(phones[loser], tomorrow_evening)
            phones[winner].goto(url)
            accept_the_time(phones[winner], tomorrow_evening)
            report_the_result(phones[winner], won, lost, full[loser])
            phones[loser].goto(url)
            confirm_the_result(phones[loser])
            expect(phones[loser].get_by_test_id("match-status")).to_have_text("Confirmed")
            played_here += 1
        else:
            confirmed_game(match, winner=players[winner], loser=players[loser], scores=(won, lost))
    shoot(phones["Ines"], "e1-1-regular-game-confirmed-phone")

    # The night after the last round's deadline: the unreported game becomes a double forfeit
    # (L8), and with the regular season complete the playoff is drawn (L11).
    last_play_by = first_play_by + timedelta(days=14)
    said = StringIO()
    call_command("run_nightly", "--today", f"{last_play_by + timedelta(days=1)}", stdout=said)
    assert "forfeits=1 " in said.getvalue() and "brackets_built=1 " in said.getvalue()
    forfeited = next(match for match in regular if first_names(match) == UNREPORTED)
    forfeited.refresh_from_db()
    assert forfeited.status == MatchStatus.DOUBLE_FORFEIT

    # The standings page shows the order, the double forfeit in both players' notes.
    lena = phones["Lena"]
    lena.goto(f"{base}/example-state/leagues/campus-league/standings/")
    rows = lena.locator("table.standings tbody tr")
    expect(rows.locator("th")).to_have_text(TABLE)
    expect(rows.nth(2)).to_contain_text("1 double forfeit")
    expect(rows.nth(3)).to_contain_text("1 double forfeit")
    shoot(lena, "e1-2-standings-phone")

    # The bracket page shows the playoff seeded from the table: 1 v 4, 2 v 3.
    lena.get_by_role("link", name="Playoff bracket").click()
    first_round = lena.get_by_role("region", name="Round 1")
    expect(first_round).to_contain_text(f"1 {full['Ines']}")
    expect(first_round).to_contain_text(f"4 {full['Tomas']}")
    expect(first_round).to_contain_text(f"3 {full['Lena']}")
    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds == [players[first].pk for first in ("Ines", "Omar", "Lena", "Tomas")]

    # The playoff, every game on the match pages: winners report, losers confirm, winners move on.
    for round_index in (0, 1):
        for slot in bracket.slots.filter(round_index=round_index).select_related("match"):
            assert slot.match is not None, f"round {round_index + 1} has no match to play"
            winner, won, lost = PLAYOFF[first_names(slot.match)]
            loser = next(iter(first_names(slot.match) - {winner}))
            url = f"{base}{slot.match.get_absolute_url()}"
            phones[winner].goto(url)
            report_the_result(phones[winner], won, lost, full[loser])
            phones[loser].goto(url)
            confirm_the_result(phones[loser])

    # The bracket page names the champion; so does the standings page, whose table the playoff
    # left as the regular season ended it.
    lena.goto(f"{base}/example-state/leagues/campus-league/bracket/")
    expect(lena.get_by_text("Champion:")).to_have_text(f"Champion: {full['Lena']}")
    expect(lena.get_by_role("region", name="Round 2")).to_contain_text(full["Ines"])
    shoot(lena, "e1-3-champion-phone")
    assert lena.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    lena.goto(f"{base}/example-state/leagues/campus-league/standings/")
    expect(lena.get_by_text("Champion:")).to_have_text(f"Champion: {full['Lena']}")
    expect(rows.locator("th")).to_have_text(TABLE)
    bracket.refresh_from_db()
    assert bracket.champion == players["Lena"] and bracket.finished_at is not None

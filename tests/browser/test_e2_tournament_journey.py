"""E2 end to end in a real browser: a campus single-elimination tournament from entry to its
champion. Five eligible students join on the leagues page and a sixth, still pending (L10), is
refused with the reason beside the greyed-out button; the director orders the seeds in the admin;
the night after registration closes the bracket is drawn with byes for the top three seeds
(L11); winners report on the match page (L7), losers confirm (L6), winners move on, and the
public bracket page names the champion."""

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from league.models import Bracket, Entry, LeagueFormat
from matches.models import GameEnd, ResultReport
from tests.browser import (
    DESKTOP,
    PHONE,
    confirm_the_result,
    join,
    report_the_result,
    shoot,
    signed_in,
)
from tests.support import LeagueFactory, ProfileFactory, SeasonFactory, eligible_student

pytestmark = pytest.mark.browser

# In the order they join.
NAMES = {"Priya": "Nair", "Felix": "Moreau", "Hana": "Sato", "Diego": "Alvarez", "Maeve": "Byrne"}
# The director's order, which is not the order of joining.
SEEDS = ["Hana", "Priya", "Maeve", "Felix", "Diego"]
# By who met whom: (winner, winner's score, loser's score). Five players, a bracket of eight:
# seeds 1 to 3 have byes, 4 plays 5; then 1 meets the winner of that, 2 meets 3; then the final.
RESULTS = {
    frozenset({"Felix", "Diego"}): ("Diego", 402, 388),
    frozenset({"Hana", "Diego"}): ("Hana", 441, 365),
    frozenset({"Priya", "Maeve"}): ("Maeve", 377, 371),
    frozenset({"Hana", "Maeve"}): ("Hana", 415, 380),
}
FINAL_ENDING = GameEnd.TIME_UP  # the final is reported with how it ended (G3)


@pytest.fixture
def tournament(transactional_db, institution, director):
    """A single-elimination tournament whose registration closes today, five eligible students
    and one whose eligibility is still pending."""
    today = institution.today()
    season = SeasonFactory(
        institution=institution,
        name="Fall 2026",
        slug="fall-2026",
        starts_on=today - timedelta(days=10),
        ends_on=today + timedelta(days=80),
        registration_deadline=today,
    )
    league = LeagueFactory(
        season=season,
        name="Fall Knockout",
        slug="fall-knockout",
        format=LeagueFormat.SINGLE_ELIMINATION,
    )
    players = {
        first: eligible_student(season, first_name=first, last_name=last)
        for first, last in NAMES.items()
    }
    pending = ProfileFactory(
        institution=institution, user__first_name="Quinn", user__last_name="Abbott"
    )
    return league, players, pending


def first_names(match):
    return frozenset(seat.player.user.first_name for seat in match.seats.all())


def test_e2_a_single_elimination_tournament_from_entry_to_a_champion(
    browser, live_server, tournament, institution, director
):
    league, players, pending = tournament
    base = live_server.url
    full = {first: f"{first} {last}" for first, last in NAMES.items()}

    # The eligible students join on the leagues page, on their phones.
    phones = {first: signed_in(browser, base, players[first].user.email) for first in NAMES}
    for phone in phones.values():
        join(phone, base, "Fall Knockout")

    # The pending student cannot: the button is greyed out and says why (L10).
    quinn = signed_in(browser, base, pending.user.email)
    quinn.goto(f"{base}/leagues/")
    button = quinn.get_by_role("button", name="Join Fall Knockout")
    expect(button).to_be_disabled()
    why = "You are not eligible yet for Fall 2026: see your home page."
    expect(button).to_have_accessible_description(why)
    expect(quinn.get_by_text(why)).to_be_visible()
    shoot(quinn, "e2-1-pending-refused-phone")
    assert not Entry.objects.filter(league=league, player=pending).exists()

    # The director orders the seeds in the admin, one entry after another.
    desk = signed_in(browser, base, director.user.email, viewport=DESKTOP)
    desk.goto(f"{base}/admin/league/entry/?league__id__exact={league.pk}")
    for seed, first in enumerate(SEEDS, start=1):
        desk.get_by_role("link", name=full[first]).click()
        desk.get_by_label("Seed").fill(str(seed))
        desk.get_by_role("button", name="Save", exact=True).click()
        expect(desk.locator(".messagelist")).to_contain_text("was changed successfully")
    ordered = Entry.objects.filter(league=league).order_by("seed")
    assert [entry.player_id for entry in ordered] == [players[first].pk for first in SEEDS]

    # Until registration closes the bracket page says when the bracket is drawn.
    visitor = browser.new_context(viewport=PHONE).new_page()
    visitor.goto(f"{base}/example-state/leagues/fall-knockout/bracket/")
    closed = league.season.registration_deadline
    expect(visitor.locator("main")).to_contain_text(
        f"The bracket is drawn once registration closes: the night after {closed:%b %-d}."
    )

    # Registration closed today: the nightly job of the next day draws the bracket (L11).
    said = StringIO()
    call_command("run_nightly", "--today", f"{closed + timedelta(days=1)}", stdout=said)
    assert "brackets_built=1 " in said.getvalue()
    bracket = Bracket.objects.get(league=league)
    assert (bracket.size, bracket.seeds) == (8, [players[first].pk for first in SEEDS])

    # Anyone sees the bracket: seeds 1 to 3 have byes, 4 plays 5.
    visitor.goto(f"{base}/example-state/leagues/fall-knockout/bracket/")
    first_round = visitor.get_by_role("region", name="Round 1")
    expect(first_round.get_by_text("bye")).to_have_count(3)
    expect(first_round).to_contain_text(f"4 {full['Felix']}")
    expect(first_round).to_contain_text(f"5 {full['Diego']}")
    expect(visitor.get_by_role("region", name="Round 2")).to_contain_text(f"2 {full['Priya']}")
    shoot(visitor, "e2-2-bracket-drawn-phone")
    # Entry is closed now for everyone.
    quinn.goto(f"{base}/leagues/")
    expect(quinn.get_by_role("button", name="Join Fall Knockout")).to_have_accessible_description(
        "Fall Knockout has started: its rounds are already drawn."
    )

    # Round by round, each game on the match page: the winner reports, the loser confirms, and
    # the winner moves on into a match of the next round.
    for round_index in range(3):
        for slot in bracket.slots.filter(round_index=round_index).select_related("match"):
            if slot.decided and slot.match is None:
                continue  # a bye
            assert slot.match is not None, f"round {round_index + 1} has no match to play"
            winner, won, lost = RESULTS[first_names(slot.match)]
            loser = next(iter(first_names(slot.match) - {winner}))
            url = f"{base}{slot.match.get_absolute_url()}"
            final = round_index == 2
            phones[winner].goto(url)
            ending = GameEnd(FINAL_ENDING).label if final else None
            report_the_result(phones[winner], won, lost, full[loser], ended_by=ending)
            phones[loser].goto(url)
            confirm_the_result(phones[loser])
            if final:  # how the final ended is kept and shown (G3)
                expect(phones[loser].locator("main")).to_contain_text(
                    re.compile(re.escape(GameEnd(FINAL_ENDING).label), re.IGNORECASE)
                )
                assert ResultReport.objects.get(match=slot.match).ended_by == FINAL_ENDING

    # The bracket page names the champion.
    visitor.goto(f"{base}/example-state/leagues/fall-knockout/bracket/")
    expect(visitor.get_by_text("Champion:")).to_have_text(f"Champion: {full['Hana']}")
    expect(visitor.get_by_role("region", name="Round 3")).to_contain_text(full["Maeve"])
    shoot(visitor, "e2-3-champion-phone")
    assert visitor.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bracket.refresh_from_db()
    assert bracket.champion == players["Hana"]

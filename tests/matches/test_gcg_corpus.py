"""Real records from Quackle and Macondo: each must read, add up and replay with every score
reproduced (G4).

The records are not the project's to copy, so they are read in place from the folder named by
the environment variable GCG_CORPUS_DIR (`make test` sets it when the folder sits beside the
checkout). Without it every test here is skipped, saying why."""

import os
from pathlib import Path

import pytest

from matches.scrabble import NORTH_AMERICAN, STANDARD, GcgError, check_gcg

CORPUS_DIR = os.environ.get("GCG_CORPUS_DIR", "")
CORPUS = Path(CORPUS_DIR).resolve() if CORPUS_DIR else None

# file → (final totals in player order, end-of-game rule the record follows), from the README.
EXPECTED = {
    "macondo__vs_frentz.gcg": ([439, 550], NORTH_AMERICAN),
    "macondo__josh2.gcg": ([397, 291], NORTH_AMERICAN),
    "macondo__noah_vs_peter.gcg": ([471, 407], NORTH_AMERICAN),
    "macondo__doug_v_emely_double_challenge.gcg": ([451, 345], NORTH_AMERICAN),
    "macondo__issue_476.gcg": ([422, 443], NORTH_AMERICAN),
    "macondo__utf8_dos.gcg": ([375, 488], NORTH_AMERICAN),
    "macondo__name_iso8859-1.gcg": ([32, 16], None),
    "macondo__some_isc_game.gcg": ([364, 409], NORTH_AMERICAN),
    "macondo__incomplete_elise.gcg": ([336, 298], None),
    "quackle__capp.gcg": ([481, 393], NORTH_AMERICAN),
    "quackle__fivepoint.gcg": ([452, 360], STANDARD),
    "quackle__boys1.gcg": ([433, 443], NORTH_AMERICAN),
    "quackle__multiplayer-crash.gcg": ([172, 184, 221, 149], None),
    "quackle__logan.gcg": ([440, 438], NORTH_AMERICAN),
}


def _corpus() -> Path:
    """The corpus folder, or a skip that says why there is none."""
    if CORPUS is None:
        pytest.skip("GCG_CORPUS_DIR not set: the real-world corpus test is skipped")
    if not CORPUS.is_dir():
        pytest.skip(f"GCG_CORPUS_DIR={CORPUS_DIR} is not a folder: the corpus test is skipped")
    return CORPUS


def _read(name: str) -> bytes:
    path = _corpus() / name
    if not path.is_file():
        pytest.skip(f"{name} is not in GCG_CORPUS_DIR={CORPUS_DIR}")
    return path.read_bytes()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_g4_corpus_record_replays_with_every_score_reproduced(name):
    totals, rule = EXPECTED[name]
    report = check_gcg(_read(name), verify=True)
    assert [str(problem) for problem in report.problems] == []
    assert list(report.final_totals.values()) == totals
    assert report.end_rule == rule


def test_corpus_names_in_latin1_and_utf8_are_decoded():
    assert list(check_gcg(_read("macondo__name_iso8859-1.gcg")).final_totals) == [
        "césar",
        "hércules",
    ]
    assert list(check_gcg(_read("macondo__some_isc_game.gcg")).final_totals) == [
        "arcadio",
        "úrsula",
    ]


def test_polish_record_is_refused_as_an_unsupported_tile_set_naming_the_line():
    with pytest.raises(GcgError, match="unsupported tile set") as refused:
        check_gcg(_read("macondo__polish_endgame.gcg"), verify=True)
    assert refused.value.line == 6


def test_every_corpus_file_is_covered():
    names = {path.name for path in _corpus().glob("*.gcg")}
    assert names - {"macondo__polish_endgame.gcg"} == set(EXPECTED)

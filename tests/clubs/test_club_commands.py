"""The club commands of the Public contract (E4, G9): create_event for a club, pair_round seating
a night, enter_scores from table score cards. Exit 0 done, 1 refused (reason on stderr, nothing
changed), 2 usage; the same input again changes nothing."""

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import CheckIn, Entry, League, LeagueFormat, Round
from matches.models import AuditEvent, Match, MatchStatus
from tests.support import LeagueFactory, entrant


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args) -> CommandError:
    with pytest.raises(CommandError) as caught:
        run(*args)
    return caught.value


@pytest.fixture
def club_file(tmp_path, season):
    first = season.starts_on + timedelta(days=2)
    data = {
        "name": "Thursday Club",
        "slug": "thursday-club",
        "format": "club",
        "venue": "Library, room 2",
        "rounds": [
            {"number": number, "date": (first + timedelta(days=7 * (number - 1))).isoformat()}
            for number in (1, 2, 3)
        ],
    }
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    return path, data


def create(path, season):
    return run(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )


# --- create_event ---------------------------------------------------------------------------------


def test_e4_create_event_makes_a_club_with_its_nights_and_the_club_challenge_rule(
    club_file, season
):
    path, data = club_file
    out, _ = create(path, season)
    league = League.objects.get(slug="thursday-club")
    assert out.strip() == "saved thursday-club: club, 3 nights"
    assert league.format == LeagueFormat.CLUB
    assert league.challenge_rule == "club_bonus_to_challenger"  # 003 rule 9, G5
    assert [str(day) for day in league.rounds.values_list("play_by", flat=True)] == [
        night["date"] for night in data["rounds"]
    ]


def test_e4_create_event_again_is_refused_and_update_with_the_same_file_changes_nothing(
    club_file, season
):
    path, _ = club_file
    create(path, season)
    error = refused(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )
    assert (
        error.returncode == 1 and "already has a league" in str(error) and "--update" in str(error)
    )
    out, _ = run(
        "create_event",
        str(path),
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        "--update",
    )
    assert out.startswith("unchanged")
    assert League.objects.count() == 1 and Round.objects.count() == 3


def test_e3_an_event_file_without_its_day_is_refused_and_a_missing_file_is_a_usage_error(
    club_file, season, tmp_path
):
    path, data = club_file
    path.write_text(json.dumps({**data, "format": "event"}))
    error = refused(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )
    assert error.returncode == 1 and "date: the event's day" in str(error)
    assert refused("create_event").returncode == 2
    assert not League.objects.exists()


def test_e4_export_renames_and_shifts_the_nights_to_the_new_first_date(club_file, season):
    path, data = club_file
    create(path, season)
    out, _ = run(
        "create_event", "--export", "thursday-club", "--slug", "club-next", "--date", "2031-01-09"
    )
    exported = json.loads(out)
    assert exported["slug"] == "club-next"
    assert [night["date"] for night in exported["rounds"]] == [
        "2031-01-09",
        "2031-01-16",
        "2031-01-23",
    ]
    assert exported["challenge_rule"] == "club_bonus_to_challenger"


# --- pair_round -----------------------------------------------------------------------------------


@pytest.fixture
def club(season):
    league = LeagueFactory(season=season, format=LeagueFormat.CLUB, slug="club")
    for number in (1, 2):
        Round.objects.create(league=league, number=number, play_by=season.starts_on)
    for index in range(7):
        entrant(league, first_name=f"M{index}")
    return league


def test_e4_pair_round_seats_all_entrants_and_prints_tables_in_seat_order(club):
    out, _ = run("pair_round", "--league", "club", "--all-entrants", "--seed", "4")
    lines = [line.split("\t") for line in out.strip().splitlines()]
    assert [table for table, _ in lines] == ["1", "2"]
    numbers = [[int(n) for n in seats.split(",")] for _, seats in lines]
    assert [len(seats) for seats in numbers] == [4, 3]
    assert sorted(sum(numbers, [])) == list(range(1, 8))
    first = Match.objects.filter(round__number=1).order_by("id").first()
    player_numbers = dict(Entry.objects.values_list("player_id", "player_number"))
    assert [
        player_numbers[p] for p in first.seats.order_by("order").values_list("player_id", flat=True)
    ] == numbers[0]


def test_e4_pair_round_again_is_refused_and_changes_nothing_unless_repair(club):
    run("pair_round", "--league", "club", "--round", "1", "--all-entrants")
    tables = list(Match.objects.values_list("id", flat=True))
    error = refused("pair_round", "--league", "club", "--round", "1", "--all-entrants")
    assert error.returncode == 1 and "already seated" in str(error)
    assert list(Match.objects.values_list("id", flat=True)) == tables
    out, _ = run("pair_round", "--league", "club", "--round", "1", "--repair")
    assert len(out.strip().splitlines()) == 2
    assert not Match.objects.filter(id__in=tables).exists()


def test_e4_pair_round_defaults_to_the_first_unseated_night_and_seats_only_the_checked_in(club):
    run("pair_round", "--league", "club", "--all-entrants")
    error = refused("pair_round", "--league", "club")  # night 2: nobody checked in yet
    assert error.returncode == 1 and "Nobody is checked in for night 2" in str(error)
    assert not CheckIn.objects.filter(round__number=2).exists()


def test_e4_pair_round_is_refused_for_a_league_that_is_not_a_club(league):
    error = refused("pair_round", "--league", league.slug)
    assert error.returncode == 1 and "club" in str(error)


# --- enter_scores ---------------------------------------------------------------------------------


def card_rows(scores_by_table):
    """CSV rows from the night's tables: (table, player_number, score) in seat order."""
    numbers = dict(Entry.objects.values_list("player_id", "player_number"))
    rows = ["table,player_number,score,ended"]
    for table, match in enumerate(Match.objects.filter(round__number=1).order_by("id"), start=1):
        players = match.seats.order_by("order").values_list("player_id", flat=True)
        for player, score in zip(players, scores_by_table[table - 1], strict=True):
            rows.append(f"{table},{numbers[player]},{score},out")
    return rows


def write(tmp_path, rows):
    path = tmp_path / "cards.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_e4_enter_scores_makes_the_tables_final_and_again_skips_them(club, tmp_path):
    run("pair_round", "--league", "club", "--all-entrants")
    path = write(tmp_path, card_rows([[412, 377, 390, 301], [350, 402, 288]]))
    out, _ = run("enter_scores", "--league", "club", "--round", "1", path)
    assert out.strip() == "tables=2 scores=7 skipped=0 conflicts=0"
    assert set(Match.objects.values_list("status", flat=True)) == {MatchStatus.CONFIRMED}
    out, _ = run("enter_scores", "--league", "club", "--round", "1", path)
    assert out.strip() == "tables=0 scores=0 skipped=2 conflicts=0"
    assert AuditEvent.objects.filter(action="card_entered").count() == 2


def test_e4_enter_scores_leaves_a_conflicting_table_as_it_was_and_exits_1(club, tmp_path):
    run("pair_round", "--league", "club", "--all-entrants")
    run(
        "enter_scores",
        "--league",
        "club",
        "--round",
        "1",
        write(tmp_path, card_rows([[412, 377, 390, 301], [350, 402, 288]])),
    )
    changed = write(tmp_path, card_rows([[412, 377, 390, 301], [350, 402, 289]]))
    with pytest.raises(CommandError) as caught:
        out = io.StringIO()
        call_command(
            "enter_scores",
            "--league",
            "club",
            "--round",
            "1",
            changed,
            stdout=out,
            stderr=io.StringIO(),
        )
    assert caught.value.returncode == 1
    assert out.getvalue().strip() == "tables=0 scores=0 skipped=1 conflicts=1"
    second = Match.objects.order_by("id").last()
    assert list(second.seats.order_by("order").values_list("score", flat=True)) == [350, 402, 288]


def test_e4_enter_scores_names_a_bad_rows_line_and_enters_the_other_tables(club, tmp_path):
    run("pair_round", "--league", "club", "--all-entrants")
    rows = card_rows([[412, 377, 390, 301], [350, 402, 288]])
    rows[6] = rows[6].replace(",402,", ",lots,")  # the second table's second seat, line 7
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "enter_scores",
            "--league",
            "club",
            "--round",
            "1",
            write(tmp_path, rows),
            stdout=out,
            stderr=err,
        )
    assert caught.value.returncode == 1
    assert "cards.csv:7:" in err.getvalue()
    assert out.getvalue().strip() == "tables=1 scores=4 skipped=0 conflicts=0"
    first, second = Match.objects.order_by("id")
    assert (first.status, second.status) == (MatchStatus.CONFIRMED, MatchStatus.SCHEDULED)

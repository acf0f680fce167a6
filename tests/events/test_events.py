"""One-day events (E3, G3, G8, G10): the settings file, entrants from CSV, check-in, pairing
rounds, score cards at the scoring table, the leaderboard and event.json, swaps, leaving
mid-event, and who may do what. Commands as the Public contract gives them."""

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import PlayerProfile
from events import selectors as event_selectors
from events import services as events
from events.models import Event, Team
from events.round_clock import round_clock
from league.models import CheckIn, Entry, League, LeagueFormat, Round
from matches.models import AuditEvent, Match, MatchStatus
from matches.policy import CARDS_ONLY_REFUSAL
from matches.services import CardConflict, card_enter, report_submit
from tests.support import (
    FEST,
    LeagueFactory,
    at,
    create_event,
    eligible,
    eligible_student,
    refused,
    rounds_started,
    run,
    write,
)


@pytest.fixture
def fest_file(tmp_path, season):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    return write(tmp_path, "fest.json", json.dumps(data)), data


@pytest.fixture
def fest(fest_file, season):
    path, _ = fest_file
    run("create_event", path, "--institution", season.institution.slug, "--season", season.slug)
    return rounds_started(League.objects.get(slug="fest"))


ENTRANTS = """name,category,team,player_number,email
Ada Quill,Competitive,,,
Bo Vance,competitive,,,
Cy Marsh,Competitive,,,
Di Okoro,Competitive,,,
Ed Lark,Competitive,,,
Fay Noor,Just for Fun,,,fay@example.org
Gus Hale,Just for Fun,,,
Hal Ibe,Just for Fun,,,
Lee Ward,Just for Fun,,,
Ivy Tran,Corporate Team,Acme Widgets,,
Jo Reyes,Corporate Team,Acme Widgets,,
Kit Moss,Corporate Team,Acme Widgets,,
"""


@pytest.fixture
def entered(fest, tmp_path):
    run("import_entrants", write(tmp_path, "in.csv", ENTRANTS), "--league", "fest")
    return fest


def pair(*extra):
    return run("pair_round", "--league", "fest", *extra)[0]


def tables_of(out):
    return [line.split("\t") for line in out.strip().splitlines()]


def number_of(name):
    return Entry.objects.get(league__slug="fest", player__display_name=name).player_number


# --- The settings file ------------------------------------------------------------------------


def test_e3_create_event_makes_the_event_with_its_categories_and_timed_rounds(fest_file, season):
    path, data = fest_file
    out, _ = run(
        "create_event", path, "--institution", season.institution.slug, "--season", season.slug
    )
    league = League.objects.get(slug="fest")
    assert out.strip() == f"saved fest: event on {data['date']}, 3 rounds, 3 categories"
    assert league.format == "event" and not league.campus_only and league.event.seats_per_table == 2
    assert league.event.champion_category.name == "Competitive"
    assert [(c.name, c.pairing_group, c.turn_seconds) for c in league.categories.all()] == [
        ("Competitive", "Competitive", 150),
        ("Just for Fun", "Fun", None),
        ("Corporate Team", "Fun", None),
    ]
    starts = [r.periods.get().starts.strftime("%H:%M") for r in league.rounds.order_by("number")]
    assert starts == ["18:00", "19:00", "20:00"]


def test_e3_the_file_exports_for_next_year_and_reads_back_unchanged(
    fest, fest_file, season, tmp_path
):
    _, data = fest_file
    out, _ = run("create_event", "--export", "fest")
    exported = json.loads(out)
    assert {k: exported[k] for k in data} == {**data, "venue": "Student Union Ballroom"}
    again = write(tmp_path, "again.json", out)
    out, _ = run(
        "create_event",
        again,
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        "--update",
    )
    assert out.startswith("unchanged fest")
    next_year, _ = run(
        "create_event", "--export", "fest", "--slug", "fest-next", "--date", "2031-10-04"
    )
    assert (
        json.loads(next_year)["slug"] == "fest-next"
        and json.loads(next_year)["date"] == "2031-10-04"
    )


def test_e3_a_bad_event_file_names_the_problem_and_creates_nothing(fest_file, season, tmp_path):
    _, data = fest_file
    for change, words in [
        (
            {
                "categories": [
                    {"name": "A", "pairing_group": "G", "turn_seconds": 150},
                    {"name": "B", "pairing_group": "G"},
                ]
            },
            "mixes turn timings",
        ),
        ({"champion_category": "Nope"}, "champion_category"),
        ({"rounds": [{"number": 1, "periods": [{"starts": "25:00", "minutes": 45}]}]}, "HH:MM"),
        ({"assists": [{"name": "Ringer", "first_cents": -5}]}, "assists[1].first_cents"),
        ({"date": "2999-01-01"}, "falls outside"),
    ]:
        path = write(tmp_path, "bad.json", json.dumps({**data, **change}))
        error = refused(
            "create_event", path, "--institution", season.institution.slug, "--season", season.slug
        )
        assert error.returncode == 1 and words in str(error), words
    assert not League.objects.exists()


# --- Entrants ---------------------------------------------------------------------------------


def test_e3_import_entrants_numbers_them_in_file_order_and_a_second_run_updates(fest, tmp_path):
    out, _ = run("import_entrants", write(tmp_path, "in.csv", ENTRANTS), "--league", "fest")
    assert out.strip() == "entrants=12 created=12 updated=0 refused=0"
    assert [number_of(n) for n in ("Ada Quill", "Kit Moss")] == [1, 12]
    assert Team.objects.get(league=fest).entrants.count() == 3
    assert Entry.objects.get(player__display_name="Bo Vance").entrant.category.name == "Competitive"
    moved = "name,category,player_number\nAda Quill,Just for Fun,1\n"
    out, _ = run("import_entrants", write(tmp_path, "moved.csv", moved), "--league", "fest")
    assert out.strip() == "entrants=1 created=0 updated=1 refused=0"
    assert Entry.objects.filter(league=fest).count() == 12
    assert Entry.objects.get(player_number=1).entrant.category.name == "Just for Fun"


def test_e3_the_same_entrants_file_imported_twice_changes_nothing(fest, tmp_path):
    """A row with only a name is the league's entrant of that name: the second run of the same
    file creates and updates nobody (it created the guests again, 42 rows leaving 68)."""
    path = write(tmp_path, "in.csv", ENTRANTS)
    run("import_entrants", path, "--league", "fest")
    before = list(Entry.objects.filter(league=fest).values_list("pk", "player_number"))

    out, _ = run("import_entrants", path, "--league", "fest")

    assert out.strip() == "entrants=12 created=0 updated=0 refused=0"
    assert list(Entry.objects.filter(league=fest).values_list("pk", "player_number")) == before
    assert PlayerProfile.objects.filter(user__isnull=True).count() == 12


def test_e3_a_name_only_row_updates_the_one_entrant_of_that_name_ignoring_case(fest, tmp_path):
    run("import_entrants", write(tmp_path, "in.csv", ENTRANTS), "--league", "fest")
    moved = "name,category\nada QUILL,Just for Fun\n"

    out, _ = run("import_entrants", write(tmp_path, "moved.csv", moved), "--league", "fest")

    assert out.strip() == "entrants=1 created=0 updated=1 refused=0"
    assert Entry.objects.get(player_number=1).entrant.category.name == "Just for Fun"
    assert Entry.objects.filter(league=fest).count() == 12


def test_e3_namesakes_in_one_file_are_refused_by_line_and_need_a_number_or_email(fest, tmp_path):
    text = "name\nSam Lee\nAl Moon\nSam Lee\n"

    out, err = run("import_entrants", write(tmp_path, "twins.csv", text), "--league", "fest")

    assert out.strip() == "entrants=1 created=1 updated=0 refused=2"
    assert ":2: refused: Sam Lee is also on line 4" in err
    assert ":4: refused: Sam Lee is also on line 2" in err
    told_apart = "name,email\nSam Lee,sam.one@example.org\nSam Lee,sam.two@example.org\n"
    out, _ = run("import_entrants", write(tmp_path, "apart.csv", told_apart), "--league", "fest")
    assert out.strip() == "entrants=2 created=2 updated=0 refused=0"
    # Two entrants of that name now: a name alone no longer says which one.
    out, err = run(
        "import_entrants", write(tmp_path, "one.csv", "name\nSam Lee\n"), "--league", "fest"
    )
    assert out.strip() == "entrants=0 created=0 updated=0 refused=1"
    assert "2 entrants are named Sam Lee" in err
    assert Entry.objects.filter(league=fest).count() == 3


def test_e3_bad_entrant_rows_are_reported_by_line_and_strict_imports_nothing(fest, tmp_path):
    text = (
        "name,category,player_number,campus_id\n"
        "Good One,,,\n"
        "Bad Category,Chess,,\n"
        "Bad Number,,x1,\n"
        "No Such Student,,,9999999\n"
    )
    path = write(tmp_path, "bad.csv", text)
    error = refused("import_entrants", path, "--league", "fest", "--strict")
    assert error.returncode == 1 and not Entry.objects.exists()
    out, err = run("import_entrants", path, "--league", "fest")
    assert out.strip() == "entrants=1 created=1 updated=0 refused=3"
    assert (
        ":3: refused: No category 'Chess'" in err
        and ":4: refused:" in err
        and ":5: refused:" in err
    )
    header = write(tmp_path, "header.csv", "who,category\nX,\n")
    assert "no name column" in str(refused("import_entrants", header, "--league", "fest"))


def test_e3_a_campus_only_event_refuses_guests_and_links_students_by_campus_id(
    fest, tmp_path, season
):
    fest.campus_only = True
    fest.save()
    student = eligible_student(season, first_name="Rae", last_name="Student")
    student.campus_id = "1234567"
    student.save()
    text = "name,campus_id\nA Guest,\nRae Student,1234567\n"
    out, err = run("import_entrants", write(tmp_path, "c.csv", text), "--league", "fest")
    assert out.strip() == "entrants=1 created=1 updated=0 refused=1" and "students only" in err
    assert Entry.objects.get(league=fest).player == student


# --- Pairing and score cards ------------------------------------------------------------------


def test_e3_pair_round_one_keeps_teammates_apart_gives_the_timed_bye_and_an_untimed_three(entered):
    out = pair("--all-entrants", "--seed", "7")
    lines = tables_of(out)
    tables = [line for line in lines if line[0] != "BYE"]
    byes = [line for line in lines if line[0] == "BYE"]
    assert [int(line[0]) for line in tables] == list(range(1, len(tables) + 1))
    assert len(byes) == 1  # five Competitive (timed): one bye
    competitive = {
        number_of(n) for n in ("Ada Quill", "Bo Vance", "Cy Marsh", "Di Okoro", "Ed Lark")
    }
    assert int(byes[0][1]) in competitive
    sizes = sorted(len(line[1].split(",")) for line in tables)
    # Seven in the untimed Fun group (Just for Fun and Corporate Team): one table of three.
    assert sizes == [2, 2, 2, 2, 3]
    acme = {number_of(n) for n in ("Ivy Tran", "Jo Reyes", "Kit Moss")}
    for line in tables:
        seated = {int(n) for n in line[1].split(",")}
        assert len(seated & acme) <= 1  # E3: teammates never share a table
        assert seated <= competitive or not seated & competitive  # groups apart
    assert Round.objects.get(league=entered, number=1).seed == 7
    assert "already paired" in str(refused("pair_round", "--league", "fest", "--round", "1"))


def _card_csv(round_number, scores_by_table):
    lines = ["table,player_number,score,ended"]
    for match in (
        Match.objects.filter(round__league__slug="fest", round__number=round_number)
        .exclude(status=MatchStatus.BYE)
        .order_by("table")
    ):
        numbers = {e.player_id: e.player_number for e in Entry.objects.filter(league=match.league)}
        for seat in match.seats.order_by("order"):
            score = scores_by_table(match.table, seat.order)
            lines.append(f"{match.table},{numbers[seat.player_id]},{score},out")
    return "\n".join(lines) + "\n"


def test_e3_rounds_go_in_order_cards_enter_from_csv_and_round_two_pairs_by_score(entered, tmp_path):
    pair("--all-entrants")
    error = refused("pair_round", "--league", "fest", "--round", "2")
    assert "Round 1 is not complete" in str(error)
    text = _card_csv(1, lambda table, seat: 300 + 10 * table + seat)
    path = write(tmp_path, "r1.csv", text)
    out, _ = run("enter_scores", "--league", "fest", "--round", "1", path)
    assert out.strip() == "tables=5 scores=11 skipped=0 conflicts=0"
    out, _ = run("enter_scores", "--league", "fest", "--round", "1", path)
    assert out.strip() == "tables=0 scores=0 skipped=5 conflicts=0"
    assert "scores entered" in str(
        refused("pair_round", "--league", "fest", "--round", "1", "--repair")
    )
    different = write(tmp_path, "r1b.csv", _card_csv(1, lambda table, seat: 200))
    error = refused("enter_scores", "--league", "fest", "--round", "1", different)
    assert "conflicts" in str(error)
    lines = tables_of(pair("--seed", "3"))
    assert lines  # round 2 paired among the same (checked in for the evening)
    state = event_selectors.event_state(entered)
    assert state.board.rows[0].total > 0 and len(state.board.categories["Competitive"]) >= 3


def test_e3_a_score_card_for_a_missing_table_or_player_is_refused_by_line(entered, tmp_path):
    pair("--all-entrants")
    text = "table,player_number,score\n99,1,300\n1,999,300\n"
    error = refused(
        "enter_scores", "--league", "fest", "--round", "1", write(tmp_path, "x.csv", text)
    )
    assert error.returncode == 1
    assert not Match.objects.filter(round__league=entered, status=MatchStatus.CONFIRMED).exists()


def test_e3_students_cannot_report_at_an_event_the_scoring_table_enters_cards(
    entered, season, director
):
    student = eligible_student(season, first_name="Lu", last_name="Park")
    events.entrant_save(
        actor=director.user,
        league=entered,
        details=events.EntrantDetails(name="", campus_id="", email=student.user.email),
        check_in=True,
    )
    pair("--all-entrants")
    match = Match.objects.get(round__league=entered, seats__player=student)
    if match.status == MatchStatus.BYE:
        pytest.skip("drawn a bye")
    with pytest.raises(Exception, match="scoring table"):
        report_submit(
            actor=student.user, match=match, scores=[400] + [300] * (match.seats.count() - 1)
        )
    assert CARDS_ONLY_REFUSAL.startswith("At this event")


def test_e3_a_volunteer_scorer_enters_cards_and_only_the_director_overrides(
    entered, client, director, season
):
    pair("--all-entrants")
    volunteer = events.scorer_invite(
        actor=director.user, league=entered, name="Val Unteer", email="val@example.org"
    ).user
    assert volunteer.institution == season.institution
    client.force_login(volunteer)
    match = Match.objects.filter(round__league=entered, table=1).get()
    seats = match.seats.count()
    url = reverse("event_scores", args=[at("fest"), 1])
    page = client.get(url)
    assert page.status_code == 200 and b"Table" in page.content
    seen = ",".join(str(s.player_id) for s in match.seats.order_by("order"))
    data = {"table": 1, "seen": seen, "score_1": 350, "score_2": 300, "ended_by": "went_out"}
    if seats == 3:
        data["score_3"] = 280
    response = client.post(url, data)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    again = client.post(url, {**data, "score_1": 351})
    assert again.status_code == 200 and b"call them over" in again.content
    overriding = client.post(url, {**data, "score_1": 351, "override_reason": "Misread"})
    assert b"Only the director" in overriding.content
    with pytest.raises(CardConflict):
        card_enter(actor=director.user, match=match, scores=[351, 300, 280][:seats])
    card_enter(
        actor=director.user, match=match, scores=[351, 300, 280][:seats], override_reason="Misread"
    )
    assert AuditEvent.objects.filter(match=match, action="card_entered").count() == 2
    missing = client.post(url, {"table": 77, "score_1": 1, "score_2": 2, "ended_by": "went_out"})
    assert b"no table 77" in missing.content


def test_e3_staff_pages_need_the_role_and_public_pages_do_not(entered, client, player):
    pair("--all-entrants")
    public = [
        reverse("league_detail", args=[at("fest")]),
        reverse("event_leaderboard", args=[at("fest")]),
        reverse("event_projector", args=[at("fest")]),
        reverse("event_projector_panel", args=[at("fest")]),
        reverse("event_round", args=[at("fest"), 1]),
        reverse("event_table", args=[at("fest"), 1, 1]),
        reverse("event_json", args=[at("fest")]),
    ]
    for url in public:
        assert client.get(url).status_code == 200, url
    client.force_login(player.user)
    for url in [
        reverse("event_desk", args=[at("fest")]),
        reverse("event_scores", args=[at("fest"), 1]),
        reverse("event_scorers", args=[at("fest")]),
    ]:
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("event_pair", args=[at("fest"), 2])).status_code == 404


def test_e3_event_json_has_the_contracts_shape(
    entered, client, tmp_path, django_capture_on_commit_callbacks
):
    pair("--all-entrants")
    with django_capture_on_commit_callbacks(execute=True):  # a final result re-renders it
        run(
            "enter_scores",
            "--league",
            "fest",
            "--round",
            "1",
            write(tmp_path, "r1.csv", _card_csv(1, lambda table, seat: 300 + table * 7 + seat)),
        )
    document = client.get(reverse("event_json", args=[at("fest")])).json()
    assert set(document) == {
        "institution",
        "league",
        "updated",
        "rounds",
        "standings",
        "categories",
        "champion",
        "teams",
        "assists_cents",
    }
    first = document["rounds"][0]
    assert first["status"] == "complete" and len(first["byes"]) == 1
    seat = first["tables"][0]["seats"][0]
    assert set(seat) == {"seat", "player_number", "name", "category", "team", "score"}
    assert document["rounds"][1]["status"] == "unpaired"
    row = document["standings"][0]
    assert set(row) == {
        "rank",
        "player_number",
        "name",
        "category",
        "team",
        "total",
        "games",
        "wins",
        "spread",
        "rating",  # R1: none until the event is rated (one period: once its last round is final)
        "rating_provisional",
    }
    assert (row["rating"], row["rating_provisional"]) == (None, None)
    assert set(document["categories"]) == {"Competitive", "Just for Fun", "Corporate Team"}
    # Round 1 of 3 complete: nobody is champion yet (the leader is on the page, not in here).
    assert document["champion"] is None
    assert document["teams"][0]["team"] == "Acme Widgets"


def test_e3_the_leaderboard_page_runs_the_same_queries_at_two_sizes(entered, client, tmp_path):
    pair("--all-entrants")
    url = reverse("event_leaderboard", args=[at("fest")])
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    more = "name,category\n" + "".join(f"Extra {i},Just for Fun\n" for i in range(30))
    run("import_entrants", write(tmp_path, "more.csv", more), "--league", "fest")
    run(
        "enter_scores",
        "--league",
        "fest",
        "--round",
        "1",
        write(tmp_path, "r1.csv", _card_csv(1, lambda table, seat: 300)),
    )
    with CaptureQueriesContext(connection) as large:
        assert client.get(url).status_code == 200
    assert len(large) == len(small)


# --- Swaps, leaving, the door ----------------------------------------------------------------


def test_e3_a_swap_that_puts_teammates_together_asks_first_and_is_audited(entered, director):
    pair("--all-entrants", "--seed", "7")
    round_ = Round.objects.get(league=entered, number=1)
    ivy, jo = (Entry.objects.get(player__display_name=n).player for n in ("Ivy Tran", "Jo Reyes"))
    # Jo swaps with whoever sits beside Ivy: teammates would share a table.
    ivy_table = Match.objects.get(round=round_, seats__player=ivy)
    neighbour = ivy_table.seats.exclude(player=ivy).first().player
    if Match.objects.get(round=round_, seats__player=jo) == ivy_table:
        pytest.skip("drawn together")
    with pytest.raises(events.SwapNeedsConfirming, match="teammates"):
        events.swap_players(actor=director.user, round=round_, first=jo, second=neighbour)
    warnings = events.swap_players(
        actor=director.user, round=round_, first=jo, second=neighbour, confirmed=True
    )
    assert warnings and Match.objects.get(round=round_, seats__player=jo) == ivy_table
    assert AuditEvent.objects.filter(action="swapped").count() == 2


def test_e3_an_entrant_who_leaves_keeps_their_scores_and_is_not_paired_again(
    entered, director, tmp_path
):
    pair("--all-entrants", "--seed", "7")
    run(
        "enter_scores",
        "--league",
        "fest",
        "--round",
        "1",
        write(tmp_path, "r1.csv", _card_csv(1, lambda table, seat: 300 + seat)),
    )
    leaver = Entry.objects.get(player__display_name="Gus Hale")
    events.entrant_leave(actor=director.user, league=entered, entry=leaver)
    pair("--seed", "2")
    assert not Match.objects.filter(
        round__number=2, round__league=entered, seats__player=leaver.player
    ).exists()
    board = event_selectors.event_state(entered).board
    row = next(r for r in board.rows if r.entrant.id == leaver.player_id)
    assert row.total > 0 and row.entrant.withdrawn


def test_e3_the_door_checks_in_by_number_and_adds_a_walk_in_in_one_form(fest, client, staff):
    client.force_login(staff.user)
    response = client.post(
        reverse("event_walk_in", args=[at("fest")]),
        {"name": "Walk In", "category": "Just for Fun", "team": "", "email": "", "campus_id": ""},
    )
    assert response.status_code == 302
    entry = Entry.objects.get(league=fest, player__display_name="Walk In")
    assert entry.player_number == 1 and CheckIn.objects.filter(entry=entry).exists()
    page = client.get(reverse("event_desk", args=[at("fest")]) + "?q=walk")
    assert b"Walk In" in page.content and b"1 of 1 here" in page.content
    bad = client.post(
        reverse("event_walk_in", args=[at("fest")]),
        {"name": "", "category": "Chess", "team": "", "email": "x", "campus_id": ""},
    )
    assert bad.status_code == 200 and Entry.objects.filter(league=fest).count() == 1


def test_e3_a_student_enters_online_in_the_category_they_choose(fest, client, season):
    student = eligible_student(season, first_name="Ola", last_name="Online")
    client.force_login(student.user)
    page = client.get(reverse("league_detail", args=[at("fest")]))
    assert b"Enter Scrabble Fest" in page.content
    client.post(reverse("league_join", args=[at("fest")]), {"category": "just for fun"})
    entry = Entry.objects.get(league=fest, player=student)
    assert entry.entrant.category.name == "Just for Fun" and entry.player_number == 1
    client.post(reverse("league_join", args=[at("fest")]), {"category": "Competitive"})
    entry.refresh_from_db()
    assert entry.entrant.category.name == "Competitive"
    assert Entry.objects.filter(league=fest).count() == 1
    refused_page = client.post(
        reverse("league_join", args=[at("fest")]), {"category": "Chess"}, follow=True
    )
    assert b"No category" in refused_page.content


def test_g8_the_timer_page_falls_back_on_bad_parameters_and_escapes_names(client, season):
    from tests.support import LeagueFactory

    league = LeagueFactory(season=season, slug="timer-league", turn_time_seconds=180)
    url = reverse("table_timer", args=[league])
    page = client.get(url, {"seconds": "9999", "players": "7", "names": "<b>Ann</b>,Ben"})
    assert page.status_code == 200
    assert b"Using the default" in page.content and b'data-seconds="180"' in page.content
    assert b"<b>Ann</b>" not in page.content and b"&lt;b&gt;Ann&lt;/b&gt;" in page.content
    assert client.get(url, {"seconds": "abc"}).status_code == 200
    league.public = False
    league.save()
    assert client.get(url).status_code == 404


def test_e3_a_private_events_json_is_for_its_staff_only(fest, client, player, staff):
    fest.public = False
    fest.save()
    url = reverse("event_json", args=[at("fest")])
    assert client.get(url).status_code == 404
    client.force_login(player.user)  # a student of the institution, not its staff
    assert client.get(url).status_code == 404
    client.force_login(staff.user)
    assert client.get(url).json()["league"] == "fest"
    assert client.get(reverse("event_json", args=[at("no-such-event")])).status_code == 404


def test_e3_the_director_uploads_the_settings_file_and_downloads_it_for_next_year(
    client, director, player, season, fest_file
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    path, data = fest_file
    client.force_login(player.user)
    assert client.get(reverse("event_setup")).status_code == 404
    client.force_login(director.user)
    bad = client.post(
        reverse("event_setup"),
        {"season": season.pk, "file": SimpleUploadedFile("f.json", b'{"format": "event",\n')},
    )
    assert bad.status_code == 200 and b"Not a JSON file (line 2)" in bad.content
    refused_page = client.post(
        reverse("event_setup"),
        {
            "season": season.pk,
            "file": SimpleUploadedFile("f.json", json.dumps({**data, "date": "x"}).encode()),
        },
    )
    assert b"the event&#x27;s day" in refused_page.content and not League.objects.exists()
    with open(path, "rb") as handle:
        response = client.post(
            reverse("event_setup"),
            {"season": season.pk, "file": SimpleUploadedFile("f.json", handle.read())},
        )
    assert response.status_code == 302 and response["Location"] == "/example-state/leagues/fest/"
    exported = client.get(reverse("event_settings_file", args=[at("fest")]))
    assert exported["Content-Disposition"] == 'attachment; filename="fest.json"'
    assert json.loads(exported.content)["categories"][0]["turn_seconds"] == 150


def test_g3_a_score_card_records_how_the_game_ended_and_the_table_page_says_it(
    entered, client, tmp_path
):
    pair("--all-entrants")
    match = Match.objects.filter(round__league=entered, table=1).get()
    lines = ["table,player_number,score,ended"]
    for seat in match.seats.order_by("order"):
        number = Entry.objects.get(league=entered, player=seat.player).player_number
        lines.append(f"1,{number},{300 + seat.order},time")
    run(
        "enter_scores",
        "--league",
        "fest",
        "--round",
        "1",
        write(tmp_path, "c.csv", "\n".join(lines)),
    )
    match.refresh_from_db()
    assert match.ended_by == "time_up"
    page = client.get(reverse("event_table", args=[at("fest"), 1, 1]))
    assert b"Time was up (equal turns played)" in page.content


def test_e5_a_four_seat_event_seats_teammates_apart_and_totals_the_teams(
    fest_file, season, tmp_path, django_capture_on_commit_callbacks
):
    path, data = fest_file
    challenge = {
        **data,
        "slug": "challenge",
        "name": "Corporate Challenge",
        "seats_per_table": 4,
        "team_size": 4,
        "short_team": "average_fill",
        "categories": [{"name": "Corporate", "pairing_group": "Corporate", "turn_seconds": 180}],
        "champion_category": None,
        "end_of_game_rule": "out_bonus",
    }
    create_event(season, tmp_path, challenge, "c.json")
    rows = ["name,team"] + [
        f"Player {t}-{m},Team {t}" for t in range(12) for m in range(4 if t else 3)
    ]
    out, _ = run(
        "import_entrants", write(tmp_path, "t.csv", "\n".join(rows) + "\n"), "--league", "challenge"
    )
    assert out.strip() == "entrants=47 created=47 updated=0 refused=0"
    lines = tables_of(run("pair_round", "--league", "challenge", "--all-entrants")[0])
    sizes = sorted(len(line[1].split(",")) for line in lines)
    assert sizes == [3] + [4] * 11  # 47 = eleven fours and a three (only where forced)
    team_of = {
        e.player_number: e.entrant.team.name for e in Entry.objects.filter(league__slug="challenge")
    }
    for line in lines:
        numbers = [int(n) for n in line[1].split(",")]
        assert len({team_of[n] for n in numbers}) == len(numbers)  # E5: a teammate per table
    scores = ["table,player_number,score,ended"]
    for line in lines:
        for seat, number in enumerate(line[1].split(","), start=1):
            scores.append(f"{line[0]},{number},{200 + seat},time")
    with django_capture_on_commit_callbacks(execute=True):
        out, _ = run(
            "enter_scores",
            "--league",
            "challenge",
            "--round",
            "1",
            write(tmp_path, "s.csv", "\n".join(scores)),
        )
    assert out.strip() == "tables=12 scores=47 skipped=0 conflicts=0"
    league = League.objects.get(slug="challenge")
    four = next(line for line in lines if len(line[1].split(",")) == 4)
    three_of_four = "table,player_number,score\n" + "".join(
        f"{four[0]},{number},300\n" for number in four[1].split(",")[:3]
    )
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command(
            "enter_scores",
            "--league",
            "challenge",
            "--round",
            "1",
            write(tmp_path, "3.csv", three_of_four),
            stdout=io.StringIO(),
            stderr=err,
        )
    assert f"table {four[0]} needs a row for each of its 4 seats" in err.getvalue()
    board = event_selectors.event_state(league).board
    short = next(team for team in board.teams if team.team == "Team 0")
    assert short.filled == 1 and len(short.members) == 3  # the team of three, averaged up
    fifth = "name,team\nOne Too Many,Team 1\n"
    out, err = run("import_entrants", write(tmp_path, "5.csv", fifth), "--league", "challenge")
    assert "Team 1 already has 4 members, the event's team size" in err
    assert out.strip().endswith("refused=1")
    moved = "name,team,player_number\nPlayer 2-0,Team 3,5\n"
    out, err = run("import_entrants", write(tmp_path, "m.csv", moved), "--league", "challenge")
    assert "belongs to one team" in err


def test_e5_g3_the_round_clock_says_the_period_the_break_and_when_time_is_up():
    from datetime import date, datetime, time
    from zoneinfo import ZoneInfo

    tz = ZoneInfo("America/Chicago")
    day = date(2026, 11, 24)
    periods = [(time(18, 30), 30), (time(19, 30), 30)]

    def clock(hour, minute):
        return str(
            round_clock(day, periods, tz, datetime(2026, 11, 24, hour, minute, tzinfo=tz), number=1)
        )

    assert clock(18, 0) == "Starts in 30 min"
    assert clock(18, 45) == "Round 1, period 1 of 2: 15 min left"
    assert clock(19, 10) == "Break: period 2 starts in 20 min"
    assert clock(19, 59) == "Round 1, period 2 of 2: 1 min left"
    assert clock(20, 0).startswith("Time is up: play on until every player has had the same")


def test_e3_every_event_page_runs_the_same_queries_at_two_sizes(entered, client, staff, tmp_path):
    """The round, table, projector, door, scoring and assists pages read the event in a fixed
    number of queries, whatever the number of entrants and tables."""
    pages = [
        reverse("league_detail", args=[at("fest")]),
        reverse("event_round", args=[at("fest"), 1]),
        reverse("event_table", args=[at("fest"), 1, 1]),
        reverse("event_projector_panel", args=[at("fest")]),
        reverse("event_desk", args=[at("fest")]),
        reverse("event_scores", args=[at("fest"), 1]),
        reverse("event_assists", args=[at("fest")]),
    ]

    def counts():
        pair("--all-entrants", "--repair", "--round", "1")
        client.force_login(staff.user)
        found = []
        for url in pages:
            client.get(url)  # warm the session and the caches
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            found.append(len(queries))
        return found

    small = counts()
    more = "name,category\n" + "".join(f"Extra {i},Just for Fun\n" for i in range(40))
    run("import_entrants", write(tmp_path, "more.csv", more), "--league", "fest")
    assert counts() == small


@pytest.mark.parametrize("events_listed", [1, 4])
def test_e3_events_on_the_leagues_list_cost_no_query_of_their_own(
    client, player, season, events_listed, django_assert_num_queries
):
    """An event takes entries until its day (or, without a day, until the season's deadline):
    the leagues list joins each event's day to its page's one query, so one event or four, with
    a day or without, run the same queries as plain leagues do."""
    eligible(player, season)
    for number in range(events_listed):
        league = LeagueFactory(season=season, format=LeagueFormat.EVENT, slug=f"event-{number}")
        if number % 2:
            Event.objects.create(league=league, date=season.starts_on + timedelta(days=10))
    client.force_login(player.user)
    client.get(reverse("league_list"))
    # The session, the user; the list's count and its page; filtered, the open leagues.
    pages = {}
    for query, queries in (({}, 4), ({"open": "1"}, 3)):
        with django_assert_num_queries(queries):
            response = client.get(reverse("league_list"), data=query)
        assert response.status_code == 200
        pages[bool(query)] = response.content.decode()
    assert all(
        f"/example-state/leagues/event-{number}/" in pages[False] for number in range(events_listed)
    )


def test_e3_the_champion_is_named_only_once_the_last_round_is_complete(
    entered, client, tmp_path, django_capture_on_commit_callbacks
):
    """Issue 30: mid-event a player who lost their only game led through a bye at their average
    and was called "Champion". Until the last round is complete the page names the leader and
    event.json's champion is null; a bye still counts at the entrant's average (E3)."""
    for number in (1, 2, 3):
        pair("--all-entrants") if number == 1 else pair()
        with django_capture_on_commit_callbacks(execute=True):
            run(
                "enter_scores",
                "--league",
                "fest",
                "--round",
                str(number),
                write(
                    tmp_path,
                    f"r{number}.csv",
                    _card_csv(number, lambda table, seat, n=number: 300 + table * 7 + seat + n),
                ),
            )
        document = client.get(reverse("event_json", args=[at("fest")])).json()
        page = client.get(reverse("event_leaderboard", args=[at("fest")])).content.decode()
        if number < 3:
            assert document["champion"] is None, number
            assert 'data-testid="leader"' in page and "Champion:" not in page
            assert "The champion is named when the last round is complete" in page
        else:
            assert document["champion"] == document["categories"]["Competitive"][0]
            assert "Champion:" in page and 'data-testid="leader"' not in page


def test_p1_p3_an_event_file_sets_the_public_names_and_search_engines_and_exports_them(
    fest_file, season, tmp_path
):
    _, data = fest_file
    strict = write(
        tmp_path,
        "strict.json",
        json.dumps({**data, "public_names": "number", "search_engines": True}),
    )
    run("create_event", strict, "--institution", season.institution.slug, "--season", season.slug)
    league = League.objects.get(slug="fest")
    assert (league.public_names, league.search_engines) == ("number", True)
    exported = json.loads(run("create_event", "--export", "fest")[0])
    assert (exported["public_names"], exported["search_engines"]) == ("number", True)

    bad = write(tmp_path, "bad.json", json.dumps({**data, "public_names": "initials"}))
    error = refused(
        "create_event",
        bad,
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        "--update",
    )
    assert "public_names" in str(error)

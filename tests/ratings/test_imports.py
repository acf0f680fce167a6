"""R5: known ratings imported from a file keyed by campus ID or e-mail become where those
players' ratings start (`manage.py import_ratings`), with the roster's refusals by line."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.errors import RosterFileError
from core.errors import NotAllowed
from league.rating_runs import rate
from matches.services import card_enter
from ratings.imports import ratings_import
from ratings.models import ImportedRating, PlayerRating, RatingChange
from ratings.rating_file import IMPORTED_DEVIATION, parse_ratings
from tests.support import refused, refused_saying, run, run_together, table_of, write

pytestmark = pytest.mark.django_db


def test_r5_each_bad_line_is_refused_by_number_and_the_good_ones_read():
    parsed = parse_ratings(
        "Campus ID,E-mail,Rating,RD\n"
        "1000001,,1650,\n"
        ",ada@example.edu,1400,80\n"
        ",,1500,\n"
        "1000002,,fifteen hundred,\n"
        "1000003,,5000,\n"
        "1000001,,1700,\n"
        ",not-an-address,1500,\n"
        "1000004,,1500,900\n"
        "1000005,,1500\n"
    )
    assert [
        (row.line, row.campus_id, row.email, row.rating, row.deviation) for row in parsed.rows
    ] == [
        (2, "1000001", "", 1650, IMPORTED_DEVIATION),
        (3, "", "ada@example.edu", 1400, 80),
    ]
    assert parsed.refused == [
        (4, "the line has neither a campus ID nor an e-mail address"),
        (5, "rating 'fifteen hundred' is not a number"),
        (6, "rating 5000 is outside 100–3000"),
        (7, "campus ID 1000001 is already on line 2"),
        (8, "e-mail 'not-an-address' is not an e-mail address"),
        (9, "deviation 900 is outside 30–350"),
        (10, "expected 4 fields as in the header, found 3"),
    ]


def test_r5_a_file_without_a_rating_or_a_player_column_is_refused_naming_its_header():
    with pytest.raises(RosterFileError, match="Line 1: the header needs one rating column"):
        parse_ratings("campus_id,score\n1000001,1500\n")
    with pytest.raises(RosterFileError, match="neither a campus_id nor an email column"):
        parse_ratings("name,rating\nAda,1500\n")


def test_r5_an_imported_rating_is_where_the_players_rating_starts_and_shows_before_any_game(
    tmp_path, league, table, director
):
    ada, bo, cy, di = table
    institution = league.season.institution
    path = write(
        tmp_path,
        "naspa.csv",
        f"campus_id,email,rating\n{ada.campus_id},,1850\n,{bo.user.email.upper()},1200\n"
        "9999999,,1500\n",
    )

    out, err = run("import_ratings", path, "--institution", institution.slug)

    assert "2 ratings imported, 0 unchanged, 1 lines refused" in out
    assert f"{path}:4: refused: no player at {institution.name} has campus ID 9999999" in err
    assert PlayerRating.objects.get(player=ada).rating == 1850  # before any game
    assert not PlayerRating.objects.get(player=ada).provisional

    card_enter(actor=director.user, match=table_of(league, [ada, cy]), scores=[300, 420])
    rate(institution)
    change = RatingChange.objects.get(player=ada)
    assert change.rating_before == 1850 and change.deviation_before == IMPORTED_DEVIATION
    # A settled 1850 losing to a newcomer drops a little; the newcomer gains a lot.
    assert 1800 < change.rating < 1850
    assert RatingChange.objects.get(player=cy).rating > 1600


def test_r5_importing_after_games_rates_them_again_from_the_new_start_and_twice_changes_nothing(
    tmp_path, league, table, director
):
    ada, bo, cy, di = table
    institution = league.season.institution
    card_enter(actor=director.user, match=table_of(league, [ada, bo]), scores=[420, 380])
    card_enter(actor=director.user, match=table_of(league, [ada, cy]), scores=[420, 380])
    rate(institution)
    assert RatingChange.objects.filter(player=ada).first().rating_before == 1500
    path = write(tmp_path, "known.csv", f"campus_id,rating\n{ada.campus_id},1900\n")

    run("import_ratings", path, "--institution", institution.slug)
    first = list(RatingChange.objects.filter(player=ada).order_by("period__ends_on", "pk"))
    assert [round(c.rating_before) for c in first][0] == 1900
    assert len(first) == 2
    now = PlayerRating.objects.get(player=ada).rating

    out, _ = run("import_ratings", path, "--institution", institution.slug)
    assert "0 ratings imported, 1 unchanged" in out
    assert PlayerRating.objects.get(player=ada).rating == now


def test_r5_strict_imports_nothing_when_a_line_is_refused_and_a_student_may_not_import(
    tmp_path, league, table, player
):
    ada = table[0]
    path = write(tmp_path, "known.csv", f"campus_id,rating\n{ada.campus_id},1900\n1,1500\n")
    error = refused(
        "import_ratings", path, "--institution", league.season.institution.slug, "--strict"
    )
    assert "1 rows rejected, nothing imported" in str(error)
    assert not ImportedRating.objects.exists()
    with pytest.raises(NotAllowed):
        ratings_import(
            actor=player.user,
            institution=league.season.institution,
            data=b"campus_id,rating\n1000001,1500\n",
        )
    assert "no such file" in str(
        refused("import_ratings", "/nope.csv", "--institution", league.season.institution.slug)
    )


def test_r5_the_director_imports_on_the_web_and_sees_each_refused_line(
    client, league, table, director, player
):
    ada = table[0]
    url = reverse("ratings_import")
    client.force_login(player.user)
    assert client.get(url).status_code == 404  # a student: no such page
    client.force_login(director.user)
    upload = SimpleUploadedFile(
        "known.csv", f"campus_id,rating\n{ada.campus_id},1750\n123,1500\n".encode()
    )

    page = client.post(url, {"file": upload, "encoding": "utf-8"}).content.decode()

    assert "1 ratings imported, 0 unchanged, 1 lines refused" in page
    assert "Line 3: no player at" in page
    assert PlayerRating.objects.get(player=ada).rating == 1750
    broken = SimpleUploadedFile("known.csv", b"campus_id,score\n1,2\n")
    page = client.post(url, {"file": broken, "encoding": "utf-8"}).content.decode()
    assert "the header needs one rating column" in page


def test_r5_one_player_named_twice_is_refused_on_the_later_line_by_the_same_key_or_the_other(
    tmp_path, league, table
):
    """A campus ID on line 2 and the same student's e-mail on line 3 made one insert touch one
    row twice: a ProgrammingError, a traceback. The first line stands."""
    ada, bo, cy, di = table
    institution = league.season.institution
    path = write(
        tmp_path,
        "twice.csv",
        "campus_id,email,rating\n"
        f"{ada.campus_id},,1800\n"
        f",{ada.user.email.upper()},1700\n"
        f",{bo.user.email},1400\n"
        f"{bo.campus_id},,1450\n"
        f"{cy.campus_id},,1600\n"
        f" {cy.campus_id} ,,1650\n",
    )

    out, err = run("import_ratings", path, "--institution", institution.slug)

    assert "3 ratings imported, 0 unchanged, 3 lines refused" in out
    assert err.splitlines()[:3] == [
        f"{path}:3: refused: e-mail {ada.user.email} is the player already on line 2",
        f"{path}:5: refused: campus ID {bo.campus_id} is the player already on line 4",
        f"{path}:7: refused: campus ID {cy.campus_id} is already on line 6",
    ]
    assert {r.player: r.rating for r in ImportedRating.objects.all()} == {
        ada: 1800,
        bo: 1400,
        cy: 1600,
    }


def test_r5_strict_prints_each_refused_line_as_refused_and_imports_nothing(tmp_path, league, table):
    ada, bo, *_ = table
    institution = league.season.institution
    path = write(
        tmp_path,
        "twice.csv",
        f"campus_id,email,rating\n{ada.campus_id},,1800\n,{ada.user.email},1700\n"
        f"{bo.campus_id},,1500\n{bo.campus_id},,1500\n",
    )

    error, err = refused_saying(
        "import_ratings", path, "--institution", institution.slug, "--strict"
    )

    assert error.returncode == 1
    assert err.splitlines() == [
        f"{path}:3: refused: e-mail {ada.user.email} is the player already on line 2",
        f"{path}:5: refused: campus ID {bo.campus_id} is already on line 4",
    ]
    assert "2 rows rejected, nothing imported" in str(error)
    assert not ImportedRating.objects.exists() and not PlayerRating.objects.exists()


def test_r5_the_web_import_refuses_one_player_named_twice_by_line(client, league, table, director):
    ada = table[0]
    url = reverse("ratings_import")
    client.force_login(director.user)
    data = f"campus_id,email,rating\n{ada.campus_id},,1750\n,{ada.user.email},1500\n".encode()

    page = client.post(
        url, {"file": SimpleUploadedFile("k.csv", data), "encoding": "utf-8", "strict": "on"}
    ).content.decode()

    assert f"Line 3: e-mail {ada.user.email} is the player already on line 2" in page
    assert not ImportedRating.objects.exists()
    page = client.post(
        url, {"file": SimpleUploadedFile("k.csv", data), "encoding": "utf-8"}
    ).content.decode()
    assert "1 ratings imported, 0 unchanged, 1 lines refused" in page
    assert f"Line 3: e-mail {ada.user.email} is the player already on line 2" in page
    assert ImportedRating.objects.get().rating == 1750


@pytest.mark.django_db(transaction=True)
def test_r5_an_import_racing_a_rating_run_still_starts_the_player_from_the_import(
    league, table, director
):
    """The import and the run both lock the institution's row: whichever goes second sees what
    the first did, and the import's own run rates from the new start."""
    ada, bo, cy, di = table
    institution = league.season.institution
    card_enter(actor=director.user, match=table_of(league, [ada, bo]), scores=[420, 380])
    card_enter(actor=director.user, match=table_of(league, [ada, cy]), scores=[400, 390])
    data = f"campus_id,rating\n{ada.campus_id},1900\n".encode()

    def import_then_rate():
        ratings_import(actor=None, institution=institution, data=data)
        return rate(institution)

    outcomes = run_together(import_then_rate, lambda: rate(institution))

    assert not [o for o in outcomes if isinstance(o, Exception)]
    first = RatingChange.objects.filter(player=ada).order_by("period__ends_on").first()
    assert first.rating_before == 1900
    assert RatingChange.objects.filter(player=ada).count() == 2

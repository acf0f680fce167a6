"""The registrar's roster (L10): `import_roster` and the admin upload. Bad files import nothing
and name the line; bad rows are skipped and reported (or, strict, refuse the file)."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.errors import RosterFileError
from accounts.models import EligibilityStatus, RosterEntry
from accounts.roster import decode_roster, parse_roster
from accounts.selectors import eligibility_of
from accounts.services import roster_import
from tests.support import refused_saying, ruled_ineligible

PATTERN = r"\d{7}"


def parse(text: str):
    return parse_roster(text, PATTERN, "seven digits")


# --- The parser, no database -------------------------------------------------------------------


def test_a_roster_with_a_header_reads_each_row_with_its_line():
    parsed = parse(
        "campus_id,first_name,last_name,email\n1234567,Ada,Brightwater,ada@example.edu\n"
    )
    assert [(r.line, r.campus_id, r.first_name, r.email) for r in parsed.rows] == [
        (2, "1234567", "Ada", "ada@example.edu")
    ]
    assert parsed.rejected == []


def test_header_names_are_forgiving_about_case_spaces_and_common_aliases():
    parsed = parse("Student ID;Surname\n".replace(";", ",") + "1234567,Stroud\n")
    assert parsed.rows[0].campus_id == "1234567"
    assert parsed.rows[0].last_name == "Stroud"


def test_a_roster_without_a_campus_id_column_is_refused_naming_what_it_found():
    with pytest.raises(
        RosterFileError, match=r"Line 1: .*no campus_id column \(found: name, email\)"
    ):
        parse("name,email\nAda,ada@example.edu\n")


def test_an_empty_roster_is_refused():
    with pytest.raises(RosterFileError, match="empty"):
        parse("\n\n")


def test_bad_rows_are_rejected_with_their_line_and_reason():
    text = (
        "campus_id,first_name\n"
        "1234567,Ada\n"
        "12AB,Bo\n"  # line 3: malformed
        "1234567,Ada again\n"  # line 4: duplicate
        ",Cy\n"  # line 5: empty
        "7654321\n"  # line 6: wrong field count
        "\n"
        "7777777,Di\n"
    )
    parsed = parse(text)
    assert [r.campus_id for r in parsed.rows] == ["1234567", "7777777"]
    assert parsed.rejected == [
        (3, "campus ID '12AB' is not in the institution's format (seven digits)"),
        (4, "campus ID 1234567 is already on line 2"),
        (5, "the campus ID is empty"),
        (6, "expected 2 fields as in the header, found 1"),
    ]


def test_l10_a_student_named_twice_keeps_the_first_line_by_campus_id_or_by_e_mail():
    parsed = parse(
        "campus_id,email\n"
        "1234567,ada@example.edu\n"
        " １２３４５６７ ,\n"  # line 3: the same campus ID, padded and in full-width digits
        "7654321,ADA@example.edu\n"  # line 4: Ada's address under another campus ID
        "2222222,not-an-address\n"  # line 5: refused, so it is no line to repeat
        "2222222,bo@example.edu\n"
    )
    assert [(r.line, r.campus_id) for r in parsed.rows] == [(2, "1234567"), (6, "2222222")]
    assert parsed.rejected == [
        (3, "campus ID 1234567 is already on line 2"),
        (4, "e-mail ADA@example.edu is already on line 2"),
        (5, "e-mail 'not-an-address' is not an e-mail address"),
    ]


def test_a_file_that_is_not_utf8_is_refused_naming_the_line():
    data = "campus_id,last_name\n1234567,Muller\n7654321,Müller\n".encode("latin-1")
    with pytest.raises(RosterFileError, match=r"Line 3: this is not UTF-8 text"):
        decode_roster(data)
    assert "Müller" in decode_roster(data, "latin-1")


@pytest.mark.parametrize("encoding", ["undefined", "punycode", "idna", "unicode_escape"])
def test_an_encoding_no_file_is_saved_in_is_refused_with_a_message(encoding):
    with pytest.raises(RosterFileError, match="is not an encoding files are saved in"):
        decode_roster(b"campus_id\n1234567\n", encoding)


@pytest.mark.parametrize(
    ("encoding", "message"),
    [("rot13", "is not a text encoding"), ("utf\x00", "is not an encoding Python knows")],
)
def test_a_codec_that_is_not_a_text_encoding_is_refused_with_a_message(encoding, message):
    with pytest.raises(RosterFileError, match=message):
        decode_roster(b"campus_id\n1234567\n", encoding)


def test_an_email_longer_than_254_characters_rejects_only_its_row():
    long_email = "a" * 250 + "@example.edu"
    parsed = parse(f"campus_id,email\n1234567,{long_email}\n7654321,ok@example.edu\n")
    assert [row.campus_id for row in parsed.rows] == ["7654321"]
    assert parsed.rejected == [(2, "the e-mail address is longer than 254 characters")]


def test_excels_byte_order_mark_is_not_part_of_the_header():
    text = decode_roster("\ufeffcampus_id\n1234567\n".encode())
    assert parse(text).rows[0].campus_id == "1234567"


def test_a_binary_file_is_refused_naming_the_line():
    with pytest.raises(RosterFileError, match="Line 2: .*NUL"):
        parse("campus_id\n12\x0034567\n")


# --- The service and the command -----------------------------------------------------------------


@pytest.fixture
def roster_file(tmp_path):
    def write(text: str, encoding="utf-8"):
        path = tmp_path / "roster.csv"
        path.write_bytes(text.encode(encoding))
        return str(path)

    return write


def run(path, season, *extra):
    call_command(
        "import_roster",
        path,
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        *extra,
    )


def test_l10_importing_the_roster_makes_registered_students_on_it_eligible(
    roster_file, season, player, opponent, capsys
):
    path = roster_file(f"campus_id,first_name\n{player.campus_id},Rowan\n9999999,Not Signed Up\n")

    run(path, season)

    assert eligibility_of(player, season).status == EligibilityStatus.ELIGIBLE
    assert eligibility_of(opponent, season).status == EligibilityStatus.PENDING
    assert RosterEntry.objects.filter(season=season).count() == 2
    out = capsys.readouterr().out
    assert (
        "2 rows read: 2 added, 0 already on the roster, 0 rejected; 1 registered students became eligible."
        in out
    )


def test_importing_the_same_roster_twice_changes_nothing(roster_file, season, player, capsys):
    path = roster_file(f"campus_id\n{player.campus_id}\n")
    run(path, season)
    events = player.eligibility_events.count()

    run(path, season)

    assert RosterEntry.objects.filter(season=season).count() == 1
    assert player.eligibility_events.count() == events
    assert "0 added, 1 already on the roster" in capsys.readouterr().out


def test_rejected_rows_are_reported_and_the_good_rows_imported(roster_file, season, capsys):
    path = roster_file("campus_id\n1234567\nnope\n")
    run(path, season)
    captured = capsys.readouterr()
    assert f"{path}:3: refused: campus ID 'nope'" in captured.err
    assert RosterEntry.objects.filter(season=season).count() == 1


def test_strict_import_refuses_the_whole_file_when_a_row_is_bad(roster_file, season):
    path = roster_file("campus_id\n1234567\nnope\n")
    with pytest.raises(CommandError, match="1 rows rejected, nothing imported"):
        run(path, season, "--strict")
    assert not RosterEntry.objects.exists()


TWICE = (
    "campus_id,email\n"
    "1234567,ada@example.edu\n"
    "1234567,\n"  # line 3: the same campus ID
    "7654321,Ada@Example.edu\n"  # line 4: the same student's address under another campus ID
    "7777777,cy@example.edu\n"
)


def test_l10_a_student_named_twice_is_refused_on_the_later_line_and_the_rest_imported(
    roster_file, season
):
    path = roster_file(TWICE)
    err = io.StringIO()

    call_command(
        "import_roster",
        path,
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        stdout=io.StringIO(),
        stderr=err,
    )

    assert err.getvalue().splitlines() == [
        f"{path}:3: refused: campus ID 1234567 is already on line 2",
        f"{path}:4: refused: e-mail Ada@Example.edu is already on line 2",
    ]
    assert dict(RosterEntry.objects.values_list("campus_id", "email")) == {
        "1234567": "ada@example.edu",
        "7777777": "cy@example.edu",
    }


def test_l10_strict_prints_each_refused_line_as_without_it_and_imports_nothing(roster_file, season):
    path = roster_file(TWICE)

    error, err = refused_saying(
        "import_roster",
        path,
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        "--strict",
    )

    assert error.returncode == 1
    assert "2 rows rejected, nothing imported" in str(error)
    assert err.splitlines() == [
        f"{path}:3: refused: campus ID 1234567 is already on line 2",
        f"{path}:4: refused: e-mail Ada@Example.edu is already on line 2",
    ]
    assert not RosterEntry.objects.exists()


def test_a_roster_missing_its_campus_id_column_exits_non_zero_and_imports_nothing(
    roster_file, season
):
    path = roster_file("name\nAda\n")
    with pytest.raises(CommandError, match="no campus_id column"):
        run(path, season)
    assert not RosterEntry.objects.exists()


def test_a_badly_encoded_roster_exits_non_zero_naming_the_line(roster_file, season):
    path = roster_file("campus_id,last_name\n1234567,Müller\n", encoding="latin-1")
    with pytest.raises(CommandError, match="Line 2: this is not UTF-8"):
        run(path, season)
    run(path, season, "--encoding", "latin-1")
    assert RosterEntry.objects.get().campus_id == "1234567"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--institution", "nowhere", "--season", "fall-2026"],
            "No institution with slug 'nowhere'",
        ),
        (["--institution", "example-state", "--season", "winter"], "No season 'winter'"),
    ],
)
def test_unknown_institution_or_season_is_named(roster_file, season, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("import_roster", roster_file("campus_id\n1234567\n"), *args)


def test_a_missing_file_is_named(season):
    with pytest.raises(CommandError, match="no such file"):
        run("/nonexistent/roster.csv", season)


def test_l10_the_roster_never_overrules_the_directors_ruling(season, player, director):
    ruled_ineligible(player, season, director=director)
    roster_import(
        actor=director.user, season=season, data=f"campus_id\n{player.campus_id}\n".encode()
    )
    assert eligibility_of(player, season).status == EligibilityStatus.INELIGIBLE


def test_a_large_roster_imports_in_a_constant_number_of_queries(
    season, institution, django_assert_max_num_queries
):
    from tests.support import ProfileFactory

    ProfileFactory.create_batch(30, institution=institution)
    ids = "\n".join(f"{1000000 + n}" for n in range(5000))
    with django_assert_max_num_queries(20):
        result = roster_import(actor=None, season=season, data=f"campus_id\n{ids}\n".encode())
    assert result.added == 5000
    assert result.newly_eligible == 30


# --- The admin upload ----------------------------------------------------------------------------


def test_the_director_uploads_a_roster_in_the_admin(client, season, director, player):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])
    upload = SimpleUploadedFile("roster.csv", f"campus_id\n{player.campus_id}\nbad\n".encode())

    response = client.post(url, {"file": upload, "encoding": "utf-8"})

    assert response.status_code == 200
    assert "1 added" in response.content.decode()
    assert "Rejected rows" in response.content.decode()
    assert eligibility_of(player, season).status == EligibilityStatus.ELIGIBLE


def test_a_broken_upload_re_renders_with_the_error_and_imports_nothing(client, season, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])
    response = client.post(
        url, {"file": SimpleUploadedFile("r.csv", b"name\nAda\n"), "encoding": "utf-8"}
    )

    assert response.status_code == 200
    assert "no campus_id column" in response.content.decode()
    assert not RosterEntry.objects.exists()


def test_another_institutions_director_cannot_reach_the_upload(client, season, other_director):
    client.force_login(other_director.user)
    response = client.get(reverse("admin:accounts_season_import_roster", args=[season.pk]))
    assert response.status_code == 404


@pytest.mark.parametrize("encoding", ["undefined", "punycode"])
def test_an_upload_in_an_unreadable_encoding_is_a_message_not_a_500(
    client, season, director, encoding
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])
    upload = SimpleUploadedFile("r.csv", b"campus_id\n1234567\n")
    response = client.post(url, {"file": upload, "encoding": encoding})

    assert response.status_code == 200
    assert "is not an encoding files are saved in" in response.content.decode()
    assert not RosterEntry.objects.exists()


def test_an_upload_with_an_email_over_254_characters_imports_the_other_rows(
    client, season, director
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])
    data = f"campus_id,email\n1234567,{'a' * 250}@example.edu\n7654321,ok@example.edu\n"
    upload = SimpleUploadedFile("r.csv", data.encode())
    response = client.post(url, {"file": upload, "encoding": "utf-8"})

    assert response.status_code == 200
    assert "longer than 254 characters" in response.content.decode()
    assert list(RosterEntry.objects.values_list("campus_id", flat=True)) == ["7654321"]


def test_l10_the_admin_upload_refuses_a_student_named_twice_by_line(client, season, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])

    strict = client.post(
        url,
        {"file": SimpleUploadedFile("r.csv", TWICE.encode()), "encoding": "utf-8", "strict": "on"},
    )
    assert strict.status_code == 200
    assert "2 rows rejected, nothing imported" in strict.content.decode()
    assert "e-mail Ada@Example.edu is already on line 2" in strict.content.decode()
    assert not RosterEntry.objects.exists()

    page = client.post(
        url, {"file": SimpleUploadedFile("r.csv", TWICE.encode()), "encoding": "utf-8"}
    )
    assert page.status_code == 200
    assert "campus ID 1234567 is already on line 2" in page.content.decode()
    assert sorted(RosterEntry.objects.values_list("campus_id", flat=True)) == ["1234567", "7777777"]


def test_a_roster_over_the_upload_limit_is_refused_naming_the_command(
    client, season, director, settings
):
    """The admin imports inside the web request: a 32 MB roster (about a minute here) would
    outlast the worker's timeout. The upload takes ROSTER_UPLOAD_MAX_BYTES, the command more."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.ROSTER_UPLOAD_MAX_BYTES = 1000
    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])
    rows = "".join(f"{1000000 + n}\n" for n in range(200))  # 1,600 bytes
    upload = SimpleUploadedFile("r.csv", f"campus_id\n{rows}".encode())
    response = client.post(url, {"file": upload, "encoding": "utf-8"})

    assert response.status_code == 200
    assert "the upload takes at most" in response.content.decode()
    assert "manage.py import_roster" in response.content.decode()
    assert not RosterEntry.objects.exists()


def test_a_32_mb_roster_upload_is_refused_before_it_is_read(client, season, director, monkeypatch):
    from django.http.multipartparser import MultiPartParser

    def never(*args, **kwargs):
        raise AssertionError("the body was parsed (and the file written to disk)")

    monkeypatch.setattr(MultiPartParser, "parse", never)
    client.force_login(director.user)
    url = reverse("admin:accounts_season_import_roster", args=[season.pk])
    response = client.generic(
        "POST",
        url,
        b"--x\r\n",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(32 * 1024 * 1024),
    )

    assert response.status_code == 413
    assert "takes at most 8 MB" in response.content.decode()
    assert not RosterEntry.objects.exists()

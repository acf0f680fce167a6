"""The record of exports (P6): every download of a roster or of a league's standings or results
writes one ``DataExport`` naming who took it, and the director's list (/director/exports/)
shows the institution's exports, newest first in the campus's clock, to its directors only."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from accounts.models import DataExport
from accounts.services import export_record
from core.errors import NotAllowed
from league.standings import rebuild_standings
from tests.support import confirmed_game

EXPORTS = reverse("director_exports")


@pytest.mark.parametrize(
    ("name", "args", "what", "subject"),
    [
        ("export_roster", [], "roster.csv", "Fall 2026"),
        ("export_standings", ["tuesday"], "standings.csv", "Tuesday League"),
        ("export_results", ["tuesday"], "results.csv", "Tuesday League"),
    ],
)
def test_p6_each_csv_export_writes_one_record_naming_the_director(
    client, director, match, league, player, opponent, institution, name, args, what, subject
):
    confirmed_game(match, winner=player, loser=opponent)
    rebuild_standings([league.pk])
    client.force_login(director.user)

    response = client.get(reverse(name, args=args))

    assert response.status_code == 200
    (record,) = DataExport.objects.all()
    body_rows = len(response.content.decode().strip().splitlines()) - 1  # less the header
    assert (record.institution, record.actor, record.what, record.subject, record.rows) == (
        institution,
        director.user,
        what,
        subject,
        body_rows,
    )


def test_p6_a_refused_export_records_nothing(client, player, league, other_director):
    client.force_login(player.user)
    assert client.get(reverse("export_roster")).status_code == 404
    assert client.get(reverse("export_standings", args=["tuesday"])).status_code == 404
    client.force_login(other_director.user)
    assert client.get(reverse("export_results", args=["tuesday"])).status_code == 404
    assert not DataExport.objects.exists()


def test_p6_only_the_institutions_people_record_an_export_of_its_data(
    institution, outsider, director
):
    with pytest.raises(NotAllowed):
        export_record(institution=institution, actor=outsider.user, what="roster.csv")
    assert export_record(institution=institution, actor=director.user, what="roster.csv").pk


def _recorded(institution, actor, what, subject, rows, when=None):
    record = export_record(
        institution=institution, actor=actor, what=what, subject=subject, rows=rows
    )
    if when:
        DataExport.objects.filter(pk=record.pk).update(created_at=when)
    return record


def test_p6_the_director_sees_the_institutions_exports_newest_first_in_campus_time(
    client, director, staff, institution, other_director, other_institution
):
    evening, morning = (
        datetime(2026, 10, 3, 23, 5, tzinfo=UTC),
        datetime(2026, 10, 5, 14, 30, tzinfo=UTC),
    )
    _recorded(institution, staff.user, "pairings.pdf", "Scrabble Fest, round 1", 12, evening)
    _recorded(institution, director.user, "roster.csv", "Fall 2026", 340, morning)
    _recorded(other_institution, other_director.user, "roster.csv", "Elsewhere's secret", 9)
    client.force_login(director.user)

    page = client.get(EXPORTS).content.decode()

    assert "Elsewhere&#x27;s secret" not in page and "Elsewhere's secret" not in page
    # Chicago is five hours behind UTC in October.
    roster, pairings = page.index("Oct 5, 2026, 9:30 AM"), page.index("Oct 3, 2026, 6:05 PM")
    assert roster < pairings
    assert "roster.csv" in page and "Fall 2026" in page and "340" in page
    assert str(staff.user) in page and "Scrabble Fest, round 1" in page
    assert reverse("director_exports") in client.get(reverse("director_dashboard")).content.decode()


def test_p6_an_export_whose_actor_is_gone_still_shows(client, director, institution, staff):
    _recorded(
        institution, staff.user, "roster.csv", "Fall 2026", 3, datetime(2026, 10, 5, tzinfo=UTC)
    )
    staff.user.delete()
    client.force_login(director.user)

    page = client.get(EXPORTS).content.decode()

    assert "an account since removed" in page and "roster.csv" in page


@pytest.mark.parametrize("persona", ["player", "staff", "outsider"])
def test_p6_students_front_desk_and_other_institutions_never_see_the_list(
    client, persona, request, institution, director
):
    export_record(institution=institution, actor=director.user, what="roster.csv", subject="Ours")
    client.force_login(request.getfixturevalue(persona).user)

    assert client.get(EXPORTS).status_code == 404


def test_p6_another_institutions_director_sees_only_their_own(
    client, institution, director, other_director
):
    export_record(institution=institution, actor=director.user, what="roster.csv", subject="Ours")
    client.force_login(other_director.user)

    page = client.get(EXPORTS, {"institution": institution.slug}).content.decode()

    assert "Ours" not in page and "Nothing has been exported yet." in page


def test_p6_a_site_admin_picks_the_institution_whose_exports_to_see(
    client, site_admin, institution, director
):
    _recorded(
        institution,
        director.user,
        "roster.csv",
        "Ours",
        3,
        datetime(2026, 10, 5, 14, 30, tzinfo=UTC),
    )
    client.force_login(site_admin)

    assert 'data-testid="institutions"' in client.get(EXPORTS).content.decode()
    page = client.get(EXPORTS, {"institution": institution.slug}).content.decode()

    assert "Ours" in page
    assert "Oct 5, 2026, 9:30 AM" in page  # the campus's clock, though a site admin has none


def test_p6_the_list_is_paged(client, director, institution, monkeypatch):
    monkeypatch.setattr("league.views.director_exports.EXPORTS_PER_PAGE", 2)
    for number in range(5):
        export_record(
            institution=institution,
            actor=director.user,
            what="roster.csv",
            subject=f"Subject {number}",
        )
    client.force_login(director.user)

    first = client.get(EXPORTS).content.decode()
    last = client.get(EXPORTS, {"page": 3}).content.decode()

    # Subjects with a space: a bare "S1" also turns up inside the page's random CSRF token.
    assert "Subject 4" in first and "Subject 3" in first and "Subject 2" not in first
    assert "Page 1 of 3" in first
    assert "Subject 0" in last and "Subject 1" not in last


@pytest.mark.parametrize("size", [1, 30])
def test_p6_the_list_runs_a_constant_number_of_queries(
    client, director, institution, size, django_assert_num_queries
):
    for number in range(size):
        export_record(
            institution=institution, actor=director.user, what="roster.csv", subject=f"S{number}"
        )
    client.force_login(director.user)
    client.get(EXPORTS)
    # The session, the user with their roles, the count, the page with who took each.
    with django_assert_num_queries(4):
        page = client.get(EXPORTS).content.decode()
    assert page.count('data-testid="export-') == size


def test_p6_the_admin_lists_the_directors_own_exports_read_only(
    client, director, institution, other_director, other_institution
):
    ours = export_record(institution=institution, actor=director.user, what="roster.csv")
    theirs = export_record(
        institution=other_institution, actor=other_director.user, what="results.csv"
    )
    client.force_login(director.user)

    listing = client.get(reverse("admin:accounts_dataexport_changelist"))

    assert listing.status_code == 200
    shown = list(listing.context["cl"].result_list)
    assert shown == [ours] and theirs not in shown
    change = client.post(
        reverse("admin:accounts_dataexport_change", args=[ours.pk]), {"what": "edited"}
    )
    assert change.status_code == 403
    assert client.get(reverse("admin:accounts_dataexport_add")).status_code == 403
    assert (
        client.post(
            reverse("admin:accounts_dataexport_delete", args=[ours.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert DataExport.objects.filter(pk=ours.pk, what="roster.csv").exists()
    assert (
        client.get(reverse("admin:accounts_dataexport_change", args=[theirs.pk])).status_code == 302
    )  # another institution's row: the admin says it does not exist and goes back

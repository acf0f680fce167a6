"""A student downloads everything the site holds about them from their profile (issue 31): one
JSON file holding what their profile, their matches and the audit trail show, only ever their
own, recorded as an export (P6), in a fixed number of queries however many matches they
played."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import DataExport, EquipmentItem, SignInLink
from accounts.services import equipment_check_out, id_check_record
from league.models import Entry
from matches.models import AuditEvent, Match
from matches.services import contact_issue_report, proposal_create
from tests.support import (
    eligible_student,
    match_between,
    open_dispute,
    roster_entry,
    ruled_ineligible,
)

MY_DATA = reverse("my_data")


def soon(hours=24):
    return (timezone.now() + timedelta(hours=hours)).replace(second=0, microsecond=0)


def download(client, profile) -> dict:
    client.force_login(profile.user)
    response = client.post(MY_DATA)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    today = profile.institution.today().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="my-data-{today}.json"'
    assert response["Cache-Control"] == "private, no-store"
    return json.loads(response.content)


@pytest.fixture
def history(league, player, opponent, season, director, staff, match):
    """Rowan's season: on the roster, an ID check, a board borrowed, entered in the league, a
    proposal in one match, a reported result the opponent disputes in another, a can't-reach
    report in a third, and a ruling against them (which settles what was still open)."""
    roster_entry(season, player.campus_id)
    id_check_record(actor=staff.user, profile=player, season=season, note="Card 2026")
    board = EquipmentItem.objects.create(institution=season.institution, kind="board", label="B7")
    equipment_check_out(actor=staff.user, item=board, profile=player)
    Entry.objects.create(league=league, player=player, player_number=7)
    proposal_create(actor=player.user, match=match, times=[soon(24), soon(48)])
    disputed = match_between(league, player, opponent)
    open_dispute(disputed, note="Turn 12 was scored 32, not 12.")
    unreachable = match_between(league, opponent, player)
    contact_issue_report(actor=player.user, match=unreachable, attempts="Called twice, no answer.")
    SignInLink.objects.create(
        user=player.user, token_hash="secret-hash", expires_at=soon(2), next_path="/"
    )
    ruled_ineligible(player, season, director=director, reason="Not enrolled this term")
    return match, disputed, unreachable


def test_a_student_downloads_what_their_profile_matches_and_audit_show(
    client, player, opponent, history, season, institution
):
    """Issue 31: the file holds what the pages show about them."""
    document = download(client, player)

    profile_page = client.get(reverse("profile")).content.decode()
    account, profile = document["account"], document["profile"]
    assert account["email"] == player.user.email and account["email"] in profile_page
    assert (account["first_name"], account["last_name"]) == ("Rowan", "Pemberton")
    assert account["email_addresses"] == [
        {"email": player.user.email, "verified": True, "primary": True}
    ]
    assert profile["campus_id"] == player.campus_id and player.campus_id in profile_page
    assert profile["calendar_feed_url"] in profile_page
    assert profile["institution"] == institution.name
    assert profile["email_preferences"] == {
        "match_activity": True,
        "reminders": True,
        "digest": True,
    }
    assert 'data-testid="download-my-data"' in profile_page

    (fall,) = document["eligibility"]
    assert (fall["season"], fall["status"], fall["reason"]) == (
        "Fall 2026",
        "ineligible",
        "Not enrolled this term",
    )
    assert fall["history"][-1]["to"] == "ineligible"
    assert [row["campus_id"] for row in document["roster_entries"]] == [player.campus_id]
    assert [row["note"] for row in document["id_checks"]] == ["Card 2026"]
    assert [row["item"] for row in document["equipment_loans"]] == ["B7"]
    assert [(e["league"], e["player_number"]) for e in document["league_entries"]] == [
        ("Tuesday League", 7)
    ]

    # Every match they sat in, as the match pages show it: opponents by name, scores by seat.
    theirs = Match.objects.filter(seats__player=player).order_by("pk")
    assert sorted(m["match"] for m in document["matches"]) == [m.pk for m in theirs]
    for shown in document["matches"]:
        match = Match.objects.get(pk=shown["match"])
        assert shown["status"] == match.status
        page = client.get(match.get_absolute_url()).content.decode()
        for seat, row in zip(match.seats.order_by("order"), shown["seats"], strict=True):
            assert (row["player"], row["score"], row["you"]) == (
                seat.player.name,
                seat.score,
                seat.player_id == player.pk,
            )
            assert row["player"] in page
    match, disputed, unreachable = history
    (report,) = document["result_reports"]
    assert report["match"] == disputed.pk
    assert [line["score"] for line in report["scores"]] == [420, 380]
    (dispute,) = document["disputes"]
    assert (dispute["match"], dispute["raised_by_you"], dispute["note"]) == (
        disputed.pk,
        False,
        "Turn 12 was scored 32, not 12.",
    )
    assert [(p["match"], p["proposed_by_you"], len(p["times"])) for p in document["schedule_proposals"]] == [
        (match.pk, True, 2)
    ]  # fmt: skip
    (issue,) = document["contact_issues"]
    assert issue["match"] == unreachable.pk and issue["attempts"] == "Called twice, no answer."
    # The audit trail of their matches, event by event, as the match pages list it.
    audit = AuditEvent.objects.filter(match__in=theirs).order_by("created_at", "pk")
    assert [(e["match"], e["action"]) for e in document["audit_events"]] == [
        (event.match_id, event.label) for event in audit
    ]
    assert {e["by"] for e in document["audit_events"]} >= {"you", "another player", "staff"}

    # The mail sent to them, by subject: a body may hold a link that signs in.
    from post_office.models import Email

    sent = [m.subject for m in Email.objects.order_by("created", "pk") if player.user.email in m.to]
    assert sent and [m["subject"] for m in document["mail_to_you"]] == sent
    assert all(set(m) == {"at", "subject", "status"} for m in document["mail_to_you"])

    # Sign-ins without their secrets.
    (link,) = document["sign_in"]["sign_in_links"]
    assert link["leads_to"] == "/" and "secret-hash" not in json.dumps(document)
    assert len(document["sign_in"]["sessions"]) == 1
    assert client.session.session_key not in json.dumps(document)


def test_p6_the_download_is_recorded_under_the_students_number(
    client, player, history, institution
):
    document = download(client, player)

    (record,) = DataExport.objects.all()
    assert document["your_downloads"] == []  # recorded once the file is made
    (earlier,) = download(client, player)["your_downloads"]
    assert (earlier["what"], earlier["whose"]) == ("my-data.json", record.subject)
    assert (record.institution, record.actor, record.what, record.rows) == (
        institution,
        player.user,
        "my-data.json",
        len(document["matches"]),
    )
    assert record.subject == f"Player {player.anonymous_number}"
    assert player.user.last_name not in record.subject


def test_a_second_student_gets_only_their_own(client, player, opponent, league, history, season):
    third = match_between(league, opponent, eligible_student(season))
    mine = {m["match"] for m in download(client, player)["matches"]}

    theirs = download(client, opponent)

    assert {m["match"] for m in theirs["matches"]} == mine | {third.pk}
    assert theirs["account"]["email"] == opponent.user.email
    assert player.campus_id not in json.dumps(theirs)  # their matches name Rowan, not more
    assert theirs["roster_entries"] == [] and theirs["id_checks"] == []
    assert theirs["equipment_loans"] == [] and theirs["result_reports"] == []
    assert [d["raised_by_you"] for d in theirs["disputes"]] == [True]
    # Rowan's can't-reach report names them as its subject, not what Rowan wrote.
    (issue,) = theirs["contact_issues"]
    assert issue["reported_by_you"] is False and "attempts" not in issue
    assert player.user.email not in json.dumps(theirs)


def test_an_anonymous_visitor_is_sent_to_log_in(client, db):
    response = client.post(MY_DATA)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not DataExport.objects.exists()


def test_the_download_is_a_post_from_the_profiles_button(client, player):
    client.force_login(player.user)

    response = client.get(MY_DATA)  # a link or a prefetch downloads nothing: it leads to the button

    assert response.status_code == 302 and response.url == reverse("profile")
    assert not DataExport.objects.exists()


def test_a_site_admin_without_a_profile_has_nothing_to_download(client, site_admin):
    client.force_login(site_admin)

    assert client.post(MY_DATA).status_code == 404


@pytest.mark.parametrize("matches", [1, 10])
def test_the_download_runs_a_constant_number_of_queries(
    client, match, player, opponent, league, season, matches, django_assert_num_queries
):
    """Issue 31: the same queries for one match and for ten."""
    open_dispute(match)
    for _ in range(matches - 1):
        match = match_between(league, player, opponent)
        open_dispute(match)
    client.force_login(player.user)
    client.post(MY_DATA)
    # The session; the e-mail addresses, eligibility and its history, roster, ID checks,
    # loans; entries, waitlist, check-ins; seats, matches, report lines, reports, disputes,
    # proposed times, proposals, can't-reach reports, audit; sessions, links, mail, their
    # downloads; their rating, imported rating and rated periods; the event's entries, assists
    # and invitations; the record of the export in its savepoint.
    with django_assert_num_queries(35):
        document = json.loads(client.post(MY_DATA).content)
    assert len(document["matches"]) == matches
    assert len(document["audit_events"]) >= 3 * matches


def test_r1_the_download_holds_the_rating_and_each_rated_period_the_profile_shows(
    client, league, table, director
):
    from league.rating_runs import rate
    from matches.services import card_enter
    from tests.support import table_of

    ada, bo, cy, di = table
    card_enter(actor=director.user, match=table_of(league, [ada, bo]), scores=[420, 380])
    rate(league.season.institution)

    ratings = download(client, ada)["ratings"]

    (period,) = ratings["periods"]
    assert (period["league"], period["round"], period["games"], period["before"]) == (
        "Tuesday League",
        1,
        1.0,
        1500.0,
    )
    assert ratings["now"]["rating"] == period["after"] > 1500
    assert ratings["imported_as"] is None
    profile = client.get(reverse("profile")).content.decode()
    assert f"{round(period['after'])}*" in profile  # the same rating, provisional, on the page

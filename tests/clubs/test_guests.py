"""Guests at club nights (E4, G9, L10): a visitor without a campus ID, added by the front desk or
the director to a club open to visitors, checked in, seated with students; the students report
and confirm (a guest never signs in), the table becomes final when its window passes or by the
director's card; the guest is named in standings and My matches, and mailed only at the address
they gave. A campus-only league refuses guests."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from post_office.models import Email

from accounts import roles
from accounts.errors import NotEligible
from accounts.models import PlayerProfile
from accounts.services import require_eligible
from clubs import services as club
from clubs.files import export_club_file, read_club_file
from core.errors import NotAllowed
from league.models import CheckIn, Entry, LeagueFormat, Round
from league.refresh import refresh_leagues
from league.selectors import my_matches, standings_rows_of
from matches.models import MatchStatus
from matches.services import card_enter, confirm_stale_reports, report_confirm, report_submit
from tests.support import LeagueFactory, eligible_student, staff_member


@pytest.fixture
def open_club(season):
    return LeagueFactory(
        season=season, format=LeagueFormat.CLUB, name="Thursday Club", campus_only=False
    )


@pytest.fixture
def night(open_club):
    """Tonight: its tables may still be reported from a phone."""
    today = open_club.season.institution.today()
    return Round.objects.create(league=open_club, number=1, play_by=today)


@pytest.fixture
def desk(institution):
    return staff_member(institution, roles.FRONT_DESK)


def members(league, *names):
    players = [eligible_student(league.season, first_name=name) for name in names]
    for number, player in enumerate(players, start=1):
        Entry.objects.create(league=league, player=player, player_number=number)
    return players


# --- Adding a guest (E4) -------------------------------------------------------------------------


def test_e4_the_front_desk_adds_a_guest_who_gets_the_next_number_and_is_checked_in(
    open_club, night, desk
):
    members(open_club, "Ana", "Ben")
    entry = club.guest_add(
        actor=desk.user,
        league=open_club,
        name="  Gus   Visitor ",
        email="Gus@Example.org",
        round=night,
    )
    guest = entry.player
    assert guest.is_guest and guest.user is None and guest.campus_id == ""
    assert (guest.name, guest.email, str(guest)) == (
        "Gus Visitor",
        "gus@example.org",
        "Gus Visitor (guest)",
    )
    assert entry.player_number == 3
    assert CheckIn.objects.filter(round=night, entry=entry).exists()


def test_e4_a_guest_with_the_same_email_is_reused_not_duplicated(open_club, night, desk):
    first = club.guest_add(actor=desk.user, league=open_club, name="Gus", email="gus@example.org")
    again = club.guest_add(
        actor=desk.user, league=open_club, name="Gus V.", email="GUS@example.org", round=night
    )
    assert again.pk == first.pk
    assert PlayerProfile.objects.filter(user__isnull=True).count() == 1
    assert CheckIn.objects.filter(entry=first).count() == 1
    # Without an e-mail there is nothing to know them by: two visitors may share a name.
    other = club.guest_add(actor=desk.user, league=open_club, name="Gus")
    assert other.pk != first.pk and other.player_number == first.player_number + 1


def test_e4_a_guest_cannot_take_a_students_email(open_club, desk):
    (ana,) = members(open_club, "Ana")
    with pytest.raises(club.ClubError, match="belongs to a student"):
        club.guest_add(actor=desk.user, league=open_club, name="Not Ana", email=ana.user.email)


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "Give the guest's name"), ("   ", "Give the guest's name"), ("x" * 151, "at most 150")],
)
def test_e4_a_guest_name_empty_or_too_long_is_refused_not_cut(open_club, desk, name, message):
    with pytest.raises(club.ClubError, match=message):
        club.guest_add(actor=desk.user, league=open_club, name=name)
    assert not PlayerProfile.objects.filter(user__isnull=True).exists()


def test_e4_only_the_front_desk_or_the_director_adds_a_guest(open_club, season):
    student = eligible_student(season)
    with pytest.raises(NotAllowed):
        club.guest_add(actor=student.user, league=open_club, name="Gus")
    assert not Entry.objects.exists()


def test_e4_a_profile_has_a_user_or_a_name_and_a_guest_has_no_campus_id(institution):
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerProfile.objects.create(institution=institution)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerProfile.objects.create(institution=institution, display_name="Gus", campus_id="1")


# --- Eligibility (L10) ---------------------------------------------------------------------------


def test_l10_a_guest_is_refused_in_a_campus_only_league(season, desk):
    campus_club = LeagueFactory(season=season, format=LeagueFormat.CLUB)  # campus-only by default
    assert campus_club.campus_only
    with pytest.raises(club.ClubError, match="for students only"):
        club.guest_add(actor=desk.user, league=campus_club, name="Gus")
    guest = PlayerProfile.objects.create(institution=season.institution, display_name="Gus")
    with pytest.raises(NotEligible, match="Gus is a guest: this league is for students only"):
        require_eligible(profile=guest, season=season)
    require_eligible(profile=guest, season=season, campus_only=False)  # an open league admits


def test_l10_a_student_is_still_held_to_eligibility_in_an_open_club(open_club, season):
    from tests.support import ProfileFactory

    pending = ProfileFactory(institution=season.institution)
    with pytest.raises(NotEligible, match="not yet eligible"):
        require_eligible(profile=pending, season=season, campus_only=False)


# --- A table with a guest (G9) -------------------------------------------------------------------


def seated_with_a_guest(open_club, night, director, *, email="gus@example.org"):
    ana, ben, cat = members(open_club, "Ana", "Ben", "Cat")
    guest = club.guest_add(
        actor=director.user, league=open_club, name="Gus Visitor", email=email, round=night
    ).player
    for student in (ana, ben, cat):
        club.check_in(actor=director.user, round=night, player=student)
    (table,) = club.seat_night(actor=director.user, round=night)
    return table, guest, (ana, ben, cat)


def test_g9_a_guest_never_keeps_score_the_first_student_after_them_does(open_club, night, director):
    table, guest, _ = seated_with_a_guest(open_club, night, director)
    guest_first = 0
    for seed in range(1, 13):
        (table,) = club.seat_night(actor=director.user, round=night, seed=seed, repair=True)
        seats = list(table.seats.order_by("order"))
        keeper = seats[table.scorekeeper - 1]
        assert not keeper.player.is_guest
        if seats[0].player_id == guest.pk:
            guest_first += 1
            assert table.scorekeeper == 2
        else:
            assert table.scorekeeper == 1
    assert guest_first  # some draw put the guest first, so the rule was exercised


def test_g9_e4_students_report_and_confirm_and_the_table_is_final_after_the_window(
    open_club, night, director
):
    table, guest, students = seated_with_a_guest(open_club, night, director)
    seats = list(table.seats.order_by("order"))
    keeper = seats[table.scorekeeper - 1].player
    scores = [400 - 20 * seat.order for seat in seats]
    report = report_submit(actor=keeper.user, match=table, scores=scores)
    for student in students:
        if student != keeper:
            report_confirm(actor=student.user, report=report)
    table.refresh_from_db()
    assert table.status == MatchStatus.REPORTED  # the guest never confirms
    assert confirm_stale_reports(now=timezone.now() + timedelta(hours=49)) == [table.pk]
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED
    guest_seat = table.seats.get(player=guest)
    assert guest_seat.score == scores[guest_seat.order - 1]


def test_g9_e4_a_table_with_a_guest_is_final_by_the_directors_card(open_club, night, director):
    table, guest, _ = seated_with_a_guest(open_club, night, director)
    card_enter(actor=director.user, match=table, scores=[390, 350, 330, 300])
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED


def test_e4_standings_and_my_matches_of_a_student_name_the_guest(
    client, open_club, night, director
):
    table, guest, (ana, *_) = seated_with_a_guest(open_club, night, director)
    card_enter(actor=director.user, match=table, scores=[390, 350, 330, 300])
    refresh_leagues([open_club.pk])
    rows = standings_rows_of([open_club.pk])[open_club.pk]
    assert len(rows) == 4
    assert "Gus Visitor" in [row["player"] for row in rows]
    (mine,) = my_matches(ana, seasons=[open_club.season])
    assert "Gus Visitor" in [opponent.name for opponent in mine.opponents]
    client.force_login(ana.user)
    home = client.get(reverse("home")).content.decode()
    assert "v Gus Visitor" in home
    standings = client.get(reverse("league_standings_json", args=[open_club])).json()
    assert "Gus Visitor" in [row["player"] for row in standings["standings"]]


def test_e4_a_guests_mail_goes_only_to_the_address_they_gave(open_club, night, director):
    table, guest, students = seated_with_a_guest(open_club, night, director)
    silent = club.guest_add(actor=director.user, league=open_club, name="No Mail").player
    seats = list(table.seats.order_by("order"))
    keeper = seats[table.scorekeeper - 1].player
    Email.objects.all().delete()
    report_submit(actor=keeper.user, match=table, scores=[400, 380, 360, 340])
    recipients = sorted(address for mail in Email.objects.all() for address in mail.to)
    others = sorted(s.user.email for s in students if s != keeper)
    assert recipients == sorted([*others, "gus@example.org"])
    assert silent.address == ""  # a guest without an address: no mail, and no error


# --- The club night page (E4) --------------------------------------------------------------------


def test_e4_the_night_page_adds_a_guest_and_marks_them(client, night, desk):
    members(night.league, "Ana")
    client.force_login(desk.user)
    url = reverse("club_guest", args=[night.league, night.number])
    response = client.post(url, {"name": "Gus Visitor", "email": ""}, follow=True)
    page = response.content.decode()
    assert "Gus Visitor (guest, number 2) is checked in." in page
    assert 'data-testid="guest">guest</span>' in page
    assert "(1 here)" in page
    refused = client.post(url, {"name": "y" * 200}).content.decode()
    assert "at most 150 characters (200 given)" in refused
    assert PlayerProfile.objects.filter(user__isnull=True).count() == 1


def test_e4_a_campus_only_club_page_has_no_guest_form(client, season, director):
    campus_club = LeagueFactory(season=season, format=LeagueFormat.CLUB)
    night = Round.objects.create(league=campus_club, number=1, play_by=season.starts_on)
    client.force_login(director.user)
    page = client.get(reverse("club_night", args=[campus_club, 1])).content.decode()
    assert "is for students only" in page and "Add and check in" not in page
    response = client.post(reverse("club_guest", args=[campus_club, 1]), {"name": "Gus"})
    assert "for students only" in response.content.decode()
    assert not CheckIn.objects.filter(round=night).exists()


@pytest.mark.parametrize("size", [8, 24])
def test_e4_the_night_page_with_guests_runs_a_constant_number_of_queries(
    client, night, director, size, django_assert_max_num_queries
):
    students = members(night.league, *[f"S{n}" for n in range(size - 2)])
    for student in students:
        club.check_in(actor=director.user, round=night, player=student)
    for name in ("Gus", "Gil"):
        club.guest_add(actor=director.user, league=night.league, name=name, round=night)
    club.seat_night(actor=director.user, round=night)
    client.force_login(director.user)
    with django_assert_max_num_queries(14):
        page = client.get(reverse("club_night", args=[night.league, 1]))
    assert page.status_code == 200 and "Gil" in page.content.decode()


# --- The settings file (E4) ----------------------------------------------------------------------


def test_e4_a_club_file_without_campus_only_is_open_to_visitors_and_export_says_so(open_club):
    base = {
        "name": "C",
        "slug": "c",
        "format": "club",
        "rounds": [{"number": 1, "date": "2026-09-03"}],
    }
    assert read_club_file(base).campus_only is False
    assert read_club_file({**base, "campus_only": True}).campus_only is True
    assert export_club_file(open_club)["campus_only"] is False

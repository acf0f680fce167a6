"""Roles and the admin: a director sees and changes only their institution's data; front-desk
staff have no admin access; site admins see everything."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management.sql import emit_post_migrate_signal
from django.urls import reverse

from accounts import roles
from accounts.models import EligibilityEvent, EligibilityStatus
from accounts.selectors import eligibility_of, institution_for_email
from accounts.services import role_grant
from core.errors import NotAllowed
from tests.support import InstitutionFactory, ProfileFactory, SeasonFactory, staff_member


def test_role_groups_exist_with_their_permissions(db):
    roles.sync_groups()
    directors = Group.objects.get(name=roles.DIRECTORS)
    desk = Group.objects.get(name=roles.FRONT_DESK)
    assert directors.permissions.filter(codename="add_season").exists()
    assert desk.permissions.filter(codename="add_idcheck").exists()
    assert not desk.permissions.filter(codename="change_eligibility").exists()
    assert Group.objects.filter(name=roles.STUDENTS).exists()


# Every role's permissions, written out in full: moving where each app declares its own must not
# change a single one.
EXPECTED_GROUP_PERMISSIONS = {
    roles.STUDENTS: set(),
    roles.FRONT_DESK: {
        "accounts.view_playerprofile",
        "accounts.view_eligibility",
        "accounts.view_idcheck",
        "accounts.add_idcheck",
        "accounts.view_checkout",
        "accounts.view_equipmentitem",
    },
    roles.DIRECTORS: {
        "accounts.view_institution",
        "accounts.change_institution",
        "accounts.view_user",
        "accounts.change_user",
        "accounts.view_playerprofile",
        "accounts.change_playerprofile",
        "accounts.view_season",
        "accounts.add_season",
        "accounts.change_season",
        "accounts.delete_season",
        "accounts.view_rosterentry",
        "accounts.add_rosterentry",
        "accounts.change_rosterentry",
        "accounts.delete_rosterentry",
        "accounts.view_idcheck",
        "accounts.add_idcheck",
        "accounts.view_eligibility",
        "accounts.add_eligibility",
        "accounts.change_eligibility",
        "accounts.view_eligibilityevent",
        "accounts.view_equipmentitem",
        "accounts.add_equipmentitem",
        "accounts.change_equipmentitem",
        "accounts.view_checkout",
        "accounts.view_dataexport",
        "league.view_league",
        "league.add_league",
        "league.change_league",
        "league.view_entry",
        "league.add_entry",
        "league.change_entry",
        "league.view_waitlistentry",
        "league.view_round",
        "league.change_round",
        "matches.view_match",
        "matches.change_match",
        "matches.view_seat",
        "matches.view_dispute",
        "matches.change_dispute",
        "matches.view_contactissue",
        "matches.change_contactissue",
        "matches.view_auditevent",
        "matches.view_resultreport",
        "events.view_tablecard",  # S3: the players' own cards, read only
        "events.view_codeattempt",  # S4: every slip code typed
        "ratings.view_ratingperiod",  # R1: read, never edited (runs and imports change them)
        "ratings.view_ratingchange",
        "ratings.view_playerrating",
        "ratings.view_importedrating",
    },
}


def _group_permissions() -> dict[str, set[str]]:
    return {
        group.name: {
            f"{permission.content_type.app_label}.{permission.codename}"
            for permission in group.permissions.select_related("content_type")
        }
        for group in Group.objects.filter(name__in=EXPECTED_GROUP_PERMISSIONS)
    }


def test_each_role_has_exactly_its_permissions(db):
    Group.objects.all().delete()

    roles.sync_groups()

    assert _group_permissions() == EXPECTED_GROUP_PERMISSIONS


def test_syncing_the_roles_again_takes_away_a_permission_given_by_hand(db):
    roles.sync_groups()
    desk = Group.objects.get(name=roles.FRONT_DESK)
    desk.permissions.add(Permission.objects.get(codename="change_eligibility"))

    roles.sync_groups()

    assert _group_permissions() == EXPECTED_GROUP_PERMISSIONS


def test_a_fresh_migrate_gives_each_role_exactly_its_permissions(db):
    """Django creates an app's permission rows as it finishes migrating that app, accounts first:
    the directors must still get league's and matches' permissions, which come later."""
    Group.objects.all().delete()
    Permission.objects.filter(content_type__app_label__in=["league", "matches"]).delete()

    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")

    assert _group_permissions() == EXPECTED_GROUP_PERMISSIONS


def test_a_director_sees_only_their_institutions_seasons(
    client, director, season, other_institution
):
    elsewhere = SeasonFactory(institution=other_institution, name="Elsewhere spring")
    client.force_login(director.user)

    page = client.get(reverse("admin:accounts_season_changelist")).content.decode()

    assert season.name in page
    assert "Elsewhere spring" not in page
    assert (
        client.get(reverse("admin:accounts_season_change", args=[elsewhere.pk])).status_code == 302
    )


def test_a_director_sees_only_their_institutions_people(client, director, player, outsider):
    client.force_login(director.user)
    page = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert player.user.email in page
    assert outsider.user.email not in page


def test_a_director_can_only_pick_their_own_institution_for_a_new_season(
    client, director, other_institution
):
    client.force_login(director.user)
    page = client.get(reverse("admin:accounts_season_add")).content.decode()
    assert director.institution.name in page
    assert other_institution.name not in page


def test_a_site_admin_sees_every_institution(client, site_admin, season, other_institution):
    SeasonFactory(institution=other_institution, name="Elsewhere spring")
    client.force_login(site_admin)
    page = client.get(reverse("admin:accounts_season_changelist")).content.decode()
    assert "Elsewhere spring" in page and season.name in page


@pytest.mark.parametrize("persona", ["player", "staff"])
def test_students_and_front_desk_staff_have_no_admin_access(client, request, persona, db):
    client.force_login(request.getfixturevalue(persona).user)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_l10_the_director_rules_on_eligibility_in_the_admin_with_a_reason(
    client, director, player, season
):
    client.force_login(director.user)
    url = reverse("admin:accounts_eligibility_add")

    missing_reason = client.post(
        url, {"profile": player.pk, "season": season.pk, "status": "eligible", "reason": ""}
    )
    assert missing_reason.status_code == 200
    assert eligibility_of(player, season).status == EligibilityStatus.PENDING

    client.post(
        url,
        {
            "profile": player.pk,
            "season": season.pk,
            "status": "eligible",
            "reason": "Registrar email",
        },
    )
    assert eligibility_of(player, season).status == EligibilityStatus.ELIGIBLE
    assert EligibilityEvent.objects.get(profile=player).actor == director.user


def test_the_eligibility_history_cannot_be_edited_in_the_admin(
    client, director, player, season, staff
):
    from accounts.services import id_check_record

    id_check_record(actor=staff.user, profile=player, season=season)
    event = EligibilityEvent.objects.get()
    client.force_login(director.user)
    response = client.post(
        reverse("admin:accounts_eligibilityevent_change", args=[event.pk]), {"reason": "edited"}
    )
    event.refresh_from_db()
    assert response.status_code in (200, 403)
    assert event.reason != "edited"
    assert (
        client.post(
            reverse("admin:accounts_eligibilityevent_delete", args=[event.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_a_director_appoints_front_desk_staff_but_not_directors(director, player):
    role_grant(actor=director.user, user=player.user, role="front_desk")
    assert roles.is_front_desk_of(player.user, player.institution)
    with pytest.raises(NotAllowed):
        role_grant(actor=director.user, user=player.user, role="director")


def test_admin_access_goes_with_the_director_role(site_admin, player):
    role_grant(actor=site_admin, user=player.user, role="director")
    player.user.refresh_from_db()
    assert player.user.is_staff


def test_a_director_cannot_appoint_staff_at_another_institution(director, outsider):
    with pytest.raises(NotAllowed):
        role_grant(actor=director.user, user=outsider.user, role="front_desk")


def test_l10_the_dashboards_pending_queue_lists_who_is_pending_with_a_ruling_link(
    client, director, player, opponent, season, other_institution
):
    from tests.support import ProfileFactory, eligible

    eligible(opponent, season)
    elsewhere = ProfileFactory(institution=other_institution)
    client.force_login(director.user)
    dashboard = client.get(reverse("director_dashboard")).content.decode()
    queue = reverse("admin:accounts_playerprofile_changelist") + "?eligibility=pending"
    assert queue in dashboard
    page = client.get(queue).content.decode()
    assert player.campus_id in page
    assert opponent.campus_id not in page  # already ruled eligible
    assert elsewhere.campus_id not in page  # another institution's student
    assert f"{reverse('admin:accounts_eligibility_add')}?profile={player.pk}" in page


def test_no_changelist_filter_offers_another_institutions_names(
    client, director, season, other_institution, outsider
):
    """Every registered changelist a director may open, walked with another institution's
    private league, season and name in the database: the filter sidebars must not list them."""
    from django.contrib import admin

    from tests.support import LeagueFactory, match_between

    elsewhere_season = SeasonFactory(institution=other_institution, name="Elsewhere Hidden Term")
    elsewhere_league = LeagueFactory(
        season=elsewhere_season, name="Elsewhere Secret League", public=False
    )
    match_between(elsewhere_league, outsider, ProfileFactory(institution=other_institution))
    LeagueFactory(season=season, name="Our Own League")  # so each filter has something to show
    client.force_login(director.user)
    client.raise_request_exception = False  # a model the director may not see answers 403

    opened, leaks = [], {}
    for model in admin.site._registry:
        opts = model._meta
        response = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        assert response.status_code != 500, f"{opts.label}'s changelist fails"
        if response.status_code != 200:
            continue  # not the director's to see (a 403)
        opened.append(opts.label)
        page = response.content.decode()
        names = [other_institution.name, elsewhere_season.name, elsewhere_league.name]
        if shown := [name for name in names if name in page]:
            leaks[opts.label] = shown

    assert leaks == {}

    # The ten changelists that once listed them are among those walked.
    assert {
        "accounts.Season",
        "accounts.RosterEntry",
        "accounts.IdCheck",
        "accounts.Eligibility",
        "accounts.EligibilityEvent",
        "league.League",
        "league.Entry",
        "league.Round",
        "matches.Dispute",
        "matches.Match",
    } <= set(opened)


def _institution_form(institution, **changes) -> dict:
    from accounts.forms import InstitutionAdminForm

    fields = InstitutionAdminForm.Meta.fields
    return {**{field: getattr(institution, field) for field in fields}, **changes}


def test_a_director_cannot_take_another_institutions_email_domain(
    client, director, institution, other_institution
):
    """Adding elsewhere's domain to their own institution would send elsewhere's signups to
    them: only site admins change the domains."""
    client.force_login(director.user)
    url = reverse("admin:accounts_institution_change", args=[institution.pk])

    client.post(
        url, _institution_form(institution, email_domains="example.edu, elsewhere.example.org")
    )

    institution.refresh_from_db()
    assert institution.email_domains == "example.edu"
    assert institution_for_email("newcomer@elsewhere.example.org") == other_institution


@pytest.mark.parametrize(
    "domains",
    [
        "elsewhere.example.org",  # the very same domain
        "students.elsewhere.example.org",  # a subdomain of it
        "example.org",  # a parent of it: it would accept elsewhere's addresses too
        "example.edu\nELSEWHERE.example.org",  # among others, in capitals
    ],
)
def test_no_institutions_email_domain_overlaps_anothers(
    client, site_admin, institution, other_institution, domains
):
    client.force_login(site_admin)
    url = reverse("admin:accounts_institution_change", args=[institution.pk])

    response = client.post(url, _institution_form(institution, email_domains=domains))

    assert response.status_code == 200
    assert "already belongs to Elsewhere College" in response.content.decode()
    institution.refresh_from_db()
    assert institution.email_domains == "example.edu"


def test_a_site_admin_changes_an_institutions_email_domains(client, site_admin, institution):
    client.force_login(site_admin)
    url = reverse("admin:accounts_institution_change", args=[institution.pk])

    response = client.post(
        url, _institution_form(institution, email_domains="example.edu, alumni.example.net")
    )

    assert response.status_code == 302
    institution.refresh_from_db()
    assert institution.domains == ["example.edu", "alumni.example.net"]


@pytest.mark.parametrize("whose", ["the one under", "the one above"])
def test_a_directors_institution_form_shows_the_domains_overlap_as_the_forms_error(
    client, institution, whose
):
    """Two institutions whose domains overlap (made before the rule, or by hand in the
    database): the director, who may not change the domains (a field the form shows read-only),
    is told what is wrong on the form as a whole, nothing saved; it answered 500."""
    under = InstitutionFactory(
        slug="north", name="Example North Campus", email_domains="north.example.edu"
    )
    mine = under if whose == "the one under" else institution
    client.force_login(staff_member(mine, roles.DIRECTORS).user)
    url = reverse("admin:accounts_institution_change", args=[mine.pk])
    assert client.get(url).status_code == 200

    response = client.post(url, _institution_form(mine, name="Renamed", email_domains="x.example"))

    assert response.status_code == 200
    errors = response.context["adminform"].form.non_field_errors()
    assert errors == [
        "Email domains: north.example.edu overlaps example.edu, which already belongs to "
        "Example State University."
        if mine == under
        else "Email domains: example.edu overlaps north.example.edu, which already belongs "
        "to Example North Campus."
    ]
    assert "Email domains: " in response.content.decode()
    domains = mine.email_domains
    mine.refresh_from_db()
    assert mine.name != "Renamed" and mine.email_domains == domains

"""Sessions with their user as a column (accounts/sessions.py), read by Django's own path: a
signed-in request reads the session, then the user with their profile, institution and roles
(accounts/backends.py), and signs out whoever Django signs out."""

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import UserSession
from accounts.sessions import SessionStore


def user_lookups(sql):
    """Queries that read a user by id on their own (what Django's auth does after the session)."""
    return [
        each
        for each in sql
        if 'FROM "accounts_user"' in each and 'WHERE "accounts_user"."id" =' in each
    ]


def queries_of(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    return response, [query["sql"] for query in captured]


def test_a_signed_in_request_reads_the_session_then_the_user_with_profile_and_institution(
    client, player
):
    client.force_login(player.user)
    response, sql = queries_of(client, reverse("profile"))
    assert response.status_code == 200
    assert len([each for each in sql if 'FROM "accounts_session"' in each]) == 1
    (user,) = user_lookups(sql)
    assert '"accounts_institution"' in user and '"auth_group"' in user


def test_a_changed_password_signs_out_the_other_sessions(client, player):
    client.force_login(player.user)
    player.user.set_password("a-new-one-entirely")
    player.user.save()
    response = client.get(reverse("profile"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_deactivated_account_is_signed_out_at_once(client, player):
    client.force_login(player.user)
    player.user.is_active = False
    player.user.save()
    response = client.get(reverse("profile"))
    assert response.status_code == 302


def test_logging_out_deletes_the_session_row(client, player):
    client.force_login(player.user)
    assert UserSession.objects.filter(user=player.user).count() == 1
    client.post(reverse("account_logout"))
    assert not UserSession.objects.filter(user=player.user).exists()


def test_a_session_row_without_its_user_still_signs_in(client, player):
    """Rows written before the user column, or by another path: the session's data decides."""
    store = SessionStore()
    store[SESSION_KEY] = str(player.user.pk)
    store[BACKEND_SESSION_KEY] = "accounts.backends.ProfileAuthenticationBackend"
    store[HASH_SESSION_KEY] = player.user.get_session_auth_hash()
    store.create()
    UserSession.objects.filter(session_key=store.session_key).update(user=None)
    client.cookies["sessionid"] = store.session_key
    response, sql = queries_of(client, reverse("profile"))
    assert response.status_code == 200
    assert len(user_lookups(sql)) == 1


def test_a_session_naming_another_user_than_its_row_is_not_trusted(client, player, opponent):
    """The column and the session's data disagree (they never should): the user the data names
    is read, and Django's hash check decides."""
    client.force_login(player.user)
    UserSession.objects.update(user=opponent.user)
    response = client.get(reverse("profile"))
    assert response.status_code == 200
    assert player.user.email in response.content.decode()


def test_the_users_query_reads_their_roles_so_no_page_asks_for_their_groups(
    client, director, player
):
    """Issue 18: the navigation and the rights checks ask for the user's roles on every page;
    the user's query answers, and a role given or taken counts on the next request."""
    from django.contrib.auth.models import Group

    from accounts import roles

    for user, url in ((director.user, reverse("director_dashboard")), (player.user, "/")):
        client.force_login(user)
        response, sql = queries_of(client, url)
        assert response.status_code == 200
        assert not [each for each in sql if each.startswith('SELECT "auth_group"')]
    client.force_login(player.user)
    assert client.get(reverse("director_dashboard")).status_code != 200
    player.user.groups.add(Group.objects.get(name=roles.DIRECTORS))
    assert client.get(reverse("director_dashboard")).status_code == 200
    player.user.groups.clear()
    assert client.get(reverse("director_dashboard")).status_code != 200


def test_the_compiled_user_query_builds_what_the_orm_would(player, site_admin, director):
    """The user's SELECT is written by the ORM once per process (accounts/backends.py); each
    request's user must be the ORM's own: with their profile and institution loaded and their
    roles read, a site admin without a profile, nobody for an unknown id."""
    from accounts import roles
    from accounts.backends import ProfileAuthenticationBackend

    backend = ProfileAuthenticationBackend()
    with CaptureQueriesContext(connection) as captured:
        user = backend.get_user(player.user.pk)
        assert user == player.user and user.profile == player
        assert user.profile.institution == player.institution
        assert user.is_active and user.password == player.user.password
    assert len(captured) == 1
    assert user._group_names == set(player.user.groups.values_list("name", flat=True))
    assert backend.get_user(director.user.pk)._group_names == {roles.DIRECTORS}
    admin = backend.get_user(site_admin.pk)
    assert admin == site_admin
    assert not hasattr(admin, "profile")  # the reverse one-to-one raises, as the ORM's
    assert backend.get_user(10**9) is None
    assert backend.get_user(str(player.user.pk)) == player.user  # not an int: the ORM's way

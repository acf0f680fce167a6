"""Hostile requests get a clear answer and change nothing, never a 500: a request body over the
limit is refused from its declared length before anything reads it (core/middleware.py); an
admin link with a made-up id opens the form without it (core/admin.py)."""

import pytest
from django.http.multipartparser import MultiPartParser
from django.urls import reverse

from accounts.models import User


@pytest.fixture
def never_parsed(monkeypatch):
    def parse(*args, **kwargs):
        raise AssertionError("the body was parsed (and an upload written to disk)")

    monkeypatch.setattr(MultiPartParser, "parse", parse)


def post_declaring(client, url, megabytes):
    return client.generic(
        "POST",
        url,
        b"--x\r\n",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(megabytes * 1024 * 1024),
    )


def test_a_200_mb_upload_is_refused_with_413_before_it_is_read(client, never_parsed, db):
    response = post_declaring(client, reverse("account_signup"), 200)

    assert response.status_code == 413
    page = response.content.decode()
    assert "That upload is too large" in page
    assert "It is 200 MB; this page takes at most 1 MB." in page
    assert not User.objects.exists()


def test_a_match_page_refuses_a_body_over_the_limit(client, player, never_parsed):
    client.force_login(player.user)
    response = post_declaring(client, "/matches/1/", 2)
    assert response.status_code == 413


def test_a_body_within_the_limit_is_read_as_usual(client, db):
    response = client.post(reverse("account_signup"), {"email": "x"})
    assert response.status_code == 200
    assert "form" in response.context


def test_the_limit_follows_the_setting(client, settings, never_parsed, db):
    settings.REQUEST_BODY_MAX_BYTES = 3 * 1024 * 1024
    assert post_declaring(client, reverse("account_signup"), 4).status_code == 413


@pytest.mark.parametrize("value", ["abc", "1.5", "%00"])
@pytest.mark.parametrize(
    ("add", "field"),
    [("admin:accounts_eligibility_add", "profile"), ("admin:league_entry_add", "player")],
)
def test_an_admin_add_link_with_a_made_up_id_opens_the_form_without_it(
    client, director, season, add, field, value
):
    client.force_login(director.user)
    response = client.get(reverse(add) + f"?{field}={value}")
    assert response.status_code == 200
    assert field not in response.context["adminform"].form.initial


def test_the_eligibility_ruling_starts_with_the_profile_the_pending_queue_links(
    client, director, season, player
):
    client.force_login(director.user)
    response = client.get(reverse("admin:accounts_eligibility_add") + f"?profile={player.pk}")
    assert response.context["adminform"].form.initial["profile"] == str(player.pk)


# --- Rate limits behind the reverse proxy (settings: TRUSTED_PROXY_COUNT) ----------------------

PROXY = "10.0.0.2"


def log_in(client, email, password, *, client_address):
    return client.post(
        reverse("account_login"),
        {"login": email, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=client_address,
    )


def test_ten_bad_passwords_from_one_student_do_not_lock_out_the_campus_behind_the_proxy(
    client, settings, player
):
    from tests.support import PASSWORD

    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for n in range(11):
        log_in(client, f"guess{n}@example.edu", "wrong", client_address="198.51.100.7")
    # That student's own address is locked out, even with the right password...
    locked_out = log_in(client, player.user.email, PASSWORD, client_address="198.51.100.7")
    assert "Too many failed login attempts" in locked_out.content.decode()
    # ...and another student's, behind the same proxy, is not.

    response = log_in(client, player.user.email, PASSWORD, client_address="198.51.100.8")

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.user.pk)


def test_a_forwarded_for_shorter_than_the_trusted_proxies_counts_as_the_sender(
    client, settings, player
):
    """Sent past the proxies, straight to the app: its own address is the client, not a 500."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 2
    response = log_in(client, player.user.email, "wrong", client_address="198.51.100.7")
    assert response.status_code == 200
    assert "not correct" in response.content.decode()


# --- Content Security Policy (django-csp; tests/browser check the pages under it) ---------------


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/admin/login/"])
def test_every_page_carries_a_policy_without_inline_script_or_style(client, db, url):
    policy = client.get(url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe" not in policy


# --- A league's bulk actions on a round: ids that are not numbers ------------------------------


@pytest.mark.parametrize("name", ["director_round_extend", "director_round_rule"])
@pytest.mark.parametrize("value", ["²", "9" * 5000, "abc", "-1"])
def test_a_ticked_match_that_is_not_an_id_is_left_out_not_a_500(
    client, director, league, name, value
):
    from matches.models import AuditEvent
    from tests.support import round_of

    round_, matches = round_of(league, 1)
    client.force_login(director.user)
    response = client.post(
        reverse(name, args=[league.slug, 1]),
        {"days": 3, "reason": "Snow", "confirm": "1", "match": [value]},
    )
    assert response.status_code == 302
    assert not AuditEvent.objects.exclude(action="created").exists()


def test_a_forfeit_seat_that_is_not_a_number_is_not_a_500(client, director, league):
    from tests.support import round_of

    round_, matches = round_of(league, 1)
    client.force_login(director.user)
    response = client.post(
        reverse("director_round_rule", args=[league.slug, 1]),
        {
            "reason": "Closed",
            "confirm": "1",
            "match": [matches[0].pk],
            f"ruling_{matches[0].pk}": "²",
        },
    )
    assert response.status_code == 302

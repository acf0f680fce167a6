"""Every link in mail comes from SITE_URL, never from the Host a request came with (issue 30):
the nightly's mail has no request, a reset link built from a poisoned Host would carry its key
to another site, and the demo on another port must link to that port. allauth's own mails name
the address they are about."""

import re

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

SITE = "http://127.0.0.1:8011"


@pytest.fixture
def post(client, institution, django_capture_on_commit_callbacks):
    def post(url, data):
        with (
            override_settings(SITE_URL=SITE, ALLOWED_HOSTS=["*"]),
            django_capture_on_commit_callbacks(execute=True),
        ):
            return client.post(url, data, HTTP_HOST="evil.example.org")

    return post


def links(message) -> list[str]:
    return re.findall(r"https?://[^\s\"'<>]+", message.body)


def test_a_verification_link_comes_from_site_url_whatever_the_host(post):
    post(
        reverse("account_signup"),
        {
            "first_name": "Marlow",
            "last_name": "Thistlewood",
            "email": "marlow@example.edu",
            "campus_id": "1234567",
            "password1": "a-long-passphrase-1",
            "password2": "a-long-passphrase-1",
        },
    )

    (message,) = mail.outbox
    found = links(message)
    assert found and all(link.startswith(SITE + "/") for link in found)
    assert "evil.example.org" not in message.body


def test_a_reset_link_comes_from_site_url_whatever_the_host(post, player):
    post(reverse("account_reset_password"), {"email": player.user.email})

    (message,) = mail.outbox
    assert any(link.startswith(SITE + "/accounts/password/reset/key/") for link in links(message))
    assert "evil.example.org" not in message.body


def test_the_account_already_exists_mail_names_the_address(post, player):
    post(
        reverse("account_signup"),
        {
            "first_name": "Someone",
            "last_name": "Else",
            "email": player.user.email,
            "campus_id": "7654321",
            "password1": "a-long-passphrase-1",
            "password2": "a-long-passphrase-1",
        },
    )

    (message,) = mail.outbox
    assert "already exists" in message.body
    assert f"\n\n{player.user.email}\n\n" in message.body
    assert all(link.startswith(SITE + "/") for link in links(message))

"""Real e-mail: the signup verification message is written to the outbox, sent from there through
Django's SMTP backend and arrives at a real SMTP server on loopback (aiosmtpd)."""

from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from django.urls import reverse
from post_office.models import STATUS, Email

from tests.support import Inbox, free_port, smtp_settings


@pytest.fixture
def smtp_server(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    smtp_settings(settings, controller.port)
    yield inbox
    controller.stop()


def test_the_verification_email_is_delivered_over_smtp(
    client, institution, smtp_server, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("account_signup"),
            {
                "first_name": "Quinn",
                "last_name": "Galloway",
                "email": "quinn@example.edu",
                "campus_id": "2345678",
                "password1": "a-long-passphrase-1",
                "password2": "a-long-passphrase-1",
            },
        )

    assert len(smtp_server.messages) == 1
    envelope = smtp_server.messages[0]
    assert envelope.rcpt_tos == ["quinn@example.edu"]
    message = message_from_bytes(envelope.content, policy=policy.default)
    assert message["Subject"].startswith("[Scrabble league]")
    assert "/accounts/confirm-email/" in message.get_body(("plain",)).get_content()
    assert Email.objects.get().status == STATUS.sent  # the outbox row it left from


def test_plain_text_mail_is_not_html_escaped_and_the_html_part_is(
    match, player, opponent, django_capture_on_commit_callbacks
):
    """A name with an apostrophe or angle brackets reads as typed in the text part (it showed
    `&#x27;` and `&lt;script&gt;`); the HTML part still escapes it."""
    from django.core import mail as outbox

    from matches.notifications import notify

    with django_capture_on_commit_callbacks(execute=True):
        notify(
            recipients=[opponent.user],
            subject="A test",
            lines=["O'Brien reported <script>alert(1)</script> 412–377"],
            match=match,
        )
    message = outbox.outbox[-1]
    assert "O'Brien reported <script>alert(1)</script>" in message.body
    html = message.alternatives[0][0]
    assert "&lt;script&gt;" in html and "<script>" not in html

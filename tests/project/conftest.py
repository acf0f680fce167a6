import pytest
from aiosmtpd.controller import Controller
from django.db import transaction
from django.test import TestCase

from tests.support import Inbox, free_port, run


@pytest.fixture
def smtp_inbox():
    """A real SMTP server on loopback (aiosmtpd) and what it received: (inbox, port)."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, controller.port
    controller.stop()


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The default demo, seeded once for the tests of a module that read it (a run takes about
    ten seconds): inside a transaction that is rolled back after the module's last test, each
    test's own changes rolled back to a savepoint as usual. Its on-commit work (the stored
    pages, the standings) runs as a commit would run it. The lines it printed."""
    with django_db_blocker.unblock(), transaction.atomic():
        with TestCase.captureOnCommitCallbacks(execute=True):
            printed, _ = run("seed_demo")
        yield printed.splitlines()
        transaction.set_rollback(True)

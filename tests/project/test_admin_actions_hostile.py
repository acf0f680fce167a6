"""Issue 45: no input reaches the admin's own 500s. Every list action of every model the panel
registers (ours and the libraries'), posted by a site admin and by a director with row ids that
are no row's (not a number, a fraction, past the column's range, a NUL): the admin's message,
the list again, nothing changed."""

import pytest
from django.contrib import admin
from django.contrib.admin import helpers
from django.urls import reverse

from accounts.models import User
from league.models import League
from tests.support import LeagueFactory

BAD_IDS = ["abc", "1.5", "99999999999999999999999", "\x00", ""]


def every_action():
    """(model admin, action name) of every action on every list the panel shows."""
    for model, model_admin in admin.site._registry.items():
        for name in model_admin.actions or []:
            yield model, name if isinstance(name, str) else name.__name__
        yield model, "delete_selected"


@pytest.mark.parametrize("persona", ["site_admin", "director"])
def test_every_admin_action_refuses_ids_that_are_no_rows_ids(
    client, request, persona, season, player
):
    LeagueFactory(season=season)
    someone = request.getfixturevalue(persona)
    client.force_login(getattr(someone, "user", someone))
    users, leagues = User.objects.count(), League.objects.count()
    answers = {}
    for model, action in sorted(
        set(every_action()), key=lambda pair: (pair[0]._meta.label, pair[1])
    ):
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for bad in BAD_IDS:
            response = client.post(
                url, {"action": action, "index": 0, helpers.ACTION_CHECKBOX_NAME: [bad]}
            )
            answers[(model._meta.label, action, bad)] = response.status_code
    assert [key for key, status in answers.items() if status >= 500] == []
    assert len(answers) > 40  # the walk reached every list
    assert (User.objects.count(), League.objects.count()) == (users, leagues)


def test_a_bad_id_is_refused_with_the_admins_message(client, site_admin, player):
    client.force_login(site_admin)
    url = reverse("admin:accounts_playerprofile_changelist")

    response = client.post(
        url,
        {"action": "forget_on_request", "index": 0, helpers.ACTION_CHECKBOX_NAME: ["abc"]},
        follow=True,
    )

    assert response.status_code == 200
    assert "The rows selected are not rows of this list: no action was taken." in (
        response.content.decode()
    )
    player.refresh_from_db()
    assert player.erased_at is None

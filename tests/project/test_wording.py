"""One word for one thing in everything a user reads. The number on the campus card is the
"campus ID" (L3, L10); "picture ID" is the card itself, shown at the front desk. The demo once
said "Student ID" at the desk and on the profile while the signup asked for a "Campus ID"."""

import ast
import re

import pytest
from django.urls import reverse

from tests.support import ROOT

OTHER_WORDING = re.compile(r"\bstudent[\s-]+(id|number)\b", re.IGNORECASE)
APPS = ["accounts", "league", "matches", "core", "config"]


def test_no_template_calls_the_campus_id_a_student_id():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "templates").rglob("*"))
        if path.is_file()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OTHER_WORDING.search(line)
    ]
    assert not found, "Say 'campus ID':\n" + "\n".join(found)


def test_no_message_or_label_in_the_code_calls_it_a_student_id():
    """Strings in the apps' code (forms' labels, messages, errors). A roster file's column may
    still be headed `student_id` or "Student ID": that is the registrar's wording, read, never
    shown (`accounts/roster.py` · `CAMPUS_ID_HEADERS`), and no string here spells it with a space."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    if OTHER_WORDING.search(node.value):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, "Say 'campus ID':\n" + "\n".join(found)


@pytest.mark.parametrize("page", ["account_signup", "profile", "front_desk", "home"])
def test_the_pages_that_show_the_number_call_it_campus_id(client, player, staff, season, page):
    client.force_login(staff.user if page == "front_desk" else player.user)
    if page == "account_signup":
        client.logout()
    url = reverse(page) + (f"?campus_id={player.campus_id}" if page == "front_desk" else "")
    text = client.get(url).content.decode()
    assert "Campus ID" in text and not OTHER_WORDING.search(text)


def test_the_signup_and_logout_pages_say_what_the_menu_says(client, player):
    """allauth's own pages said "Sign Up", "please sign in" and "Sign Out"; the menu says
    "Sign up", "Log in" and "Log out"."""
    signup = client.get(reverse("account_signup")).content.decode()
    assert "Sign up" in signup and "Log in" in signup
    assert "Sign Up" not in signup and "sign in" not in signup.lower()
    client.force_login(player.user)
    logout = client.get(reverse("account_logout")).content.decode()
    assert "Log out" in logout and "sign out" not in logout.lower()

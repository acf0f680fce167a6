"""Every page a browser journey opens must work under the Content Security Policy: a violation
(an inline script or style, something from another origin) fails the test that met it."""

import pytest


@pytest.fixture(autouse=True)
def no_content_security_policy_violations(browser, monkeypatch):
    """Also closes every context the test opened: the browser lives for the whole session, and a
    page left open (the projector polls its panel) kept calling the live server, which outlives
    the test too, while later tests ran in the same process."""
    violations = []
    opened = []
    new_context = browser.new_context

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        opened.append(context)
        context.on(
            "console",
            lambda message: (
                violations.append(f"{message.location.get('url')}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )
        return context

    monkeypatch.setattr(browser, "new_context", watched_context)
    try:
        yield violations
    finally:
        for context in opened:
            context.close()  # a no-op for one the test closed itself
    assert not violations, "\n".join(violations)


@pytest.fixture(autouse=True)
def site_url_is_the_live_server(request, settings):
    """Links in mail come from SITE_URL (issue 30): a journey that follows one must find the
    live server there."""
    if "live_server" in request.fixturenames:
        settings.SITE_URL = request.getfixturevalue("live_server").url

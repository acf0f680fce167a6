"""Every link and form target the demo's pages show answers, for every persona: a crawl from each
persona's first pages follows every link (<a href>) within the site and checks every form's
target (<form action>). A link never answers 404 or 405; a form that posts may go to an address
that takes only POST (405 on GET), never to one that is not there (404).

To stay within seconds on the demo's many rounds, tables and PDFs: each kind of page (its URL
pattern and slugs) is fetched a few times from each kind of page that links to it, its other
addresses only resolved; the admin's pages (Django's own) are fetched where the site links to
them, their own links not followed; and a PDF is rendered from its template but not laid out
(WeasyPrint's part, a second or more a file, is tested with the printables)."""

import re
from collections import Counter, deque
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.db.models import F
from django.test import Client
from django.urls import Resolver404, resolve

from accounts.models import Institution
from league.models import League
from matches.models import Seat

# Pages of one kind fetched from each kind of page that links to them, per persona; the kind's
# other addresses are only resolved.
PAGES_OF_A_KIND = 2
# At most this many pages per persona, so that pages linking to ever new ones cannot run away.
MOST_PAGES = 400
# The log-out form signs the persona out; static files are the web server's.
NOT_FOLLOWED = ("/static/", "/accounts/logout/")


# A rule's number as docs/rules.md writes it (L9, G10, P5): it belongs to the docs and the code,
# never to what a user reads (issue 48).
RULE_NUMBER = re.compile(r"\b[LGEPSRC][0-9]{1,2}\b")


class Targets(HTMLParser):
    """A page's links (<a href>) and form targets (<form action>, with the form's method), and
    the rule numbers its visible text shows."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.forms: list[tuple[str, str]] = []
        self.rule_numbers: list[str] = []
        self._hidden = 0  # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self._hidden += 1
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag == "form" and attrs.get("action"):
            self.forms.append((attrs["action"], (attrs.get("method") or "get").lower()))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.rule_numbers += [data.strip()[:80] for _ in RULE_NUMBER.finditer(data)][:1]


def within_site(page: str, href: str) -> str | None:
    """The path and query `href` on `page` leads to, or None when it leaves the site (another
    host, a mail address) or leads to what the crawl does not follow."""
    address = urlsplit(urljoin(f"http://testserver{page}", href))
    if address.scheme not in ("http", "https") or address.netloc != "testserver":
        return None
    if address.path.startswith(NOT_FOLLOWED):
        return None
    return address.path + (f"?{address.query}" if address.query else "")


def kind_of(path: str) -> str | None:
    """The kind of page an address leads to: its URL pattern with the slugs in it (a league's
    pages are of its format: a club's, an event's), the numbers left out (a round, a table, a
    match). None when no pattern takes it."""
    try:
        found = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    slugs = [value for value in found.kwargs.values() if isinstance(value, str)]
    return " ".join([found.route, *slugs])


def crawl(client: Client, starts: list[str]) -> tuple[list[str], int, list[str]]:
    """The site visited from `starts` as `client`: every address that did not answer (with the
    page that showed it), how many pages were fetched, and the text that shows a rule's
    number (with its kind of page)."""
    dead: list[str] = []
    answers: dict[str, int] = {}  # each address fetched, and its status
    queue = deque((start, "", "link") for start in starts)  # (address, shown on, how)
    queued = {(start, "") for start in starts}
    # A kind of page may answer from one kind of page and not from another (the match page is
    # its players' and the director's, not the front desk's at the club night): each kind of
    # page is fetched a few times from each kind of page that shows it.
    fetched_from: Counter = Counter()
    numbered: set[str] = set()

    def found(href: str, page: str, how: str) -> None:
        target = within_site(page, href)
        if target and (target, kind_of(page)) not in queued:
            queued.add((target, kind_of(page)))
            queue.append((target, page, how))

    while queue and len(answers) < MOST_PAGES:
        path, shown_on, how = queue.popleft()
        kind = kind_of(path)
        if kind is None:
            dead.append(f"{path}, a {how} on {shown_on}: no page has this address")
            continue
        if path not in answers:
            if shown_on and fetched_from[kind, kind_of(shown_on)] >= PAGES_OF_A_KIND:
                continue  # it resolves, and pages of its kind were fetched from such pages
            fetched_from[kind, kind_of(shown_on) if shown_on else None] += 1
            response = client.get(path)
            answers[path] = response.status_code
            if response.status_code in (301, 302):
                found(response["Location"], path, how)
            elif (
                response.status_code == 200
                and "text/html" in response.get("Content-Type", "")
                and not path.startswith("/admin/")  # the admin's links are Django's
                and how == "link"  # what a form target shows belongs to its form's page
            ):
                targets = Targets()
                targets.feed(response.content.decode())
                for href in targets.links:
                    found(href, path, "link")
                for action, method in targets.forms:
                    found(action, path, "form target" if method == "post" else "link")
                numbered.update(f"{kind}: {text}" for text in targets.rule_numbers)
        status = answers[path]
        if status == 404 or (status == 405 and how == "link"):
            dead.append(f"{path}, a {how} on {shown_on or 'the first pages'}: {status}")
    return dead, len(answers), sorted(numbered)


def login_of(demo: list[str], role: str) -> tuple[str, str]:
    """The e-mail address and password of the demo's first login of `role`."""
    _, email, password = next(line.split() for line in demo if line.split()[0] == role)
    return email, password


def an_opponent(demo: list[str]) -> tuple[str, str]:
    """A student whose opponent reported their league game: they have a result to confirm or
    dispute. Every demo student has the demo's password."""
    seat = (
        Seat.objects.filter(match__status="reported", match__league__format="league")
        .exclude(player_id=F("match__reports__submitted_by_id"))
        .select_related("player__user")
        .order_by("match_id")
        .first()
    )
    return seat.player.user.email, login_of(demo, "student")[1]


def first_pages(persona: str) -> list[str]:
    """Where the crawl starts: home, and what a persona opens without a link to it (a league's
    page someone shared, a staff member's bookmarks, the site admin's pick of an institution)."""
    if persona == "stranger":
        return ["/", *(league.get_absolute_url() for league in League.objects.order_by("pk"))]
    if persona == "front desk":
        return ["/", "/desk/"]
    if persona == "director":
        return ["/", "/director/"]
    if persona == "site admin":
        demo = Institution.objects.get(email_domains="example.edu")
        return [f"/director/?institution={demo.slug}", "/"]
    return ["/"]


LOGINS = {
    "student": lambda demo: login_of(demo, "student"),
    "opponent": an_opponent,
    "volunteer scorer": lambda demo: login_of(demo, "event_scorer"),
    "front desk": lambda demo: login_of(demo, "front_desk"),
    "director": lambda demo: login_of(demo, "director"),
    "site admin": lambda demo: login_of(demo, "site_admin"),
}


@pytest.mark.parametrize("persona", ["stranger", *LOGINS])
def test_every_link_and_form_target_the_pages_show_answers(demo, db, persona, monkeypatch):
    monkeypatch.setattr("weasyprint.HTML.write_pdf", lambda html, *args, **kwargs: b"%PDF-1.7")
    client = Client()
    if persona in LOGINS:
        email, password = LOGINS[persona](demo)
        assert client.login(email=email, password=password), email

    dead, fetched, numbered = crawl(client, first_pages(persona))

    assert fetched > 10, f"only {fetched} pages reached: the crawl did not get in"
    assert not dead, "\n".join(dead)
    assert not numbered, "rule numbers shown to users:\n" + "\n".join(numbered)

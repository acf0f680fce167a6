"""A person is named only through the naming path (issue 46, P1, P2): a walk of every surface.

Ada Quill withholds her name; she plays a league match against Orla Oduya, sits at an event
table (self-entry on) and a club table with Bo Vance. Example State's classmate Cy Marsh sits
at none of her tables. At Elsewhere College, which names players by number in public, Xan and
Yu play a league match. Four readers walk every route the URL configuration has: a stranger,
the classmate, her opponent and her table-mate; every refusal the table page's forms give is
posted too, and every printable and mail is read. Her name shows only where docs/design.md's
privacy table allows it (her opponent on their match page, her table-mate at their table), and
Elsewhere's students' names never reach anyone outside Elsewhere.

The routes come from the URL configuration: one that is neither walked nor listed as exempt
(with its reason) fails the test, so a new page is walked from the day it is added."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts import privacy
from accounts.services import name_withhold
from clubs.services import check_in, seat_night
from events.services import slip_of
from league.models import Entry, LeagueFormat, Round
from matches.models import MatchStatus
from matches.services import card_enter
from tests.events.self_entry_support import self_entry_event
from tests.support import (
    InstitutionFactory,
    LeagueFactory,
    SeasonFactory,
    confirmed_game,
    eligible_student,
    match_between,
    poppler,
    roster_entry,
)

# Routes no reader of the walk reaches, or that name nobody but the reader: why each is not
# walked. Anything else the URL configuration has must be walked.
EXEMPT = {
    "old_league_": "an old address: a redirect to the league's own, walked there",
    "account_": "django-allauth's own pages: they name only the signed-in reader",
    "admin:": "the admin: the institution's staff only (P2 lets staff read names)",
    "club_": "a club night's desk, cards and closing: the club's staff only",
    "director_": "the director's pages: staff only",
    "export_": "the director's CSV exports: staff only (P6)",
    "front_desk": "the front desk: staff only",
    "event_desk": "the door: staff only",
    "event_check_in": "the door: staff only",
    "event_walk_in": "the door: staff only",
    "event_scorers": "the event's volunteers: its director only",
    "event_assists": "assists at the tables: staff only",
    "event_scoring_now": "the scoring table: staff and volunteers only",
    "event_scores": "the scoring table: staff and volunteers only",
    "event_pair": "pairing a round: the director only",
    "event_swap": "swapping players: the director only",
    "event_close": "closing a round: the director only",
    "event_table_count": "counting a table's card: staff only",
    "event_table_send": "a table's card or confirmation a phone kept offline: the card form's own "
    "service and refusals, said in the reader's names, answered in JSON to that phone",
    "event_self_entry": "closing self-entry: the director only",
    "event_start": "starting a round early: the director only",
    "event_slip": "the door's slips (printing, a new one): staff only",
    "event_setup": "setting up an event: directors only",
    "league_setup_form": "setting up an event: directors only",
    "ratings_import": "importing ratings: directors only",
    "profile": "one's own profile: names only its reader",
    "my_data": "one's own data: names the reader and their opponents, as their match pages do",
    "calendar_rotate": "rotating one's own calendar link: a redirect",
    "sign_in_link": "a volunteer's one-time link: names the volunteer to themself",
    "table_timer": "the timer shows the names its own link carries (?names=), nothing stored",
    "favicon": "an icon",
    "socialaccount_": "django-allauth's campus sign-in pages: they name only the signed-in reader",
    "openid_connect_": "campus sign-in (OpenID Connect): redirects to and from the campus",
    "saml_": "campus sign-in (SAML): redirects, our metadata, the campus's answer",
    "social/": "django-allauth's older addresses of the same pages: redirects",
    "campus_sign_in": "an institution's campus sign-in button page: names nobody",
    "offline_worker": "the scoring table's service worker: a script that names nobody",
}
POSTED = {
    "event_table_card": "every refusal of the card form, below",
    "event_table_confirm": "every refusal of the confirmation, below",
    "league_join": "posted below: a refusal names the event",
    "league_withdraw": "a student's own entry: the reader's own name only",
    "league_waitlist": "a student's own place: the reader's own name only",
    "league_waitlist_leave": "a student's own place: the reader's own name only",
    "match_propose": "the match's players only, who read each other's names (P2)",
    "match_accept": "the match's players only",
    "match_equipment": "the match's players only",
    "match_cant_reach": "the match's players only",
    "match_report": "the match's players only",
    "match_confirm": "the match's players only",
    "match_dispute": "the match's players only",
    "match_take_back": "the match's players only",
}


def route_names() -> set[str]:
    names = set()

    def walk(patterns, namespace=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern):
                names.add(f"{namespace}{pattern.name or pattern.pattern}")

    walk(get_resolver().url_patterns)
    return names


def exempt(name: str) -> bool:
    return name in POSTED or any(name.startswith(prefix) for prefix in EXEMPT)


@pytest.fixture
def world(season, institution, director, tmp_path, django_capture_on_commit_callbacks):
    """The people and their tables (see the module's docstring)."""
    commit = django_capture_on_commit_callbacks
    fest = self_entry_event(season, tmp_path, seats=3, entrants=3, students=3, slug="walk-fest")
    entries = {e.player.user.first_name: e for e in Entry.objects.filter(league=fest)}
    ada, bo = entries["Ada"].player, entries["Bo"].player
    cy = entries["Cy"].player  # at the event, and at no table of hers but that one
    orla = eligible_student(season, first_name="Orla", last_name="Oduya")
    classmate = eligible_student(season, first_name="Cleo", last_name="Classmate")
    league = LeagueFactory(season=season, name="Walk League", slug="walk-league")
    for player in (ada, orla):
        Entry.objects.create(league=league, player=player)
    with commit(execute=True):
        confirmed_game(match_between(league, ada, orla), winner=ada, loser=orla)
    pending = match_between(league, ada, orla)  # a match still to play: her calendar's

    club = LeagueFactory(
        season=season, format=LeagueFormat.CLUB, name="Walk Club", slug="walk-club"
    )
    night = Round.objects.create(league=club, number=1, play_by=season.starts_on)
    dee = eligible_student(season, first_name="Dee", last_name="Third")
    for number, player in enumerate((ada, bo, dee), start=1):
        Entry.objects.create(league=club, player=player, player_number=number)
        check_in(actor=director.user, round=night, player=player)
    (club_table,) = seat_night(actor=director.user, round=night)
    with commit(execute=True):
        card_enter(actor=director.user, match=club_table, scores=[300, 280, 260])

    elsewhere = InstitutionFactory(
        slug="elsewhere-number",
        email_domains="elsewhere-number.example.org",
        name="Elsewhere College",
        public_names=privacy.NUMBER,
    )
    their_season = SeasonFactory(institution=elsewhere, slug="their-term")
    xan = eligible_student(their_season, first_name="Xan", last_name="Xerxes")
    yu = eligible_student(their_season, first_name="Yu", last_name="Yellowby")
    theirs = LeagueFactory(season=their_season, name="Number League", slug="number-league")
    for player in (xan, yu):
        Entry.objects.create(league=theirs, player=player)
    with commit(execute=True):
        confirmed_game(match_between(theirs, xan, yu), winner=xan, loser=yu)
        roster_entry(season, ada.campus_id)
        name_withhold(actor=ada.user, profile=ada, withhold=True)
    ada.refresh_from_db()
    return {
        "ada": ada,
        "orla": orla,
        "bo": bo,
        "cy": cy,
        "dee": dee,
        "classmate": classmate,
        "xan": xan,
        "yu": yu,
        "fest": fest,
        "league": league,
        "club": club,
        "theirs": theirs,
        "league_match": league.matches.filter(status=MatchStatus.CONFIRMED).get(),
        "pending": pending,
        "club_table": club_table,
        "their_match": theirs.matches.get(),
        "event_table": fest.matches.get(round__number=1),
    }


def readers(world) -> dict[str, Client]:
    clients = {"a stranger": Client(raise_request_exception=False)}
    for label, who in (
        ("a classmate", "classmate"),
        ("her opponent", "orla"),
        ("her table-mate", "bo"),
    ):
        client = Client(raise_request_exception=False)
        client.force_login(world[who].user)
        clients[label] = client
    return clients


def walked_urls(world) -> dict[str, list[str]]:
    """Each walked route's addresses in the world."""
    slugs = [world[key] for key in ("fest", "league", "club", "theirs")]
    matches = [world[key].pk for key in ("league_match", "pending", "club_table", "their_match")]
    people = [world[key] for key in ("ada", "orla", "bo", "classmate", "xan", "yu")]
    fest = world["fest"]
    return {
        "home": [reverse("home")],
        "league_list": [reverse("league_list")],
        "campus_leagues": [
            reverse("campus_leagues", args=[league.season.institution.slug]) for league in slugs
        ],
        "rating_list": [reverse("rating_list")],
        **{
            name: [reverse(name, args=[slug]) for slug in slugs]
            for name in (
                "league_detail",
                "league_standings",
                "league_standings_json",
                "league_bracket",
                "league_bracket_json",
                "league_calendar",
                "two_letter_words",
                "event_settings_file",
            )
        },
        **{
            name: [reverse(name, args=[fest])]
            for name in (
                "event_json",
                "event_leaderboard",
                "event_projector",
                "event_projector_panel",
            )
        },
        "event_round": [reverse("event_round", args=[fest, 1])],
        "event_table": [reverse("event_table", args=[fest, 1, 1])],
        "event_print": [
            reverse("event_print", args=[fest, 1, kind]) for kind in ("pairings", "cards", "sheets")
        ],
        "match_detail": [reverse("match_detail", args=[pk]) for pk in matches],
        "slip_page": [
            reverse("slip_page", args=[slip_of(entry).token])
            for entry in Entry.objects.filter(league=world["fest"])
        ],
        "slip_code": [reverse("slip_code")],
        "player_calendar": [reverse("player_calendar", args=[p.calendar_token]) for p in people],
    }


def text_of(response) -> str:
    if response.get("Content-Type", "").startswith("application/pdf"):
        return poppler("pdftotext", response.content, TMP[0])
    return response.content.decode(errors="replace")


TMP: list = []


def allowed(reader: str, url: str, world) -> bool:
    """Where docs/design.md's privacy table lets this reader read her name: where they play with
    her (their match page, their table, their own list of matches on the home page)."""
    if reader in ("her opponent", "her table-mate") and url == reverse("home"):
        return True
    if reader == "her opponent":
        return url.startswith(reverse("match_detail", args=[world["league_match"].pk])) or (
            url.startswith(reverse("match_detail", args=[world["pending"].pk]))
        )
    if reader == "her table-mate":
        mine = [
            reverse("event_table", args=[world["fest"], 1, 1]),
            reverse("event_round", args=[world["fest"], 1]),  # "your table" on it
            reverse("match_detail", args=[world["club_table"].pk]),
        ]
        return any(url.startswith(prefix) for prefix in mine)
    return False


def traces(person) -> list[str]:
    return [person.user.last_name, f"{person.user.first_name} {person.user.last_name}"]


def test_p1_p2_every_route_is_walked_or_exempt_with_its_reason(world):
    walked = set(walked_urls(world))
    missing = sorted(name for name in route_names() if name not in walked and not exempt(name))
    assert missing == [], "neither walked nor exempt"


def test_p1_p2_her_name_shows_only_where_the_privacy_table_allows(
    world, client, director, tmp_path
):
    TMP[:] = [tmp_path]
    found = []
    staff = Client()
    staff.force_login(director.user)
    for label, reader in readers(world).items():
        for name, urls in walked_urls(world).items():
            for url in urls:
                # The printables are the staff's to download and go on the wall and the tables.
                response = (staff if name == "event_print" else reader).get(url)
                text = text_of(response)
                for trace in traces(world["ada"]):
                    if trace in text and not allowed(label, url, world):
                        found.append(f"{label}: {url}: {trace}")
                for person in (world["xan"], world["yu"]):
                    for trace in traces(person):
                        if trace in text:
                            found.append(f"{label}: {url}: {trace}")
    assert found == [], "\n".join(found)
    # Her opponent and her table-mate do read her name where they play with her.
    opponent = readers(world)["her opponent"]
    assert (
        "Quill"
        in opponent.get(reverse("match_detail", args=[world["league_match"].pk])).content.decode()
    )


def test_p2_s4_every_refusal_of_the_table_page_names_her_as_the_page_does(world):
    fest, table = world["fest"], world["event_table"]
    seats = list(table.seats.order_by("order"))
    hers = next(seat for seat in seats if seat.player_id == world["ada"].pk)
    other = next(seat for seat in seats if seat.player_id != world["ada"].pk)
    card_url = reverse("event_table_card", args=[fest, 1, table.table])
    confirm_url = reverse("event_table_confirm", args=[fest, 1, table.table])
    scores = {f"score_{seat.order}": 300 + seat.order for seat in seats}
    her_slip = slip_of(Entry.objects.get(league=fest, player_id=hers.player_id))
    other_slip = slip_of(Entry.objects.get(league=fest, player_id=other.player_id))
    ended = {"ended_by": "went_out"}
    posts = [
        # The phone knows another player's slip and acts for her seat: refused, naming her.
        (card_url, {"seat": hers.order, "code": "", **ended, **scores}),
        (confirm_url, {"seat": hers.order, "code": "", "card": 999999}),
        (card_url, {"seat": hers.order, "code": "ZZZZZZZZ", **ended, **scores}),
        (card_url, {"seat": other.order, "code": her_slip.code, **ended, **scores}),
        (card_url, {"seat": 9, "code": "ZZZZZZZZ", **ended, **scores}),
        (card_url, {"seat": hers.order, "code": her_slip.code, **ended, "score_1": 4000}),
        (confirm_url, {"seat": hers.order, "code": "ZZZZZZZZ", "card": 999999}),
        (confirm_url, {"seat": other.order, "code": other_slip.code, "card": "abc"}),
        (confirm_url, {"seat": other.order, "code": "", "card": 999999}),
    ]
    number = Entry.objects.get(league=fest, player_id=hers.player_id).player_number
    found, said = [], []
    for label, reader in readers(world).items():
        if label == "her table-mate":
            continue  # she may read her name at their table
        reader.get(reverse("slip_page", args=[other_slip.token]))  # her table-mate's slip
        for url, data in posts:
            text = reader.post(url, data, follow=True).content.decode()
            said.append(f"Only seat {hers.order} (No. {number}, Player {number})" in text)
            for trace in traces(world["ada"]):
                if trace in text:
                    found.append(f"{label}: {url} {data}: {trace}")
    assert found == []
    assert any(said), "no refusal named her seat"


def test_p2_no_mail_names_her_to_anyone_but_her_opponents_table_mates_and_staff(world, director):
    ada = world["ada"]
    may_read = {world[key].user.email for key in ("ada", "orla", "bo", "cy", "dee")}
    may_read.add(director.user.email)
    assert mail.outbox, "the world's results sent no mail to read"
    found = [
        (message.subject, message.to)
        for message in mail.outbox
        if any(trace in message.subject + message.body for trace in traces(ada))
        and not set(message.to) <= may_read
    ]
    assert found == []


@pytest.fixture
def her_event(season, director, tmp_path):
    """Ada Quill, who withholds her name, sits at table 1 of a two-table event with self-entry
    on; a logged-out phone at her table holds her table-mate's slip."""
    fest = self_entry_event(season, tmp_path, entrants=6, students=1, slug="walk-refusals")
    ada = Entry.objects.get(league=fest, player__user__first_name="Ada").player
    roster_entry(season, ada.campus_id)
    name_withhold(actor=ada.user, profile=ada, withhold=True)
    ada.refresh_from_db()
    table = fest.matches.get(round__number=1, seats__player=ada)
    other_table = fest.matches.filter(round__number=1).exclude(pk=table.pk).get()
    seats = list(table.seats.order_by("order"))
    hers = next(seat for seat in seats if seat.player_id == ada.pk)
    mate = next(seat for seat in seats if seat.player_id != ada.pk)
    return {
        "fest": fest,
        "ada": ada,
        "table": table,
        "other_table": other_table,
        "hers": hers,
        "mate": mate,
        "director": director,
    }


def test_p2_s4_every_refusal_state_of_the_table_page_names_her_as_the_page_does(her_event):
    """Each refusal issue 47 lists, reached in turn with her seated: a revoked slip, another
    table's card, a corrected version, a forfeited table, bad scores, closed self-entry. The
    phone's holder is logged out, so she is "Player N" on every answer."""
    from events import services as events
    from events.models import TableCard

    fest, table, ada = her_event["fest"], her_event["table"], her_event["ada"]
    hers, mate, director = her_event["hers"], her_event["mate"], her_event["director"].user
    card_url = reverse("event_table_card", args=[fest, 1, table.table])
    confirm_url = reverse("event_table_confirm", args=[fest, 1, table.table])
    scores = {f"score_{seat.order}": 300 + seat.order for seat in table.seats.all()}
    card = {"code": "", "ended_by": "went_out", **scores}
    her_entry = Entry.objects.get(league=fest, player=ada)
    mate_slip = slip_of(Entry.objects.get(league=fest, player_id=mate.player_id))
    phone = Client(raise_request_exception=False)
    phone.get(reverse("slip_page", args=[mate_slip.token]))
    answers = {}

    # Her own slip, opened on this phone, then printed again at the door: refused.
    phone.get(reverse("slip_page", args=[slip_of(her_entry).token]))
    events.slip_print_again(actor=director, entry=her_entry)
    answers["a revoked slip"] = phone.post(card_url, {"seat": hers.order, **card})
    # Another table's card, then a version corrected since the page was loaded.
    other_phone = Client()
    other_seat = her_event["other_table"].seats.order_by("order").first()
    other_phone.get(
        reverse(
            "slip_page",
            args=[slip_of(Entry.objects.get(league=fest, player_id=other_seat.player_id)).token],
        )
    )
    other_table = her_event["other_table"]
    other_card = {f"score_{s.order}": 300 for s in other_table.seats.all()}
    other_phone.post(
        reverse("event_table_card", args=[fest, 1, other_table.table]),
        {"seat": other_seat.order, "code": "", "ended_by": "went_out", **other_card},
    )
    theirs = TableCard.objects.get(match=other_table)
    answers["another table's card"] = phone.post(
        confirm_url, {"seat": mate.order, "card": theirs.pk}
    )
    phone.post(card_url, {"seat": mate.order, **card})
    first = TableCard.objects.get(match=table)
    phone.post(card_url, {"seat": mate.order, **card, f"score_{mate.order}": 299})
    answers["a corrected version"] = phone.post(confirm_url, {"seat": mate.order, "card": first.pk})
    answers["bad scores"] = phone.post(card_url, {"seat": mate.order, **card, "score_1": 4000})
    # Once the director closes self-entry, the table takes no card.
    events.self_entry_close(actor=director, round=table.round)
    answers["closed self-entry"] = phone.post(card_url, {"seat": mate.order, **card}, follow=True)

    said = {
        "a revoked slip": f"Only seat {hers.order} (No. {her_entry.player_number}, Player",
        "another table's card": "That card is not this table&#x27;s.",
        "a corrected version": "The card was corrected since this page was loaded",
        "bad scores": "Nothing was entered: see below.",
        "closed self-entry": "are entered at the scoring table",
    }
    found, unsaid = [], []
    for state, answer in answers.items():
        text = answer.content.decode()
        if said[state] not in text:
            unsaid.append(state)
        for trace in traces(ada):
            if trace in text:
                found.append(f"{state}: {trace}")
    assert found == []
    assert unsaid == [], "no refusal said"


def test_p2_s1_a_round_not_begun_and_a_forfeited_table_name_her_as_the_page_does(
    season, director, tmp_path
):
    """The two refusals of a table's state, each with her seated: her round has not begun,
    and (once begun and closed without a card) her table is a double forfeit."""
    from events import services as events

    fest = self_entry_event(season, tmp_path, entrants=3, slug="walk-early", started=False)
    ada = Entry.objects.get(league=fest, player__user__first_name="Ada").player
    roster_entry(season, ada.campus_id)
    name_withhold(actor=ada.user, profile=ada, withhold=True)
    table = fest.matches.get(round__number=1)
    mate = table.seats.exclude(player=ada).first()
    phone = Client(raise_request_exception=False)
    phone.get(
        reverse(
            "slip_page",
            args=[slip_of(Entry.objects.get(league=fest, player_id=mate.player_id)).token],
        )
    )
    card_url = reverse("event_table_card", args=[fest, 1, table.table])
    card = {"seat": mate.order, "code": "", "ended_by": "went_out"}
    card.update({f"score_{seat.order}": 300 for seat in table.seats.all()})
    answers = {"a round not begun": phone.post(card_url, card)}
    events.round_start_early(actor=director.user, round=table.round)
    events.close_round(actor=director.user, round=table.round, reason="Round over")
    answers["a forfeited table"] = phone.post(card_url, card)

    for state, answer in answers.items():
        text = answer.content.decode()
        assert 'data-testid="refusal"' in text, state
        assert not any(trace in text for trace in traces(ada)), state
    assert "starts at 6:00 PM" in answers["a round not begun"].content.decode()

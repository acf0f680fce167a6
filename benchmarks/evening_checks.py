"""The checks and the operator of a self-entry evening (`self_entry_evening.py`): no card lost
or counted twice, the operator's board read, each conflict counted, the round closed."""

import re
import statistics
import time

from evening_hall import SLUG, Phone, Table

# --- The checks and the operator ------------------------------------------------------------------


def check_cards(number: int, tables: list[Table]) -> dict:
    """Lost: a card acknowledged (302) that neither counted with its scores nor waits in a
    conflict. Twice: more than one counted card or audited card entry for a table."""
    from django.db.models import Count

    from events.models import TableCard
    from matches.models import AuditEvent, Match

    matches = {
        m.table: m
        for m in Match.objects.filter(round__league__slug=SLUG, round__number=number)
        .prefetch_related("seats")
    }  # fmt: skip
    pending = dict(
        TableCard.objects.filter(match__round__number=number, state=TableCard.State.PENDING,
                                 match__league__slug=SLUG)
        .values_list("match__table").annotate(n=Count("id"))
    )  # fmt: skip
    lost = []
    for table in tables:
        if table.entered_at is None:
            continue
        match = matches[table.number]
        scores = [seat.score for seat in sorted(match.seats.all(), key=lambda s: s.order)]
        counted = match.is_final and scores == table.scores
        in_conflict = table.fate == "conflict" and pending.get(table.number, 0) == 2
        if not (counted or in_conflict):
            lost.append(table.number)
    in_round = {"match__round__number": number, "match__league__slug": SLUG}
    twice = (
        TableCard.objects.filter(state=TableCard.State.COUNTED, **in_round)
        .values("match")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
        + AuditEvent.objects.filter(action="card_entered", **in_round)
        .values("match")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    return {"lost": lost, "twice": twice}


def read_board(html: str) -> dict:
    """What the scoring table's page asks a person about: each conflict's versions (their card
    ids), the unconfirmed cards, the tables owing a card, the locked tables."""
    conflicts = {}
    for part in html.split("<article")[1:]:
        head = re.match(r'[^>]*data-testid="(conflict|unconfirmed)" id="table-(\d+)"', part)
        if head and head[1] == "conflict":
            conflicts[int(head[2])] = [
                int(c) for c in re.findall(r'name="card" value="(\d+)"', part)
            ]
    unconfirmed = {int(t) for t in re.findall(r'data-testid="unconfirmed" id="table-(\d+)"', html)}
    owing = re.search(r'<p data-testid="missing">(.*?)</p>', html, re.S)
    missing = {int(t) for t in re.findall(r">(\d+)</a>", owing[1])} if owing else set()
    return {
        "conflicts": conflicts,
        "unconfirmed": unconfirmed,
        "missing": missing,
        "locked": 'data-testid="locked"' in html,
    }


def operate(port: int, session: str, number: int, tables: list[Table]) -> dict:
    """The operator at the scoring table: read the board, count one version of each conflict
    (the scorekeeper's, as the table says once heard out), close the round."""
    from django.utils import timezone

    from events.card_board import card_board
    from events.selectors import scoring_tables
    from league.models import League, Round

    director = Phone(port, {"sessionid": session})
    scores_page = f"/example-state/leagues/{SLUG}/rounds/{number}/scores/"
    started = time.perf_counter()
    status, _, html = director.request("GET", scores_page)
    read_took = time.perf_counter() - started
    assert status == 200, f"the scoring page answered {status}"
    board = read_board(html)
    league = League.objects.get(slug=SLUG)
    round_ = Round.objects.get(league=league, number=number)
    in_process = card_board(league, round_, scoring_tables(round_), timezone.now())
    expected_conflicts = {t.number for t in tables if t.fate == "conflict" and t.disagreed}
    expected_missing = {t.number for t in tables if t.entered_at is None}
    seen = {
        "conflicts": set(board["conflicts"]),
        "missing": board["missing"],
        "other": board["unconfirmed"] | ({-1} if board["locked"] else set()),
    }
    exact = (
        seen["conflicts"] == expected_conflicts
        and seen["missing"] == expected_missing
        and not seen["other"]
        and {m.table for m, _ in in_process.conflicts} == expected_conflicts
        and {m.table for m in in_process.missing} == expected_missing
        and not in_process.unconfirmed
        and not in_process.locked
    )
    actions = 1  # reading the board
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]
    count_took = []
    for table, versions in sorted(board["conflicts"].items()):
        begun = time.perf_counter()
        status, _, _ = director.request(
            "POST",
            f"/example-state/leagues/{SLUG}/rounds/{number}/tables/{table}/count/",
            {"csrfmiddlewaretoken": token, "card": versions[0]},
        )
        count_took.append(time.perf_counter() - begun)
        assert status == 302, f"counting table {table}'s card answered {status}"
        actions += 1
    closing = time.perf_counter()
    status, _, _ = director.request(
        "POST",
        f"/example-state/leagues/{SLUG}/rounds/{number}/close/",
        {"csrfmiddlewaretoken": token},
    )
    assert status == 302, f"closing round {number} answered {status}"
    actions += 1
    return {
        "exact": exact,
        "seen": seen,
        "actions": actions,
        "closing": closing,
        "read_ms": read_took * 1000,
        "count_ms": statistics.median(count_took) * 1000 if count_took else 0.0,
    }


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000

"""Assists sold for the charity at a team challenge (E5): whole cents, the first price then the
later one from the second period or round on, a price change that leaves old sales alone, a sale
voided (never edited) with a reason, and a ledger that is a query over the sales."""

import json
from datetime import datetime, time, timedelta

import pytest
from django.urls import reverse

from events import assist_ledger as assists_read
from events.models import AssistItem, AssistSale
from events.money import money
from events.services import assists
from league.models import Entry, League, Round
from tests.support import (
    LeagueFactory,
    at,
    create_event,
    eligible_student,
    rounds_started,
    run,
    write,
)

CHALLENGE = {
    "name": "Corporate Challenge",
    "slug": "challenge",
    "format": "event",
    "seats_per_table": 4,
    "team_size": 4,
    "rounds": [
        {
            "number": 1,
            "periods": [{"starts": "18:30", "minutes": 30}, {"starts": "19:30", "minutes": 30}],
        },
        {"number": 2, "periods": [{"starts": "20:30", "minutes": 30}]},
    ],
    "assists": [
        {"name": "Q/Z/X word list", "first_cents": 500, "later_cents": 1000},
        {"name": "Ringer", "first_cents": 250, "later_cents": 500},
    ],
}


@pytest.fixture
def challenge(season, tmp_path):
    data = {**CHALLENGE, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "c.json")
    rows = "name,team\n" + "".join(f"P{t}{m},Team {t}\n" for t in range(5) for m in range(4))
    run("import_entrants", write(tmp_path, "e.csv", rows), "--league", "challenge")
    run("pair_round", "--league", "challenge", "--all-entrants")
    return rounds_started(League.objects.get(slug="challenge")), data


def at_hour(league, hour, minute):
    return datetime.combine(
        league.event.date, time(hour, minute), tzinfo=league.season.institution.tz
    )


def test_e5_a_sale_takes_the_first_price_then_the_later_one_from_the_second_period(
    challenge, staff
):
    league, _ = challenge
    entry = Entry.objects.filter(league=league).first()
    word_list = AssistItem.objects.get(league=league, name="Q/Z/X word list")
    early = assists.sale_record(
        actor=staff.user,
        league=league,
        entry=entry,
        item=word_list,
        quantity=2,
        now=at_hour(league, 18, 45),
    )
    late = assists.sale_record(
        actor=staff.user, league=league, entry=entry, item=word_list, now=at_hour(league, 19, 31)
    )
    round_two = Round.objects.get(league=league, number=2)
    later = assists.sale_record(
        actor=staff.user,
        league=league,
        entry=entry,
        item=word_list,
        round=round_two,
        now=at_hour(league, 18, 40),
    )
    assert (early.unit_cents, early.cents) == (500, 1000)
    assert late.unit_cents == 1000 and later.unit_cents == 1000  # second period; round 2
    assert assists_read.ledger(league).total_cents == 3000


def test_e5_a_price_change_after_sales_leaves_the_old_sales_at_their_price(
    challenge, staff, season, tmp_path
):
    league, data = challenge
    entry = Entry.objects.filter(league=league).first()
    ringer = AssistItem.objects.get(league=league, name="Ringer")
    sale = assists.sale_record(
        actor=staff.user, league=league, entry=entry, item=ringer, now=at_hour(league, 18, 40)
    )
    repriced = {
        **data,
        "assists": [data["assists"][0], {"name": "Ringer", "first_cents": 300, "later_cents": 600}],
    }
    run(
        "create_event",
        write(tmp_path, "r.json", json.dumps(repriced)),
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
        "--update",
    )
    sale.refresh_from_db()
    assert sale.unit_cents == 250 and AssistItem.objects.get(pk=ringer.pk).first_cents == 300
    dropped = {**data, "assists": [data["assists"][0]]}
    path = write(tmp_path, "d.json", json.dumps(dropped))
    with pytest.raises(Exception, match="has been sold"):
        run(
            "create_event",
            path,
            "--institution",
            season.institution.slug,
            "--season",
            season.slug,
            "--update",
        )


def test_e5_bad_sales_are_refused_by_name_and_change_nothing(challenge, staff, season):
    league, _ = challenge
    item = AssistItem.objects.get(league=league, name="Ringer")
    entry = Entry.objects.filter(league=league).first()
    other = LeagueFactory(season=season)
    outsider = Entry.objects.create(league=other, player=eligible_student(season))
    for kwargs, words in [
        ({"entry": entry, "quantity": -1}, "one or more"),
        ({"entry": entry, "quantity": 0}, "one or more"),
        ({"entry": outsider}, "is not in Corporate Challenge"),
    ]:
        with pytest.raises(assists.AssistError, match=words):
            assists.sale_record(actor=staff.user, league=league, item=item, **kwargs)
    assert not AssistSale.objects.exists()


def test_e5_a_void_needs_a_reason_keeps_the_sale_and_leaves_the_ledger(challenge, staff, director):
    league, _ = challenge
    entries = list(Entry.objects.filter(league=league).select_related("entrant__team"))
    item = AssistItem.objects.get(league=league, name="Q/Z/X word list")
    sales = [
        assists.sale_record(
            actor=staff.user,
            league=league,
            entry=entry,
            item=item,
            quantity=1 + i % 3,
            now=at_hour(league, 18, 40),
        )
        for i, entry in enumerate(entries)
    ]
    with pytest.raises(assists.AssistError, match="Say why"):
        assists.sale_void(actor=staff.user, sale=sales[0], reason="  ")
    assists.sale_void(actor=director.user, sale=sales[0], reason="Rang up twice")
    with pytest.raises(assists.AssistError, match="already void"):
        assists.sale_void(actor=staff.user, sale=sales[0], reason="again")
    kept = [sale for sale in sales[1:]]
    ledger = assists_read.ledger(league)
    assert ledger.total_cents == sum(sale.quantity * sale.unit_cents for sale in kept)
    by_team = {}
    for sale in kept:
        team = sale.entry.entrant.team.name
        by_team[team] = by_team.get(team, 0) + sale.cents
    assert dict(ledger.by_team) == by_team and ledger.by_round == [(1, ledger.total_cents)]
    voided = AssistSale.objects.get(pk=sales[0].pk)
    assert voided.void_reason == "Rang up twice" and voided.voided_by == director.user


def test_e5_the_sales_page_sells_in_two_taps_and_the_money_raised_is_public(
    challenge, client, player, staff
):
    league, _ = challenge
    url = reverse("event_assists", args=[at("challenge")])
    client.force_login(player.user)
    assert client.get(url).status_code == 404
    client.force_login(staff.user)
    page = client.get(url)
    assert page.status_code == 200 and b"Sell Ringer to" in page.content
    entry = Entry.objects.filter(league=league).first()
    item = AssistItem.objects.get(league=league, name="Ringer")
    response = client.post(
        url, {"entry": entry.pk, "item": item.pk, "quantity": "3", "at": "table-1"}
    )
    assert response.status_code == 302
    assert AssistSale.objects.get().quantity == 3
    bad = client.post(url, {"entry": entry.pk, "item": item.pk, "quantity": "-2"}, follow=True)
    assert b"a whole number" in bad.content and AssistSale.objects.count() == 1
    client.logout()
    document = client.get(reverse("event_json", args=[at("challenge")])).json()
    assert document["assists_cents"] == AssistSale.objects.get().cents
    board = client.get(reverse("event_leaderboard", args=[at("challenge")]))
    assert b"Raised for the charity" in board.content


def test_e5_money_is_formatted_from_whole_cents():
    assert [money(c) for c in (0, 5, 1250, 123456)] == [
        "$0.00",
        "$0.05",
        "$12.50",
        "$1,234.56",
    ]

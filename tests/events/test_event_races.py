"""Concurrency at the scoring table (E3): a card entered while the director pairs the round
again, on two database connections. Either the card lands and the re-pairing is refused, or
the re-pairing lands first and the card finds its table gone; never a card lost silently."""

import json
from datetime import timedelta

import pytest
from django.core.management import call_command

from events import services as events
from league.models import League, Round
from matches.models import Match, MatchStatus
from matches.services import card_enter
from tests.support import rounds_started, run_together


@pytest.fixture
def paired_fest(transactional_db, season, director, tmp_path):
    data = {
        "name": "Fest",
        "slug": "fest",
        "format": "event",
        "date": (season.starts_on + timedelta(days=10)).isoformat(),
    }
    path = tmp_path / "fest.json"
    path.write_text(json.dumps(data))
    call_command(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )
    entrants = tmp_path / "e.csv"
    entrants.write_text("name\n" + "".join(f"Entrant {i}\n" for i in range(1, 41)))
    call_command("import_entrants", str(entrants), "--league", "fest")
    call_command("pair_round", "--league", "fest", "--all-entrants")
    return rounds_started(League.objects.get(slug="fest"))


@pytest.mark.parametrize("attempt", range(5))
def test_e3_a_card_racing_a_re_pairing_is_never_lost(paired_fest, director, attempt):
    round_ = Round.objects.get(league=paired_fest, number=1)
    table = Match.objects.get(round=round_, table=1 + attempt)
    outcomes = run_together(
        lambda: card_enter(actor=director.user, match=table, scores=[400, 300]),
        lambda: events.pair_event_round(
            actor=director.user, round=round_, repair=True, seed=attempt
        ),
    )
    card, pairing = outcomes
    entered = Match.objects.filter(round=round_, status=MatchStatus.CONFIRMED)
    if isinstance(card, Match):
        # The card landed: the re-pairing must have been refused, and the card kept.
        assert isinstance(pairing, events.EventError) and "scores entered" in pairing.message
        assert entered.count() == 1 and entered.get().pk == table.pk
    else:
        # The re-pairing landed first: the card was refused, so the volunteer enters it again.
        assert isinstance(card, Match.DoesNotExist), card
        assert isinstance(pairing, events.RoundPaired) and not entered.exists()

"""A forgotten player leaves what they were still to play, as a withdrawal leaves it (P4, E1):
before the draw their place goes to the first waiting, after it their games left become
forfeits to their opponents; whatever way they were forgotten. What is over keeps them as it
was, and no mail is ever written to them (L8's notices included)."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from post_office.models import Email

from accounts import privacy
from accounts.services import profile_forget, profiles_forget
from core.tasks import deliverable
from league.models import Bracket, Entry, LeagueFormat, Standing, WaitlistEntry
from league.nightly import run_for_institution
from league.services import entry_withdraw, rounds_generate, waitlist_join
from matches.models import AuditEvent, Match, MatchStatus, Outcome
from tests.support import (
    LeagueFactory,
    confirmed_game,
    eligible_student,
    entrant,
    match_between,
)


def night(institution, day, capture):
    with capture(execute=True):
        return run_for_institution(institution=institution, today=day)


def draw(league, director):
    first_play_by = timezone.localdate() + timedelta(days=7)
    return rounds_generate(actor=director.user, league=league, first_play_by=first_play_by)


def written_to(address: str) -> list[Email]:
    return [email for email in Email.objects.all() if address in email.to]


def undeliverable_mail() -> list:
    """Whatever reached the outbox or the mail backend for an address that is no address."""
    written = [e.to for e in Email.objects.all() if not all(map(deliverable, e.to))]
    sent = [m.to for m in mail.outbox if not all(map(deliverable, m.to))]
    return written + sent


WAYS = ["their own account deletion", "the admin's forget action", "the nightly's retention"]


def forget(way: str, profile, *, director, client):
    """Forget `profile` the way a person is forgotten: from their profile, by the director in
    the admin, or by the set-based forgetting the nightly's retention runs (P5)."""
    if way == WAYS[0]:
        client.force_login(profile.user)
        response = client.post(reverse("profile_forget"), {"confirm": profile.user.email})
    elif way == WAYS[1]:
        client.force_login(director.user)
        response = client.post(
            reverse("admin:accounts_playerprofile_changelist"),
            {
                "action": "forget_on_request",
                "_selected_action": [profile.pk],
                "confirmed": "1",
                "reason": "Asked at the front desk, Nov 24",
            },
        )
    else:
        with transaction.atomic():
            profiles_forget([profile.pk], now=timezone.now())
        return
    assert response.status_code in (200, 302)


@pytest.mark.parametrize("way", WAYS)
def test_p4_e1_before_the_draw_a_forgotten_entrants_place_goes_to_the_first_waiting(
    way, league, season, director, client, django_capture_on_commit_callbacks
):
    league.capacity = 2
    league.save()
    casey, ada = entrant(league, first_name="Casey"), entrant(league, first_name="Ada")
    first, second = eligible_student(season), eligible_student(season)
    waitlist_join(actor=first.user, league=league)
    waitlist_join(actor=second.user, league=league)
    address = casey.user.email
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        forget(way, casey, director=director, client=client)

    gone = Entry.objects.get(league=league, player=casey)
    assert gone.withdrawn_at is not None and gone.withdrawn_reason == "Forgotten"
    active = Entry.objects.filter(league=league, withdrawn_at__isnull=True)
    assert set(active.values_list("player", flat=True)) == {ada.pk, first.pk}
    assert list(WaitlistEntry.objects.values_list("player", flat=True)) == [second.pk]
    given = [m for m in mail.outbox if "A place in Tuesday League is yours" in m.subject]
    assert [m.to for m in given] == [[first.user.email]]
    assert [m for m in mail.outbox if address in m.to] == [] and written_to(address) == []
    assert undeliverable_mail() == []


def test_p4_e1_after_the_draw_a_forgotten_players_games_left_become_forfeits_to_their_opponents(
    table, league, director, django_capture_on_commit_callbacks
):
    ada, bo, cy, di = table
    draw(league, director)
    ada_v_bo = Match.objects.filter(league=league, seats__player=ada).get(seats__player=bo)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(ada_v_bo, winner=ada, loser=bo, scores=(412, 377))
    address, former = ada.user.email, privacy.former_name(ada.pk)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        profile_forget(actor=ada.user, profile=ada)

    ada_v_bo.refresh_from_db()
    assert ada_v_bo.status == MatchStatus.CONFIRMED  # a game played stays as it was
    assert ada_v_bo.seats.get(player=ada).score == 412
    left = Match.objects.filter(league=league, seats__player=ada).exclude(pk=ada_v_bo.pk)
    assert {match.status for match in left} == {MatchStatus.FORFEIT}
    assert {(s.player_id, s.outcome) for m in left for s in m.seats.all()} == {
        (ada.pk, Outcome.FORFEIT_LOSS),
        (cy.pk, Outcome.FORFEIT_WIN),
        (di.pk, Outcome.FORFEIT_WIN),
    }
    events = AuditEvent.objects.filter(match__in=left, action="forfeit")
    assert {(e.actor_id, e.reason) for e in events} == {
        (ada.user.pk, f"{former} left Tuesday League.")
    }

    rows = {row.player_id: row for row in Standing.objects.filter(league=league)}
    assert (rows[ada.pk].withdrawn, rows[ada.pk].wins, rows[ada.pk].forfeits_lost) == (True, 1, 2)
    assert (rows[cy.pk].forfeits_won, rows[di.pk].forfeits_won) == (1, 1)
    assert (rows[bo.pk].withdrawn, rows[bo.pk].losses) == (False, 1)
    told = [m for m in mail.outbox if "Match decided by forfeit" in m.subject]
    assert sorted(m.to[0] for m in told) == sorted([cy.user.email, di.user.email])
    assert all(f"{former} left Tuesday League" in m.body and "Ada" not in m.body for m in told)
    assert [m for m in mail.outbox if address in m.to] == [] and written_to(address) == []
    assert undeliverable_mail() == []


@pytest.mark.parametrize("leaving", ["forgotten", "withdrawn by the director"])
def test_p4_e1_l11_a_bracket_game_drawn_after_a_player_left_goes_to_the_opponent(
    leaving, table, league, institution, season, director, django_capture_on_commit_callbacks
):
    """Ada won her semi-final and waits for the final; forgotten or withdrawn meanwhile, she
    has no open match to forfeit. The final, drawn when the other semi-final ends, goes at once
    to her opponent instead of waiting to become a double forfeit."""
    ada, bo, cy, di = table
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for seed, profile in enumerate([ada, bo, cy, di], start=1):
        Entry.objects.filter(league=league, player=profile).update(seed=seed)
    night(
        institution,
        season.registration_deadline + timedelta(days=1),
        django_capture_on_commit_callbacks,
    )
    bracket = Bracket.objects.get(league=league)
    ada_v_di, bo_v_cy = (
        slot.match for slot in bracket.slots.filter(round_index=0).order_by("position")
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(ada_v_di, winner=ada, loser=di)
        if leaving == "forgotten":
            profile_forget(actor=ada.user, profile=ada)
        else:
            entry = Entry.objects.get(league=league, player=ada)
            entry_withdraw(actor=director.user, entry=entry, reason="Moved away")
    assert not Entry.objects.get(league=league, player=ada).active
    ada.refresh_from_db()

    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(bo_v_cy, winner=bo, loser=cy)

    final = bracket.slots.get(round_index=1).match
    assert final.status == MatchStatus.FORFEIT
    assert final.seats.get(player=bo).outcome == Outcome.FORFEIT_WIN
    assert final.audit_events.get(action="forfeit").reason == f"{ada.name} left {league}."
    bracket.refresh_from_db()
    assert bracket.champion == bo


def test_p4_a_league_that_is_over_and_a_club_keep_a_forgotten_player_as_they_were(
    season, django_capture_on_commit_callbacks
):
    over = LeagueFactory(season=season, playoff_size=0)
    ada, bo = entrant(over, first_name="Ada"), entrant(over, first_name="Bo")
    game = match_between(over, ada, bo)
    club = LeagueFactory(season=season, format=LeagueFormat.CLUB)
    Entry.objects.create(league=club, player=ada)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(game, winner=ada, loser=bo)

    with django_capture_on_commit_callbacks(execute=True):
        profile_forget(actor=ada.user, profile=ada)

    assert Entry.objects.filter(player=ada, withdrawn_at__isnull=True).count() == 2
    row = Standing.objects.get(league=over, player=ada)
    assert (row.withdrawn, row.wins, row.losses) == (False, 1, 0)
    game.refresh_from_db()
    assert game.status == MatchStatus.CONFIRMED


def test_p4_l8_the_nightly_writes_no_mail_to_a_forgotten_player_still_seated(
    league, player, opponent, institution, django_capture_on_commit_callbacks
):
    """A player forgotten before forgetting freed their games still sits in them (the issue's
    "Former player 1408"): the night settles those games as L8 says and writes to the
    opponent; the double-forfeit notice and the reminder never go to the forgotten one."""
    profile_forget(actor=player.user, profile=player)
    player.refresh_from_db()
    player.email_reminders = True  # as if they had asked: the outbox still refuses them
    player.save(update_fields=["email_reminders"])
    overdue = match_between(league, player, opponent)
    day = overdue.deadline.astimezone(institution.tz).date()
    soon = match_between(league, player, opponent, play_by=day + timedelta(days=1))
    mail.outbox.clear()

    summary = night(institution, day, django_capture_on_commit_callbacks)

    overdue.refresh_from_db()
    assert summary.forfeits == 1 and overdue.status == MatchStatus.DOUBLE_FORFEIT
    notices = [m.to for m in mail.outbox if "Double forfeit" in m.subject]
    reminders = [m.to for m in mail.outbox if m.subject.startswith("[Scrabble league] Reminder")]
    assert notices == [[opponent.user.email]] and reminders == [[opponent.user.email]]
    assert all(
        privacy.former_name(player.pk) in m.body for m in mail.outbox if "Reminder" in m.subject
    )
    assert undeliverable_mail() == []
    soon.refresh_from_db()
    assert soon.status == MatchStatus.UNSCHEDULED

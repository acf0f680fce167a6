"""Match pages: thin views that parse a form, call one service, and show its message."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.models import PlayerProfile
from core import fragments, page_sections
from core.errors import DomainError

from . import policy, services
from .calendar import player_calendar
from .forms import (
    AcceptForm,
    ContactIssueForm,
    DisputeForm,
    EquipmentForm,
    ProposalForm,
    ReportForm,
)
from .game_records import board_after, stored_moves
from .models import ReportStatus, ScheduleProposal
from .placing import placings
from .policy import Action, MatchFacts
from .selectors import can_see_match, match_for_page, matches_of
from .services.kernel import local


def _match_for(request: HttpRequest, pk: int):
    """The match if this user may see it; 404 otherwise, so outsiders learn nothing."""
    match = match_for_page(pk)
    if match is None or not can_see_match(request.user, match):
        raise Http404
    return match


def _my_seat(request, match):
    return next(
        (seat for seat in match.seats.all() if seat.player.user_id == request.user.pk), None
    )


def _game(request, report, challenge_rule: str) -> dict | None:
    """The report's game record move by move, with the board after the move asked for in
    ``?move=`` (the final position by default): the moves (the dispute form offers them), the
    move shown, the disputed one, and ``html``, the record's section of the page, kept rendered
    under the record's text and everything else it shows (core/fragments.py)."""
    stored = stored_moves(report.game_record, challenge_rule) if report is not None else None
    if stored is None:
        return None
    record, listed = stored
    try:
        shown = int(request.GET.get("move", len(listed)))
    except ValueError:
        shown = len(listed)
    shown = max(0, min(shown, len(listed)))
    disputes = report.disputes.all() if report.status == ReportStatus.DISPUTED else []
    dispute = next((each for each in disputes if each.move), None)
    disputed_move = dispute.move if dispute else None
    game_open = "move" in request.GET

    def section() -> str:
        rows, _ = board_after(record, shown)
        game = {
            "players": record.players,
            "moves": listed,
            "shown": shown,
            "current": listed[shown - 1] if shown else None,
            "rows": rows,
            "columns": "ABCDEFGHIJKLMNO",
            "previous": shown - 1 if shown > 0 else None,
            "next": shown + 1 if shown < len(listed) else None,
            "note": report.game_record_note,
            "disputed_move": disputed_move,
            "problem_count": sum(len(move.problems) for move in listed),
        }
        return render_to_string("matches/_game.html", {"game": game, "game_open": game_open})

    key = {
        "record": report.game_record,
        "challenge_rule": challenge_rule or "",
        "shown": shown,
        "note": report.game_record_note,
        "disputed_move": disputed_move,
        "open": game_open,
    }
    return {
        "moves": listed,
        "shown": shown,
        "disputed_move": disputed_move,
        "html": fragments.kept("matches/_game.html", key, section),
    }


# Audit actions that are the director's (or the nightly job's) decision about the match.
RULING_ACTIONS = {
    "forfeit",
    "double_forfeit",
    "replay_ordered",
    "result_recorded",
    "report_upheld",
    "deadline_extended",
}


def _agreed_time_to_come(match, now) -> str:
    """The agreed time, worded, while it is still to come (the report form then asks whether
    the game was played earlier); empty otherwise."""
    if match.scheduled_at is None or match.scheduled_at <= now:
        return ""
    return local(match, match.scheduled_at)


def _render(request, match, status=200, **forms):
    tz = match.league.season.institution.tz
    seat = _my_seat(request, match)
    proposal = match.open_proposals[0] if match.open_proposals else None
    report = match.live_reports[0] if match.live_reports else None
    now = timezone.now()
    # The live report's game record; once a director's ruling has decided the match (and
    # superseded its reports), the record of the newest report that carried one. A match
    # reopened for a replay shows none: that game no longer counts.
    recorded = report
    if report is None and match.is_final:
        recorded = next((r for r in match.all_reports if r.game_record), None)
    game = _game(request, recorded, match.league.challenge_rule)
    open_issue = next((i for i in match.contact_issues.all() if i.resolved_at is None), None)
    seats = list(match.seats.all())
    lines = list(report.scores.all()) if report else []
    answered = {
        each.player_id for each, line in zip(seats, lines, strict=False) if line.confirmed_at
    }
    answered |= {dispute.raised_by_id for dispute in report.disputes.all()} if report else set()
    scorekeeper = services.scorekeeper_seat(match, seats)
    facts = MatchFacts(
        status=match.status,
        deadline=match.deadline,
        proposal_by=proposal.proposed_by_id if proposal else None,
        report_status=report.status if report else None,
        report_by=report.submitted_by_id if report else None,
        report_confirm_by=report.confirm_by if report else None,
        waiting_on_director=open_issue is not None,
        scorekeeper=scorekeeper.player_id if scorekeeper else None,
        answered=frozenset(answered | ({report.submitted_by_id} if report else set())),
        cards_only=match.league.cards_only,
    )

    def may(action):
        return seat is not None and policy.may(action, facts, seat.player_id, now)

    events = list(match.audit_events.all())
    # A director's decision, shown first: the newest ruling that still stands.
    ruling = next((event for event in reversed(events) if event.action in RULING_ACTIONS), None)
    scheduled_later = match.scheduled_at is not None and match.scheduled_at > now
    step = (
        policy.next_step(
            facts,
            seat.player_id,
            now,
            scheduled_at=match.scheduled_at,
            my_outcome=seat.outcome,
        )
        if seat is not None
        else None
    )

    context = {
        "match": match,
        "league": match.league,
        "seats": seats,
        "placings": placings(seats),
        "report_lines": [
            {"seat": each, "line": line, "answered": each.player_id in answered}
            for each, line in zip(seats, lines, strict=False)
        ],
        "disputes": list(report.disputes.all()) if report else [],
        "scorekeeper": scorekeeper,
        "my_seat": seat,
        "tz": tz,
        "proposal": proposal,
        "report": report,
        "can_propose": may(Action.PROPOSE),
        "can_accept": may(Action.ACCEPT),
        "can_report": may(Action.REPORT),
        "can_confirm": may(Action.CONFIRM),
        "can_dispute": may(Action.DISPUTE),
        "can_take_back": may(Action.TAKE_BACK),
        "step": step,
        "ruling": ruling,
        # The report form leads when the game is due or played; before that it waits behind
        # "Already played?".
        "report_first": match.scheduled_at is not None and not scheduled_later,
        "can_report_contact": may(Action.REPORT_CONTACT),
        "can_agree_equipment": may(Action.AGREE_EQUIPMENT),
        "i_agreed_equipment": seat is not None and seat.player_id in match.equipment_agreed_by,
        "open_contact_issue": open_issue,
        "is_director": services.is_match_director(request.user, match),
        "events": events,
        "proposal_form": forms.get("proposal_form") or ProposalForm(tz=tz),
        "accept_form": forms.get("accept_form")
        or (AcceptForm(proposal=proposal, tz=tz) if proposal else None),
        "report_form": forms.get("report_form")
        or ReportForm(
            seats=seats,
            me=seat,
            scheduled_later=_agreed_time_to_come(match, now),
        ),
        "dispute_form": forms.get("dispute_form")
        or DisputeForm(seats=seats, me=seat, moves=game["moves"] if game else ()),
        "game": game,
        "contact_form": forms.get("contact_form") or ContactIssueForm(),
        "equipment_form": forms.get("equipment_form") or EquipmentForm(),
        "past_deadline": now > match.deadline,
        # What apps above matches add (core.page_sections): the rating changes, R1.
        "sections": page_sections.sections_of("match", match, seats),
    }
    return render(request, "matches/match_detail.html", context, status=status)


@login_required
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _render(request, _match_for(request, pk))


def _act(request, match, form_name, form, call, success):
    """Run one service call for a bound form; re-render with errors, or redirect with a message."""
    if form.is_valid():
        try:
            call(form)
        except DomainError as error:
            # Shown at the top too: the form itself may be hidden in the match's new state.
            form.add_error(None, error.message)
            messages.error(request, error.message)
        else:
            messages.success(request, success)
            return redirect(match)
    else:
        messages.error(request, "Nothing was changed: see the form below.")
    return _render(request, _match_for(request, match.pk), **{form_name: form})


@login_required
@require_POST
def match_propose(request, pk):
    match = _match_for(request, pk)
    form = ProposalForm(request.POST, tz=match.league.season.institution.tz)
    return _act(
        request,
        match,
        "proposal_form",
        form,
        lambda f: services.proposal_create(actor=request.user, match=match, times=f.times()),
        "Times proposed: your opponent has been e-mailed.",
    )


@login_required
@require_POST
def match_accept(request, pk, proposal_id):
    match = _match_for(request, pk)
    proposal = get_object_or_404(ScheduleProposal, pk=proposal_id, match=match)
    form = AcceptForm(request.POST, proposal=proposal, tz=match.league.season.institution.tz)
    return _act(
        request,
        match,
        "accept_form",
        form,
        lambda f: services.proposal_accept(
            actor=request.user, proposal=proposal, starts_at=f.chosen()
        ),
        "Match scheduled: your opponent has been e-mailed.",
    )


@login_required
@require_POST
def match_equipment(request, pk):
    match = _match_for(request, pk)
    return _act(
        request,
        match,
        "equipment_form",
        EquipmentForm(request.POST),
        lambda f: services.equipment_agree(
            actor=request.user, match=match, description=f.cleaned_data["description"]
        ),
        "Recorded: it holds once every player has agreed.",
    )


@login_required
@require_POST
def match_cant_reach(request, pk):
    match = _match_for(request, pk)
    return _act(
        request,
        match,
        "contact_form",
        ContactIssueForm(request.POST),
        lambda f: services.contact_issue_report(
            actor=request.user, match=match, attempts=f.cleaned_data["attempts"]
        ),
        "The director has your report and will decide this match.",
    )


@login_required
@require_POST
def match_report(request, pk):
    match = _match_for(request, pk)
    seats = list(match.seats.all())
    return _act(
        request,
        match,
        "report_form",
        ReportForm(
            request.POST,
            request.FILES,
            seats=seats,
            me=_my_seat(request, match),
            scheduled_later=_agreed_time_to_come(match, timezone.now()),
        ),
        lambda f: services.report_submit(actor=request.user, match=match, **f.by_seat()),
        "Result reported: the other players have been asked to confirm it.",
    )


def _live_report(match, report_id):
    report = next((r for r in match.live_reports if r.pk == report_id), None)
    if report is None:
        raise Http404
    return report


@login_required
@require_POST
def match_confirm(request, pk, report_id):
    match = _match_for(request, pk)
    report = _live_report(match, report_id)
    try:
        services.report_confirm(actor=request.user, report=report)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Confirmed. Thanks!")
    return redirect(match)


@login_required
@require_POST
def match_take_back(request, pk, report_id):
    match = _match_for(request, pk)
    report = _live_report(match, report_id)
    try:
        services.report_take_back(actor=request.user, report=report)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Your report is taken back: report the result again.")
    return redirect(match)


@login_required
@require_POST
def match_dispute(request, pk, report_id):
    match = _match_for(request, pk)
    report = _live_report(match, report_id)
    stored = stored_moves(report.game_record, match.league.challenge_rule)
    form = DisputeForm(
        request.POST,
        seats=list(match.seats.all()),
        me=_my_seat(request, match),
        moves=stored[1] if stored else (),
    )
    return _act(
        request,
        match,
        "dispute_form",
        form,
        lambda f: services.report_dispute(actor=request.user, report=report, **f.by_seat()),
        "Dispute sent: the director will rule on it, and every player will be e-mailed.",
    )


def player_calendar_feed(request: HttpRequest, token) -> HttpResponse:
    """A player's .ics feed; the secret token in the URL is the only key (calendar apps can't log in)."""
    found = PlayerProfile.objects.select_related("user", "institution")
    profile = get_object_or_404(found, calendar_token=token)
    body = player_calendar(profile, matches_of(profile), timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="scrabble.ics"'
    return response

"""An entrant's slip on a phone (S4): ``/slip/<token>/`` (the slip's QR code) remembers the
entrant on the phone that opened it, and ``/slip/`` takes the slip's code where a phone cannot
scan. Neither address names a league; opening one signs nobody in. The phone's memory is a
signed cookie of the slips' tokens, kept until the day after the event."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts import privacy
from accounts.services import export_record
from core.actions import posted_from
from core.errors import DomainError
from events import printables
from events.models import CodeAttempt, EntrantSlip, event_of_league
from events.services import live_slip, slip_print_again, slips_of
from events.slips import CODE_WINDOW, WRONG_CODES_PER_DEVICE, shown_code
from events.views.access import entry_from, staff_event_of
from events.views.phone import device_of, keep_device, remember, remembered_tokens
from league.addresses import LeagueAddress
from league.models import Entry
from league.names import NamesAt, name_style


def _known_here(request: HttpRequest) -> list[EntrantSlip]:
    return list(
        EntrantSlip.objects.filter(token__in=remembered_tokens(request), revoked_at=None)
        .select_related("entry__player__user", "entry__league__season__institution")
        .order_by("-created_at")
    )


def slip_page(request: HttpRequest, token: str) -> HttpResponse:
    """The slip's link: this phone remembers its entrant from now on."""
    slip = live_slip(token=token)
    if slip is None:
        if EntrantSlip.objects.filter(token=token).exists():
            return render(request, "events/slip_gone.html", status=410)
        raise Http404
    response = _slip_response(request, slip)
    return remember(request, response, slip)


def _slip_response(request: HttpRequest, slip: EntrantSlip) -> HttpResponse:
    entry = slip.entry
    league = entry.league
    known = [each for each in _known_here(request) if each.pk != slip.pk]
    names = NamesAt(name_style(request.user, league), {entry.player_id: entry.player_number})
    return render(
        request,
        "events/slip.html",
        {
            "slip": slip,
            "entry": entry,
            "league": league,
            "name": names.of(entry.player),
            "others": [
                NamesAt(
                    name_style(request.user, each.entry.league),
                    {each.entry.player_id: each.entry.player_number},
                ).of(each.entry.player)
                for each in known
                if each.entry.league_id == league.pk
            ],
        },
    )


class SlipCodeForm(forms.Form):
    code = forms.CharField(
        label="The code on your slip",
        max_length=20,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


def slip_code(request: HttpRequest) -> HttpResponse:
    """A slip's code typed where the phone cannot scan its link: limited per phone (a whole
    hall shares one address), every attempt kept (S4)."""
    device = device_of(request)
    form = SlipCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        now = timezone.now()
        wrong = CodeAttempt.objects.filter(device=device, ok=False, at__gte=now - CODE_WINDOW)
        if wrong.count() >= WRONG_CODES_PER_DEVICE:
            form.add_error(
                None,
                "Too many wrong codes from this phone: ask at the door, or try again in a few "
                "minutes.",
            )
        else:
            slip = live_slip(code=form.cleaned_data["code"])
            CodeAttempt.objects.create(
                league=slip.entry.league if slip else None,
                entry=slip.entry if slip else None,
                device=device[:40],
                ok=slip is not None,
                action="slip",
                at=now,
            )
            if slip is None:
                form.add_error(
                    "code",
                    "That is not the code of a slip: check it (a slip printed again has a new "
                    "code).",
                )
            else:
                response = redirect("slip_page", token=slip.token)
                return keep_device(request, remember(request, response, slip))
    status = 400 if form.errors else 200
    return keep_device(
        request, render(request, "events/slip_code.html", {"form": form}, status=status)
    )


# --- The door's side: printing the slips -----------------------------------------------------------


def _printed(slip: EntrantSlip, entry, league) -> printables.EntrantSlipPrint:
    return printables.EntrantSlipPrint(
        event=league.name,
        date=event_of_league(league).date,
        number=entry.player_number,
        # Handed to the entrant; a withheld one is their number, as on the cards (P2).
        name=entry.player.name_in(privacy.FULL, entry.player_number),
        url=settings.SITE_URL + reverse("slip_page", args=[slip.token]),
        code=shown_code(slip.code),
    )


@login_required
def entrant_slips(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """The entrants' slips as a PDF for the door (S4): every entrant's, eight a page to cut
    apart, or one entrant's (`?number=N`, printed as they check in). Each slip is made the
    first time it is asked for; printing it again shows the same slip (a lost one is made anew
    with "print a new slip"). A download of personal data, recorded (P6)."""
    league = staff_event_of(request, address)
    entries = list(
        league.entries.filter(withdrawn_at=None, player_number__isnull=False)
        .select_related("player__user")
        .order_by("player_number")
    )
    number = request.GET.get("number", "")
    if number:
        entries = [entry for entry in entries if str(entry.player_number) == number]
        if not entries:
            raise Http404
    slips = slips_of(entries)
    printed = [_printed(slips[entry.pk], entry, league) for entry in entries]
    paper = "a4" if request.GET.get("paper") == "a4" else "letter"
    with timezone.override(league.season.institution.tz):
        pdf = printables.entrant_slips_pdf(printed, settings.SITE_URL + reverse("slip_code"), paper)
    export_record(
        institution=league.season.institution,
        actor=request.user,
        what="slips.pdf",
        subject=league.name if not number else f"{league.name}, No. {number}",
        rows=len(printed),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{league.slug}-slips.pdf"'
    return response


@login_required
@posted_from("event_desk")
def entrant_slip_again(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """A lost slip: a new one for the entrant; the old link and code stop working on every
    phone. The door prints it at once."""
    league = staff_event_of(request, address)
    try:
        entry = entry_from(league, request.POST.get("player", ""))
        slip_print_again(actor=request.user, entry=entry)
    except DomainError as error:
        messages.error(request, error.message)
        return redirect("event_desk", league)
    messages.success(
        request, f"A new slip for No. {entry.player_number}: the old one no longer works."
    )
    return redirect(reverse("event_slips", args=[league]) + f"?number={entry.player_number}")


def my_slips_part(request: HttpRequest, profile) -> str:
    """A student's own slips on their home page (S4): one for each of today's and coming events
    with self-entry where they have a number, to open on their phone or read the code off.
    Three queries, whatever their number (one more the first time, to make missing slips)."""
    entries = list(
        Entry.objects.filter(
            player=profile,
            withdrawn_at=None,
            player_number__isnull=False,
            league__event__self_entry=True,
            league__event__date__gte=profile.institution.today(),
        )
        .select_related("league__event", "league__season__institution")
        .order_by("league__event__date", "league__name")
    )
    if not entries:
        return ""
    slips = slips_of(entries)
    rows = [
        {"league": entry.league, "slip": slips[entry.pk], "code": shown_code(slips[entry.pk].code)}
        for entry in entries
        if entry.pk in slips
    ]
    return render_to_string("events/_my_slips.html", {"rows": rows}, request=request)

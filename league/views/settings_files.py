"""A league's settings file on the web (E3, E4): the director sets up an event or a club by
uploading the file `create_event` reads, and downloads a league's file back for next year."""

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts import roles
from core.errors import DomainError

from .. import formats
from ..addresses import LeagueAddress
from ..file_schema import MAX_BYTES, parse_league_file
from ..models import League
from ..settings_files import LeagueSlugTaken, league_file_export, league_file_save
from .director import _director_institution

UPDATE_LABEL = "Change the existing event or club of that slug"


class SettingsFileForm(forms.Form):
    season = forms.ModelChoiceField(label="Season", queryset=None)
    file = forms.FileField(label="Settings file (JSON, as create_event reads it)")
    update = forms.BooleanField(label=UPDATE_LABEL, required=False)

    def __init__(self, *args, institution, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = institution.seasons.order_by("-starts_on")


@login_required
def league_file_setup(request: HttpRequest) -> HttpResponse:
    """The director sets up an event or a club from its settings file (the same file
    `create_event` reads and `settings.json` gives back), e.g. last year's, re-dated."""
    institution = _director_institution(request)
    form = SettingsFileForm(request.POST or None, request.FILES or None, institution=institution)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            # Read no further than the limit: the file's declared size is the sender's word.
            league, changed = league_file_save(
                actor=request.user,
                season=form.cleaned_data["season"],
                data=parse_league_file(upload.read(MAX_BYTES + 1)),
                update=form.cleaned_data["update"],
            )
        except LeagueSlugTaken as error:
            form.add_error("file", f"{error.message} To change it, tick “{UPDATE_LABEL}”.")
        except DomainError as error:
            form.add_error("file", error.message)
        else:
            messages.success(request, f"{league.name} {'saved' if changed else 'is unchanged'}.")
            return redirect(league)
    return render(request, "league/settings_file_setup.html", {"form": form})


@login_required
def league_setup_form(request: HttpRequest, kind: str) -> HttpResponse:
    """The director sets up an event or a club by form: every key of its settings file with
    its default, saved through the same check and saver as the upload."""
    institution = _director_institution(request)
    spec = formats.of(kind)
    if spec.setup_form is None:
        raise Http404
    form = spec.setup_form(request.POST or None, institution=institution)
    if request.method == "POST" and form.is_valid():
        data = form.settings_file()  # a list line that cannot be read becomes a field error
        if not form.errors:
            try:
                league, _ = league_file_save(
                    actor=request.user, season=form.cleaned_data["season"], data=data
                )
            except LeagueSlugTaken:
                slug = data["slug"]
                form.add_error(
                    "slug", f"Your campus already has a league {slug!r}: choose another address."
                )
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, f"{league.name} is set up.")
                return redirect(league)
    return render(
        request,
        "league/setup_form.html",
        {"form": form, "kind": kind, "what": spec.setup_name},
        status=200,
    )


@login_required
def league_settings_file(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """The event's (or club's) settings file to save for next year."""
    league = get_object_or_404(League.objects.at(address).select_related("season__institution"))
    if not roles.is_director_of(request.user, league.season.institution):
        raise Http404
    if formats.of(league.format).settings_file_export is None:
        raise Http404
    document = league_file_export(league)
    response = HttpResponse(json.dumps(document, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}.json"'
    return response

from allauth.account.models import EmailAddress
from allauth.account.views import SignupView
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from core import page_sections
from core.actions import posted_from
from core.compiled import CompiledQuery
from core.errors import DomainError

from . import picked, privacy, roles
from .campus_ids import normalize_campus_id
from .errors import CampusIdTaken
from .forms import CampusIdLookupForm, IdCheckForm, LendForm, NameForm, PreferencesForm
from .models import Checkout, IdCheck, PlayerProfile
from .picked import front_desk_institution
from .selectors import (
    available_items,
    current_season,
    eligibility_of,
    next_step_for,
    open_checkouts,
)
from .services import (
    calendar_token_rotate,
    equipment_check_in,
    equipment_check_out,
    id_check_record,
    name_change,
    name_withhold,
    preferences_update,
    profile_forget,
    sign_in_link_find,
    sign_in_link_redeem,
)
from .services.sign_in import LINK_SPENT


class CampusSignupView(SignupView):
    """allauth's signup page, where a campus ID taken by a signup that finished between this
    form's check and its save is the form's message, as when it was taken earlier."""

    def form_valid(self, form):
        try:
            return super().form_valid(form)
        except CampusIdTaken as error:
            form.add_error("campus_id", error.message)
            return self.form_invalid(form)


signup = CampusSignupView.as_view()


def _own_profile_query(user_id: int):
    pending = (
        EmailAddress.objects.filter(user=OuterRef("user"), verified=False)
        .exclude(email=OuterRef("user__email"))
        .order_by("-pk")
    )
    return (
        PlayerProfile.objects.select_related("institution", "user")
        .annotate(pending_email=Subquery(pending.values("email")[:1]))
        .filter(user_id=user_id)[:1]
    )


OWN_PROFILE = CompiledQuery(_own_profile_query, user_id=int)


def _own_profile(user) -> PlayerProfile:
    """The signed-in person's profile, with the address they are changing to (allauth's pending
    one, as `EmailAddress.objects.get_new` finds it) in the same query: `pending_email`; 404
    for someone without one."""
    profile = OWN_PROFILE.first(user_id=user.pk) if user.is_authenticated else None
    if profile is None:
        raise Http404
    return profile


# The front desk's reads, written once per process (core.compiled).
OPEN_CHECKOUTS = CompiledQuery(open_checkouts, institution=int)
STUDENT_BY_CAMPUS_ID = CompiledQuery(
    lambda institution_id, campus_id: PlayerProfile.objects.select_related(
        "user", "institution"
    ).filter(institution_id=institution_id, campus_id=campus_id),
    institution_id=int,
    campus_id=str,
)
LAST_ID_CHECKS = CompiledQuery(
    lambda profile_id: IdCheck.objects.filter(profile_id=profile_id).select_related(
        "season", "checked_by"
    )[:3],
    profile_id=int,
)
AVAILABLE_ITEMS = CompiledQuery(available_items, institution=int)


@login_required
def front_desk(request: HttpRequest) -> HttpResponse:
    """Look a student up by campus ID, typed or scanned (a scanner types the ID and presses Enter)."""
    institution = front_desk_institution(request)
    season = current_season(institution)
    form = CampusIdLookupForm(request.GET or None)
    out_now = OPEN_CHECKOUTS.all(institution=institution.pk)
    now = timezone.now()
    context = {
        "form": form,
        "doors": picked.todays_doors(request, institution),  # an event's door on its day
        "institution": institution,
        "season": season,
        "out_now": out_now,
        "overdue": [c for c in out_now if c.due_at < now],
    }
    if form.is_valid():
        campus_id = normalize_campus_id(form.cleaned_data["campus_id"])
        student = STUDENT_BY_CAMPUS_ID.first(institution_id=institution.pk, campus_id=campus_id)
        context["searched"] = campus_id
        if student:
            eligibility = eligibility_of(student, season) if season else None
            lend_form = LendForm(institution=institution)
            # The items read once, for the choice and for whether there is any to lend: the
            # field's own choices would read them again at each use.
            items = AVAILABLE_ITEMS.all(institution=institution.pk)
            lend_form.fields["item"].widget.choices = [
                ("", lend_form.fields["item"].empty_label),
                *((item.pk, str(item)) for item in items),
            ]
            context.update(
                student=student,
                eligibility=eligibility,
                id_check_form=IdCheckForm(initial={"season": season}, institution=institution)
                if season
                else None,
                last_checks=LAST_ID_CHECKS.all(profile_id=student.pk),
                student_checkouts=[c for c in out_now if c.profile_id == student.pk],
                lend_form=lend_form if items else None,
            )
        # A fresh, empty box for the next scan.
        context["form"] = CampusIdLookupForm()
    return render(request, "accounts/front_desk.html", context)


@login_required
@require_POST
def front_desk_id_check(request: HttpRequest, profile_id: int) -> HttpResponse:
    institution = front_desk_institution(request)
    student = get_object_or_404(
        PlayerProfile.objects.select_related("user", "institution"),
        pk=profile_id,
        institution=institution,
    )
    form = IdCheckForm(request.POST, institution=institution)
    lookup = reverse("front_desk") + f"?campus_id={student.campus_id}"
    if not form.is_valid():
        messages.error(
            request,
            "The ID check was not recorded: "
            + " ".join(form.errors.get("season", ["check the form"])),
        )
        return redirect(lookup)
    try:
        eligibility = id_check_record(
            actor=request.user,
            profile=student,
            season=form.cleaned_data["season"],
            note=form.cleaned_data["note"],
        )
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(lookup)
    if eligibility.status == "eligible":
        messages.success(
            request,
            f"Picture ID recorded: {student.user} is eligible for {eligibility.season.name}.",
        )
    else:
        messages.warning(
            request,
            f"Picture ID recorded, but the director has ruled {student.user} {eligibility.get_status_display().lower()}"
            f" for {eligibility.season.name}: {eligibility.reason}",
        )
    return redirect(lookup)


@login_required
@require_POST
def front_desk_lend(request: HttpRequest, profile_id: int) -> HttpResponse:
    institution = front_desk_institution(request)
    student = get_object_or_404(
        PlayerProfile.objects.select_related("user"), pk=profile_id, institution=institution
    )
    form = LendForm(request.POST, institution=institution)
    if not form.is_valid():
        messages.error(request, "Pick an item that is not already out.")
    else:
        try:
            checkout = equipment_check_out(
                actor=request.user, item=form.cleaned_data["item"], profile=student
            )
        except DomainError as error:
            messages.error(request, error.message)
        else:
            due = timezone.localtime(checkout.due_at, institution.tz).strftime("%-I:%M %p")
            messages.success(request, f"{checkout.item} lent to {student.user}, due back by {due}.")
    return redirect(reverse("front_desk") + f"?campus_id={student.campus_id}")


@login_required
@require_POST
def front_desk_return(request: HttpRequest, checkout_id: int) -> HttpResponse:
    institution = front_desk_institution(request)
    checkout = get_object_or_404(
        Checkout.objects.select_related("item", "profile__user"),
        pk=checkout_id,
        item__institution=institution,
    )
    try:
        equipment_check_in(actor=request.user, checkout=checkout)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{checkout.item} checked in from {checkout.profile.name}.")
    return redirect(
        request.POST.get("next")
        if request.POST.get("next", "").startswith("/desk/")
        else "front_desk"
    )


@login_required
def profile_page(request: HttpRequest) -> HttpResponse:
    """Name and e-mail address, campus ID, eligibility and what to do about it, e-mail
    preferences, the calendar link."""
    profile = _own_profile(request.user)
    is_staff_member = roles.is_front_desk_of(request.user, profile.institution)
    form = PreferencesForm(request.POST or None, instance=profile, staff=is_staff_member)
    if request.method == "POST" and form.is_valid():
        preferences_update(actor=request.user, profile=profile, **form.cleaned_data)
        messages.success(request, "Your e-mail preferences are saved.")
        return redirect("profile")
    return _render_profile(request, profile, preferences_form=form)


@login_required
@posted_from("profile")
def profile_name(request: HttpRequest) -> HttpResponse:
    """One's own name; a refused one shows on the profile with what is wrong, nothing saved."""
    profile = _own_profile(request.user)
    form = NameForm(request.POST)
    if form.is_valid():
        try:
            name_change(actor=request.user, user=request.user, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Your name is now {request.user.get_full_name()}.")
            return redirect("profile")
    return _render_profile(request, profile, name_form=form)


# How the profile says who else reads a student's name (P1), by the institution's setting.
PUBLIC_WORDS = {
    privacy.FULL: "anyone else sees it too",
    privacy.SHORT: "anyone else sees your first name and last initial",
    privacy.NUMBER: "anyone else sees only your player number",
}


@login_required
@require_POST
def profile_privacy(request: HttpRequest) -> HttpResponse:
    """A student withholds their name, or shows it again (P2)."""
    profile = _own_profile(request.user)
    withhold = request.POST.get("withhold") == "1"
    name_withhold(actor=request.user, profile=profile, withhold=withhold)
    if withhold:
        messages.success(
            request,
            f"Your name is withheld: others see you as {privacy.anonymous_name(profile.pk)}.",
        )
    else:
        messages.success(request, "Your name shows again on standings and brackets.")
    return redirect("profile")


@login_required
@require_POST
def profile_forget_view(request: HttpRequest) -> HttpResponse:
    """A student deletes their account (P4): typing their address confirms it; they are logged
    out and told what stays."""
    profile = _own_profile(request.user)
    typed = request.POST.get("confirm", "").strip().lower()
    if typed != request.user.email.lower():
        return _render_profile(
            request,
            profile,
            forget_error="Type your e-mail address exactly as shown to delete your account.",
            status=400,
        )
    context = {"former_name": privacy.former_name(profile.pk)}
    try:
        profile_forget(actor=request.user, profile=profile, reason="their own request")
    except DomainError as error:  # forgotten since this page was sent: it says when
        context["refusal"] = error.message
    logout(request)
    status = 409 if "refusal" in context else 200
    return render(request, "accounts/forgotten.html", context, status=status)


def _render_profile(
    request: HttpRequest,
    profile: PlayerProfile,
    *,
    preferences_form: PreferencesForm | None = None,
    name_form: NameForm | None = None,
    forget_error: str = "",
    status: int = 200,
) -> HttpResponse:
    season = current_season(profile.institution)
    eligibility = eligibility_of(profile, season) if season else None
    if preferences_form is None:
        staff = roles.is_front_desk_of(request.user, profile.institution)
        preferences_form = PreferencesForm(instance=profile, staff=staff)
    if name_form is None:
        user = profile.user
        name_form = NameForm(initial={"first_name": user.first_name, "last_name": user.last_name})
    # From SITE_URL, as every link that leaves the page (a calendar app keeps it for months).
    feed = settings.SITE_URL + reverse("player_calendar", args=[profile.calendar_token])
    return render(
        request,
        "accounts/profile.html",
        {
            "profile": profile,
            "season": season,
            "eligibility": eligibility,
            "next_step": next_step_for(eligibility) if eligibility else "",
            "form": preferences_form,
            "name_form": name_form,
            "anonymous_name": privacy.anonymous_name(profile.pk),
            "former_name": privacy.former_name(profile.pk),
            "forget_error": forget_error,
            "public_words": PUBLIC_WORDS[profile.institution.public_names],
            "calendar_url": feed,
            # Calendar apps subscribe to a webcal:// link in one tap; the https one is to copy.
            "webcal_url": "webcal://" + feed.split("://", 1)[-1] if feed else "",
            "profile_sections": page_sections.sections_of("profile", profile),
        },
        status=status,
    )


@login_required
@require_POST
def calendar_rotate(request: HttpRequest) -> HttpResponse:
    profile = _own_profile(request.user)
    calendar_token_rotate(actor=request.user, profile=profile)
    messages.success(
        request, "Your calendar link is new: the old one no longer works. Update your calendar app."
    )
    return redirect("profile")


def sign_in_with_link(request: HttpRequest, token: str) -> HttpResponse:
    """A one-time sign-in link (a volunteer's invitation). Opening it only asks "sign in as …?":
    mail scanners open links to check them, and must not spend it; the button signs in."""
    if request.method == "POST":
        try:
            link = sign_in_link_redeem(token=token)
        except DomainError as error:
            return render(
                request, "account/sign_in_link.html", {"spent": error.message}, status=410
            )
        login(request, link.user, backend="accounts.backends.ProfileAuthenticationBackend")
        messages.success(request, f"Logged in as {link.user.email}.")
        safe = url_has_allowed_host_and_scheme(link.next_path, allowed_hosts=None)
        return redirect(link.next_path if link.next_path and safe else "home")
    link = sign_in_link_find(token)
    if link is None:
        return render(request, "account/sign_in_link.html", {"spent": LINK_SPENT}, status=410)
    institution = link.user.institution
    with timezone.override(institution.tz if institution else timezone.get_current_timezone()):
        return render(request, "account/sign_in_link.html", {"link": link})

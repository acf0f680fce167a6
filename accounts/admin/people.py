"""Institutions and the people in them: users with their roles (granted and revoked through
the services), player profiles with the pending-eligibility queue."""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from core.admin import InstitutionScopedAdmin
from core.errors import DomainError, NotAllowed

from .. import privacy, roles
from ..forms import CampusIdAdminForm, InstitutionAdminForm
from ..models import (
    Institution,
    PlayerProfile,
    User,
)
from ..picked import institution_at_work
from ..selectors import current_season, pending_students
from ..services import forget_refusal, profile_forget, role_grant, role_revoke


@admin.register(Institution)
class InstitutionAdmin(InstitutionScopedAdmin):
    institution_path = "pk"
    form = InstitutionAdminForm
    list_display = ["name", "slug", "email_domains", "campus_id_hint", "timezone"]
    prepopulated_fields = {"slug": ["name"]}

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            # A domain decides whose students sign up where: a director adding another
            # institution's domain would capture its signups.
            fields.append("email_domains")
        return fields


class PlayerProfileInline(admin.StackedInline):
    model = PlayerProfile
    form = CampusIdAdminForm
    can_delete = False
    fk_name = "user"
    exclude = ["display_name", "email"]  # a guest's fields: a user's name and address are above

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "institution" and not request.user.is_superuser:
            kwargs["queryset"] = Institution.objects.filter(
                pk=roles.institution_of(request.user).pk
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(User)
class UserAdmin(InstitutionScopedAdmin, DjangoUserAdmin):
    institution_path = "profile__institution_id"
    ordering = ["last_name", "first_name"]
    list_display = ["email", "first_name", "last_name", "campus_id", "roles", "is_active"]
    list_filter = ["groups", "is_active", "is_staff"]
    search_fields = ["email", "first_name", "last_name", "profile__campus_id"]
    list_select_related = ["profile"]
    inlines = [PlayerProfileInline]
    actions = ["grant_front_desk", "revoke_front_desk", "grant_director", "revoke_director"]
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Name", {"fields": ("first_name", "last_name")}),
        ("Access", {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "first_name", "last_name", "password1", "password2"),
            },
        ),
    )
    readonly_fields = ["last_login", "date_joined"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("groups")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            # Roles change only through the actions below, which check who may grant what.
            fields += ["is_staff", "is_superuser", "groups"]
        return fields

    @admin.display(description="Campus ID")
    def campus_id(self, user):
        profile = getattr(user, "profile", None)
        return profile.campus_id if profile else ""

    @admin.display(description="Roles")
    def roles(self, user):
        return ", ".join(group.name for group in user.groups.all())

    def _apply(self, request, queryset, change, role, done):
        for user in queryset:
            try:
                change(actor=request.user, user=user, role=role)
            except DomainError as error:
                self.message_user(request, f"{user}: {error.message}", messages.ERROR)
                return
        self.message_user(request, f"{queryset.count()} {done}.", messages.SUCCESS)

    @admin.action(description="Give the front-desk role")
    def grant_front_desk(self, request, queryset):
        self._apply(request, queryset, role_grant, "front_desk", "users now staff the front desk")

    @admin.action(description="Take away the front-desk role")
    def revoke_front_desk(self, request, queryset):
        self._apply(
            request, queryset, role_revoke, "front_desk", "users no longer staff the front desk"
        )

    @admin.action(description="Make director (site admins only)")
    def grant_director(self, request, queryset):
        self._apply(request, queryset, role_grant, "director", "users are now directors")

    @admin.action(description="Remove director role (site admins only)")
    def revoke_director(self, request, queryset):
        self._apply(request, queryset, role_revoke, "director", "users are no longer directors")


class PendingThisSeasonFilter(admin.SimpleListFilter):
    """The director dashboard's "students pending eligibility" queue (L10)."""

    title = "eligibility this season"
    parameter_name = "eligibility"

    def lookups(self, request, model_admin):
        return [("pending", "Pending")]

    def queryset(self, request, queryset):
        if self.value() != "pending":
            return queryset
        # A site admin's queue is that of the institution they picked on the dashboard.
        institution = institution_at_work(request)
        season = current_season(institution) if institution else None
        return queryset.filter(pk__in=pending_students(institution, season).values("pk"))


@admin.register(PlayerProfile)
class PlayerProfileAdmin(InstitutionScopedAdmin):
    form = CampusIdAdminForm
    list_display = [
        "name",
        "campus_id",
        "anonymous",
        "institution",
        "is_guest",
        "rule_eligibility",
    ]
    list_select_related = ["user", "institution"]
    list_filter = [PendingThisSeasonFilter]
    search_fields = [
        "campus_id",
        "user__email",
        "user__first_name",
        "user__last_name",
        "display_name",
        "email",
    ]
    raw_id_fields = ["user"]
    actions = ["forget_on_request"]

    @admin.display(description="Name", ordering="user__last_name")
    def name(self, profile):
        return profile.name

    @admin.action(description="Forget these people on their request")
    def forget_on_request(self, request, queryset):
        """Asks for the request's details first; then each through ``profile_forget``. Someone
        forgotten already is refused by name, saying when (one message each), not counted."""
        profiles = []
        for profile in queryset.select_related("user", "institution"):
            if profile.erased_at is None:
                profiles.append(profile)
            else:
                refusal = forget_refusal(actor=request.user, profile=profile)
                self.message_user(request, refusal, messages.ERROR)
        if not profiles:
            return None
        reason = request.POST.get("reason", "").strip()
        if not (request.POST.get("confirmed") and reason):
            for profile in profiles:
                profile.former = privacy.former_name(profile.pk)
            return TemplateResponse(
                request,
                "admin/accounts/playerprofile/forget.html",
                {**self.admin_site.each_context(request), "profiles": profiles},
            )
        done = 0
        for profile in profiles:
            try:
                profile_forget(actor=request.user, profile=profile, reason=reason)
            except NotAllowed as error:
                self.message_user(request, f"{profile.name}: {error.message}", messages.ERROR)
            except DomainError as error:  # forgotten meanwhile: it names them and says when
                self.message_user(request, error.message, messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"{done} forgotten: they now show as Former player N.")
        return None

    def get_search_results(self, request, queryset, search_term):
        """A search for "Player 4821" (or "Former player 4821") finds whose number it is."""
        results, duplicates = super().get_search_results(request, queryset, search_term)
        number = search_term.lower().removeprefix("former ").removeprefix("player").strip()
        if number.isdigit() and (profile_id := privacy.profile_id_of(int(number))):
            results |= queryset.filter(pk=profile_id)
        return results, duplicates

    @admin.display(description="Shown as")
    def anonymous(self, profile):
        """The number pages show where the name is withheld (P2) or forgotten (P4), so staff
        can tell who "Player 4821" on the projector is."""
        shown = privacy.anonymous_name(profile.pk)
        if profile.erased_at:
            return privacy.former_name(profile.pk)
        return f"{shown} (withheld)" if profile.withheld else shown

    @admin.display(description="Guest", boolean=True)
    def is_guest(self, profile):
        return profile.is_guest

    @admin.display(description="Eligibility")
    def rule_eligibility(self, profile):
        """A ruling form with the student filled in (the season is chosen on the form)."""
        return format_html(
            '<a href="{}?profile={}">Rule on eligibility</a>',
            reverse("admin:accounts_eligibility_add"),
            profile.pk,
        )

"""Roles are Django groups with permissions. `is_staff` (admin access) goes to directors and
site admins only; front-desk staff work from the front-desk pages, not the admin."""

from django.apps import apps

STUDENTS = "Students"
FRONT_DESK = "Front desk"
DIRECTORS = "Directors"
ROLES = [STUDENTS, FRONT_DESK, DIRECTORS]

# Each app declares what each role may do with its own models, as `role_permissions` on its
# AppConfig ({role: {model: [actions]}}), so accounts imports none of the others. The AppConfigs
# import the role names above before any model is loaded: this module imports no model at its top.


def declared_permissions() -> dict[str, set[tuple[str, str]]]:
    """(app label, codename) pairs per role, collected from the installed apps."""
    declared = {role: set() for role in ROLES}
    for app_config in apps.get_app_configs():
        for role, models in getattr(app_config, "role_permissions", {}).items():
            declared[role] |= {
                (app_config.label, f"{action}_{model}")
                for model, actions in models.items()
                for action in actions
            }
    return declared


def sync_groups() -> None:
    """Create the role groups and give each exactly its permissions (idempotent)."""
    # Here, not at the top: every AppConfig imports this module for the role names, before any
    # model can be imported.
    from django.contrib.auth.models import Group, Permission

    for role, codenames in declared_permissions().items():
        group, _ = Group.objects.get_or_create(name=role)
        permissions = [
            permission
            for permission in Permission.objects.select_related("content_type").filter(
                codename__in=[codename for _, codename in codenames]
            )
            if (permission.content_type.app_label, permission.codename) in codenames
        ]
        group.permissions.set(permissions)


def sync_groups_after_migrate(sender, **kwargs):
    sync_groups()


def in_group(user, group_name: str) -> bool:
    if not user.is_authenticated:
        return False
    # Cached on the user object: a page asks several times. A signed-in request's user comes
    # with the roles already read by the user's query (accounts/backends.py), which knows the
    # ROLES alone: no other group is asked about.
    if not hasattr(user, "_group_names"):
        user._group_names = set(user.groups.values_list("name", flat=True))
    return group_name in user._group_names


def institution_of(user):
    """The institution a user belongs to, or None (site admins without a profile)."""
    return user.institution if user.is_authenticated else None


def is_site_admin(user) -> bool:
    return user.is_authenticated and user.is_superuser


def is_director_of(user, institution) -> bool:
    if is_site_admin(user):
        return True
    return in_group(user, DIRECTORS) and institution_of(user) == institution


def is_front_desk_of(user, institution) -> bool:
    """Front-desk staff of the institution; its directors and site admins may do their work too."""
    if is_director_of(user, institution):
        return True
    return in_group(user, FRONT_DESK) and institution_of(user) == institution


def is_front_desk_anywhere(user) -> bool:
    return is_site_admin(user) or in_group(user, FRONT_DESK) or in_group(user, DIRECTORS)

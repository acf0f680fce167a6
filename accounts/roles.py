"""Roles are Django groups with permissions. `is_staff` (admin access) goes to directors and
site admins only; front-desk staff work from the front-desk pages, not the admin."""

from django.contrib.auth.models import Group, Permission

STUDENTS = "Students"
FRONT_DESK = "Front desk"
DIRECTORS = "Directors"

# app_label -> model -> actions, per group. Other apps add theirs as they arrive.
GROUP_PERMISSIONS = {
    STUDENTS: {},
    FRONT_DESK: {
        "accounts": {
            "playerprofile": ["view"],
            "eligibility": ["view"],
            "idcheck": ["view", "add"],
            "checkout": ["view"],
            "equipmentitem": ["view"],
        },
    },
    DIRECTORS: {
        "accounts": {
            "institution": ["view", "change"],
            "user": ["view", "change"],
            "playerprofile": ["view", "change"],
            "season": ["view", "add", "change", "delete"],
            "rosterentry": ["view", "add", "change", "delete"],
            "idcheck": ["view", "add"],
            "eligibility": ["view", "add", "change"],
            "eligibilityevent": ["view"],
            "equipmentitem": ["view", "add", "change"],
            "checkout": ["view"],
        },
        "league": {
            "league": ["view", "add", "change"],
            "entry": ["view", "add", "change"],
            "round": ["view", "change"],
        },
        "matches": {
            "match": ["view", "change"],
            "seat": ["view"],
            "dispute": ["view", "change"],
            "contactissue": ["view", "change"],
            "auditevent": ["view"],
            "resultreport": ["view"],
        },
    },
}


def sync_groups() -> None:
    """Create the role groups and give each exactly its permissions (idempotent)."""
    for group_name, apps in GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        codenames = [
            (app_label, f"{action}_{model}")
            for app_label, models in apps.items()
            for model, actions in models.items()
            for action in actions
        ]
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
    # Cached on the user object: a page asks several times.
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

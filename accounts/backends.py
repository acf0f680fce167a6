"""The authentication backend: allauth's, loading the user with their profile, institution and
roles.

Every signed-in page needs all four (the navigation, the role checks, the page itself); one
joined query instead of four is a large share of a small page's work. Writing that query is
itself most of its cost, on every signed-in request: it is a `core.compiled.CompiledQuery`,
written once per process and only run after.
"""

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef

from core.compiled import CompiledQuery

from . import roles

# Whether the user holds each role, as EXISTS columns of the user's query: the navigation and
# every rights check ask (accounts.roles.in_group), and the roles are three fixed groups.
ROLE_FLAGS = {f"user_has_role_{index}": role for index, role in enumerate(roles.ROLES)}


def _user_with_roles(user_id: int):
    model = get_user_model()
    memberships = model.groups.through.objects
    return (
        model._default_manager.select_related("profile__institution")
        .annotate(
            **{
                flag: Exists(memberships.filter(user_id=OuterRef("pk"), group__name=role))
                for flag, role in ROLE_FLAGS.items()
            }
        )
        .filter(pk=user_id)
    )


USER_WITH_ROLES = CompiledQuery(_user_with_roles, user_id=int)


class ProfileAuthenticationBackend(AuthenticationBackend):
    def get_user(self, user_id):
        user = USER_WITH_ROLES.first(user_id=user_id)
        if user is None or not self.user_can_authenticate(user):
            return None
        # accounts.roles.in_group takes these rather than reading the user's groups.
        user._group_names = {role for flag, role in ROLE_FLAGS.items() if getattr(user, flag)}
        return user

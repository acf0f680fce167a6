"""The authentication backend: allauth's, loading the user with their profile, institution and
roles.

Every signed-in page needs all four (the navigation, the role checks, the page itself); one
joined query instead of four is a large share of a small page's work.
"""

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef

from . import roles

# Whether the user holds each role, as EXISTS columns of the user's query: the navigation and
# every rights check ask (accounts.roles.in_group), and the roles are three fixed groups.
ROLE_FLAGS = {f"user_has_role_{index}": role for index, role in enumerate(roles.ROLES)}


class ProfileAuthenticationBackend(AuthenticationBackend):
    def get_user(self, user_id):
        model = get_user_model()
        memberships = model.groups.through.objects
        users = model._default_manager.select_related("profile__institution").annotate(
            **{
                flag: Exists(memberships.filter(user_id=OuterRef("pk"), group__name=role))
                for flag, role in ROLE_FLAGS.items()
            }
        )
        user = users.filter(pk=user_id).first()
        if user is None or not self.user_can_authenticate(user):
            return None
        # accounts.roles.in_group takes these rather than reading the user's groups.
        user._group_names = {role for flag, role in ROLE_FLAGS.items() if getattr(user, flag)}
        return user

"""The authentication backend: allauth's, loading the user with their profile and institution.

Every signed-in page needs all three (the navigation, the role checks, the page itself); one
joined query instead of three is a large share of a small page's work.
"""

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import get_user_model


class ProfileAuthenticationBackend(AuthenticationBackend):
    def get_user(self, user_id):
        users = get_user_model()._default_manager.select_related("profile__institution")
        user = users.filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None

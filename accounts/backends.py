"""The authentication backend: allauth's, loading the user with their profile and institution.

Every signed-in page needs all three (the navigation, the role checks, the page itself); one
joined query instead of three is a large share of a small page's work.
"""

from allauth.account.auth_backends import AuthenticationBackend


class ProfileAuthenticationBackend(AuthenticationBackend):
    def get_user(self, user_id):
        user_model = self._user_model()
        try:
            user = user_model._default_manager.select_related("profile__institution").get(
                pk=user_id
            )
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

    @staticmethod
    def _user_model():
        from django.contrib.auth import get_user_model

        return get_user_model()

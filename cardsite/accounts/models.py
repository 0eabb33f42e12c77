from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """What a player tells the site about themselves beyond the login."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("preferred language"), max_length=8, choices=settings.LANGUAGES, blank=True
    )
    is_guest = models.BooleanField(_("guest"), default=False)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()


def profile_for(user) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile

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
    # The table's sounds (static/js/feel.js), off until the player turns them on; a device
    # remembers its own choice too, which wins there.
    sound = models.BooleanField(_("sound at the table"), default=False)

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


class RateCounter(models.Model):
    """Uses of one limited thing in its current window (see ``cardsite.ratelimit``, which
    writes it with one atomic upsert per use; the model gives it a migration and lets test
    runs flush it)."""

    name = models.CharField(max_length=100, primary_key=True)
    hits = models.IntegerField()
    window_end = models.BigIntegerField(db_index=True)

    class Meta:
        db_table = "cardsite_ratelimit"

    def __str__(self) -> str:
        return f"{self.name}: {self.hits}"

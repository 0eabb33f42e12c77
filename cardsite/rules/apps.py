from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "cardsite.rules"
    label = "rules"
    verbose_name = _("Rules and legal pages")
    default_auto_field = "django.db.models.BigAutoField"

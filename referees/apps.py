from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereesConfig(AppConfig):
    name = "referees"
    verbose_name = _("Jueces")

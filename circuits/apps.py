from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = _("Circuitos")

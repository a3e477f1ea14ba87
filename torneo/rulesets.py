"""The rule sets a tournament can be played under: the mus engine's named presets.

The engine (scoring.mus) owns the rules; this module only offers its presets as choices.
"""

from django.utils.translation import gettext_lazy as _

DEFAULT_RULE_SET = "amm"

RULE_SET_CHOICES = [
    ("amm", _("AMM v6.4 (Asociación Madrileña de Mus)")),
    ("fournier", _("Fournier")),
    ("ehmt", _("Euskal Herriko Mus Txapelketa")),
]

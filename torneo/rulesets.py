"""The rule sets a tournament can be played under: the mus engine's named presets.

The engine (scoring.mus.RULE_SETS) owns the rules and their sources; this module only gives each
preset a translatable name for the forms. A test keeps the two lists identical.
"""

from django.utils.translation import gettext_lazy as _

DEFAULT_RULE_SET = "amm"

_LABELS = {
    "amm": _("AMM v6.4 (Asociación Madrileña de Mus)"),
    "fournier": _("Fournier"),
    "ehmt": _("Euskal Herriko Mus Txapelketa"),
    "aragon": _("Aragón (AAAMUS)"),
    "asturias": _("Asturias (Federación Asturiana)"),
    "cantabria": _("Cantabria"),
    "castilla_la_mancha": _("Castilla-La Mancha"),
    "cataluna": _("Cataluña"),
    "madrid": _("Madrid (costumbre regional)"),
    "galicia": _("Galicia"),
    "la_rioja": _("La Rioja (4 reyes, a 25)"),
    "navarra": _("Navarra (4 reyes)"),
    "alava_bizkaia": _("Álava y Bizkaia"),
    "gipuzkoa": _("Gipuzkoa (4 reyes, a 30)"),
    "gipuzkoa_8_reyes": _("Gipuzkoa (8 reyes)"),
}

RULE_SET_CHOICES = list(_LABELS.items())

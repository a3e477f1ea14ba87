"""The tournament's menus, read from the permission matrix (torneo/permissions.py).

``{% tournament_menu tournament as menu %}`` gives the links of the tournament's bar
(``menu.public``: its public pages, the player's own pair, "Gestión" for its staff), those of the
staff's bar on the management pages (``menu.staff``) and the user's roles in Spanish
(``menu.roles``). A page is in a menu iff ``may_open`` says its view answers this user (the
action its view requires, ``PAGE_ACTIONS``) and the tournament has it (a bracket, a double check):
a menu never offers a page that answers 403, and every page a role may use is in its menu.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from torneo.models import Tournament
from torneo.permissions import Action, can, may_open, own_pair_numbers, role_label, role_labels

register = template.Library()


def _always(tournament: Tournament) -> bool:
    return True


def has_bracket(tournament: Tournament) -> bool:
    """Liguillas, rondas finales or a plain knockout: the formats whose page "Cuadro" draws a tree."""
    F = Tournament.Format
    return (
        tournament.format == F.LIGUILLAS
        or bool(tournament.final_phase_from_round)
        or (tournament.max_losses == 1 and tournament.format != F.SWISS)
    )


def has_double_check(tournament: Tournament) -> bool:
    return bool(tournament.results_double_check)


@dataclass(frozen=True)
class Entry:
    page: str  # a URL name of permissions.PAGE_ACTIONS, whose only argument is the tournament's slug
    label: Promise
    when: Callable[[Tournament], bool] = _always


# The tournament's bar, on every page of the tournament (after its name, which links its page).
PUBLIC = (
    Entry("torneo:tournament_pairs", _("Parejas")),
    Entry("torneo:rounds_list", _("Rondas y sorteos")),
    Entry("scoring:results", _("Resultados")),
    Entry("scoring:clock_wall", _("Relojes")),
    Entry("scoring:standings", _("Clasificación")),
    Entry("scoring:bracket", _("Cuadro"), has_bracket),
    Entry("scoring:find_player", _("Búscate")),
)
# "Gestión", after them, for whoever may open the management pages' first one.
MANAGE = Entry("torneo:manage_dashboard", _("Gestión"))
# The staff's bar, on the management pages.
STAFF = (
    Entry("torneo:manage_dashboard", _("Panel")),
    Entry("torneo:manage_pairs", _("Parejas y presencia")),
    Entry("torneo:manage_edit", _("Datos del torneo")),
    Entry("torneo:manage_sessions", _("Jornadas")),
    Entry("torneo:manage_roles", _("Funciones")),
    Entry("torneo:manage_rounds", _("Rondas y sorteos")),
    Entry("scoring:results_entry", _("Resultados")),
    Entry("scoring:results_queue", _("Por confirmar"), has_double_check),
    Entry("scoring:clocks_manage", _("Relojes")),
    Entry("referees:juez_desk", _("Juez")),
    Entry("referees:incident_log", _("Incidencias")),
    Entry("scoring:hands_index", _("Manos anotadas")),
    Entry("scoring:printables", _("Imprimir")),
    Entry("torneo:manage_audit", _("Cambios")),
)


@dataclass(frozen=True)
class Link:
    url: str
    label: str
    current: bool = False


@dataclass
class Menu:
    public: list[Link] = field(default_factory=list)
    staff: list[Link] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)


def _links(entries: tuple[Entry, ...], user: Any, tournament: Tournament, path: str) -> list[Link]:
    links = []
    for entry in entries:
        if entry.when(tournament) and may_open(user, tournament, entry.page):
            url = reverse(entry.page, args=[tournament.slug])
            links.append(Link(url, str(entry.label), url == path))
    return links


def menu_for(user: Any, tournament: Tournament, path: str = "") -> Menu:
    """The menus of this tournament for this user (``path``: the current page's, to mark it)."""
    numbers = own_pair_numbers(user, tournament)  # first: the same query brings the staff roles
    public = _links(PUBLIC, user, tournament, path)
    for number in numbers:
        url = reverse("scoring:pair_page", args=[tournament.slug, number])
        label = gettext("Tu pareja") if len(numbers) == 1 else gettext("Tu pareja %(n)d") % {"n": number}
        public.append(Link(url, label, url == path))
    public += _links((MANAGE,), user, tournament, path)
    return Menu(public, _links(STAFF, user, tournament, path), role_labels(user, tournament))


def _user(context: template.Context) -> Any:
    request = context.get("request")
    return getattr(request, "user", None) or context.get("user") or AnonymousUser()


@register.simple_tag(takes_context=True)
def tournament_menu(context: template.Context, tournament: Tournament) -> Menu:
    """The menus for the page's user (once per request and tournament)."""
    request = context.get("request")
    cache: dict[int, Menu] = request.__dict__.setdefault("_tournament_menus", {}) if request is not None else {}
    if tournament.pk not in cache:
        cache[tournament.pk] = menu_for(_user(context), tournament, getattr(request, "path", ""))
    return cache[tournament.pk]


@register.simple_tag(takes_context=True)
def may(context: template.Context, tournament: Tournament, action: str) -> bool:
    """``{% may tournament "VIEW_PRIVATE" as private %}``: whether the page's user may do the action."""
    return can(_user(context), tournament, Action[action])


@register.filter
def role_name(role: str) -> str:
    """A role's value ("control") as the pages name it ("mesa de control")."""
    return role_label(role)

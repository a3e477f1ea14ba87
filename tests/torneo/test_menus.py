"""The menus show only what the role may do (torneo/templatetags/menus.py, read from the matrix in
torneo/permissions.py): for every role of the world (tests/world.py), every link of the tournament's
menus answers 200, and every page of the tournament the role can open is in its menus (or linked
from a page that is, for the pages of one task: a new pair, a CSV). The pages are compiled from the
URLconf: a new page of a tournament fails here until it is placed in a menu or under one."""

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import NoReverseMatch, get_resolver, resolve, reverse

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from tests.world import EVERYONE, ORGANIZER, ROLES, STAFF_PAIRS, VIEWERS_PRIVATE, World
from torneo.models import Player, Tournament
from torneo.permissions import MATRIX, PAGE_ACTIONS, Action, Role, can, role_label
from torneo.templatetags.menus import PUBLIC, STAFF

pytestmark = pytest.mark.django_db

# The pages the menus offer, and the roles that can open them (what the views require, written out
# here rather than read from the code under test). `when`: the tournament has the page.
MENU_PAGES: dict[str, set[str]] = {
    "torneo:tournament_detail": EVERYONE,  # the tournament's name, first in its bar
    "torneo:tournament_pairs": EVERYONE,
    "torneo:rounds_list": EVERYONE,
    "scoring:results": EVERYONE,
    "scoring:clock_wall": EVERYONE,
    "scoring:standings": EVERYONE,
    "scoring:bracket": EVERYONE,
    "scoring:find_player": EVERYONE,
    "torneo:manage_dashboard": VIEWERS_PRIVATE,
    "torneo:manage_pairs": STAFF_PAIRS,
    "torneo:manage_edit": ORGANIZER,
    "torneo:manage_sessions": ORGANIZER,
    "torneo:manage_roles": ORGANIZER,
    "torneo:manage_rounds": STAFF_PAIRS,
    "scoring:results_entry": STAFF_PAIRS,
    "scoring:results_queue": STAFF_PAIRS | {"juez"},  # the juez decides between two actas
    "scoring:hands_index": VIEWERS_PRIVATE,
    "scoring:clocks_manage": {"juez", "organizer", "superuser"},  # the juez runs the clocks (AMM chapter VI)
    "referees:juez_desk": {"juez", "organizer", "superuser"},  # incidents and sanctions (AMM 5.3.a, 5.4)
    "referees:incident_log": VIEWERS_PRIVATE,  # the mesa reads why a result changed
    "scoring:printables": VIEWERS_PRIVATE,  # actas (AMM 3.16), wall sheets, standings on paper
    "torneo:manage_audit": ORGANIZER,  # the log of every change, who and when (issue 18)
}
CONDITIONAL = {"scoring:bracket": "bracket", "scoring:results_queue": "double_check"}

# The pages of one task, linked from a page of the menus: (that page, the roles that can open it).
SUB_PAGES: dict[str, tuple[str, set[str]]] = {
    "torneo:public_registration": ("torneo:tournament_detail", EVERYONE),
    "torneo:manage_pair_new": ("torneo:manage_dashboard", STAFF_PAIRS),
    "torneo:manage_pairs_import": ("torneo:manage_dashboard", STAFF_PAIRS),
    "torneo:manage_pairs_import_example": ("torneo:manage_pairs_import", STAFF_PAIRS),
    "torneo:manage_pairs_export": ("torneo:manage_dashboard", STAFF_PAIRS),
    "torneo:manage_accounts": ("torneo:manage_roles", ORGANIZER),
    "scoring:classification": ("scoring:standings", EVERYONE),
    "scoring:results_csv": ("scoring:results", EVERYONE),
    "scoring:standings_csv": ("scoring:standings", EVERYONE),
    "scoring:classification_csv": ("scoring:classification", EVERYONE),
    "referees:incident_log_csv": ("referees:incident_log", VIEWERS_PRIVATE),
    "torneo:manage_audit_export": ("torneo:manage_audit", ORGANIZER),
    "referees:substitutes": ("referees:juez_desk", {"juez", "organizer", "superuser"}),  # AMM 5.8
    "scoring:blank_actas_pdf": ("scoring:printables", VIEWERS_PRIVATE),  # its form's target (GET)
    "torneo:manage_venue_code": ("torneo:manage_pairs", STAFF_PAIRS),  # the venue's screen (issue 32)
    "torneo:projector": ("torneo:tournament_detail", EVERYONE),  # the hall's screen (issue 34)
    "torneo:manage_announcements": ("torneo:manage_dashboard", STAFF_PAIRS),  # what it announces (issue 34)
}

# Linked once the tournament has a published round (the world has none).
LINKED_ONCE_PLAYED = {"scoring:results_csv"}

# Not pages of the menus: what scripts poll, a form's POST target, and the player's account claim
# (its address is printed on the code the mesa de control hands out, with a QR; then its step 2).
NOT_PAGES = {
    "torneo:tournament_live",
    "torneo:manage_round_prepare",
    "torneo:account_claim",
    "torneo:account_claim_finish",
    "scoring:pair_cards_pdf",  # the printing desk's POST target: printing the tarjetas issues their links
    "torneo:self_check_in",  # its address is the venue screen's QR (issue 32)
}


def tournament_pages() -> set[str]:
    """Every URL name whose only argument is a tournament's slug, from the URLconf."""
    found = set()
    for namespace in ("torneo", "scoring", "referees"):
        resolver = get_resolver().namespace_dict[namespace][1]
        for name in resolver.reverse_dict:
            if not isinstance(name, str):
                continue
            try:
                reverse(f"{namespace}:{name}", args=["slug"])
            except NoReverseMatch:
                continue
            found.add(f"{namespace}:{name}")
    return found


def _client(world: World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def _url(world: World, page: str) -> str:
    return reverse(page, args=[world.tournament.slug])


def _nav_links(html: str) -> list[str]:
    """The addresses in the tournament's bar and the staff's bar of a page."""
    navs = re.findall(r'<nav class="(?:tournament-nav|subnav)"[^>]*>(.*?)</nav>', html, re.S)
    return [href for nav in navs for href in re.findall(r'href="([^"]+)"', nav)]


def _page_name(url: str) -> str:
    match = resolve(url)
    return f"{match.namespace}:{match.url_name}"


def _setup(world: World, variant: str) -> set[str]:
    """The tournament with its optional pages (a bracket, the double check) or without."""
    t = world.tournament
    if variant == "full":
        t.results_double_check = True  # a plain knockout (the default) has a bracket
        t.save()
        return {"bracket", "double_check"}
    t.format, t.swiss_rounds = Tournament.Format.SWISS, 3
    t.save()
    return set()


def test_every_page_of_a_tournament_is_in_a_menu_or_under_one():
    assert tournament_pages() == set(MENU_PAGES) | set(SUB_PAGES) | NOT_PAGES
    assert set(PAGE_ACTIONS) - {"scoring:pair_page"} == set(MENU_PAGES)
    assert {e.page for e in PUBLIC + STAFF} <= set(MENU_PAGES)


# The staff roles each user of the world holds in its tournament.
HELD: dict[str, set[str]] = {r: set() for r in ROLES} | {
    "juez": {Role.JUEZ},
    "control": {Role.CONTROL},
    "organizer": {Role.ORGANIZER},
    "superuser": set(Role.values),
}


def test_the_menus_read_the_action_each_page_requires_from_the_matrix():
    """The table the menus read (PAGE_ACTIONS and MATRIX) gives each page the roles that can open it
    (checked on the server in the next test): any one of a page's actions opens it."""
    for page, roles in MENU_PAGES.items():
        actions = PAGE_ACTIONS[page]
        allowed = {r for r in ROLES if not actions or any(HELD[r] & MATRIX[a] for a in actions)}
        assert allowed == roles, page


@pytest.mark.parametrize("variant", ["full", "plain"])
@pytest.mark.parametrize("role", ROLES)
def test_the_menus_offer_exactly_the_pages_the_role_can_open_and_each_link_answers(world, role, variant):
    features = _setup(world, variant)
    client = _client(world, role)
    opens = {}
    for page in MENU_PAGES:
        status = client.get(_url(world, page)).status_code
        assert status in (200, 302, 403), (page, role, status)
        opens[page] = status == 200
        assert opens[page] == (role in MENU_PAGES[page]), (page, role, status)

    offered: set[str] = set()
    answers: dict[str, int] = {}
    for page, opened in opens.items():
        if not opened:
            continue
        links = _nav_links(client.get(_url(world, page)).content.decode())
        for url in links:
            if url not in answers:
                answers[url] = client.get(url).status_code
            assert answers[url] == 200, (role, page, url, answers[url])  # never a 403 nor a 404
            offered.add(_page_name(url))

    expected = {
        page
        for page, roles in MENU_PAGES.items()
        if role in roles and (page not in CONDITIONAL or CONDITIONAL[page] in features)
    }
    if role == "player":
        expected.add("scoring:pair_page")  # "Tu pareja"
    assert offered == expected, role


@pytest.mark.parametrize("role", ROLES)
def test_the_pages_of_one_task_are_linked_from_the_menus_pages_the_role_can_open(world, role):
    client = _client(world, role)
    pages: dict[str, str] = {}
    for sub, (parent, roles) in SUB_PAGES.items():
        parent_roles = MENU_PAGES[parent] if parent in MENU_PAGES else SUB_PAGES[parent][1]
        assert roles <= parent_roles, sub  # whoever may use the page reaches it
        response = client.get(_url(world, sub))
        assert (response.status_code == 200) == (role in roles), (sub, role, response.status_code)
        if role not in parent_roles or sub in LINKED_ONCE_PLAYED:
            continue
        if parent not in pages:
            pages[parent] = client.get(_url(world, parent)).content.decode()
        linked = f'href="{_url(world, sub)}"' in pages[parent]
        assert linked == (role in roles), (sub, parent, role)


def test_the_staff_bar_is_the_same_on_every_management_page(world):
    client = _client(world, "control")
    bars = set()
    for page in ("torneo:manage_dashboard", "torneo:manage_pairs", "torneo:manage_rounds", "scoring:hands_index"):
        html = client.get(_url(world, page)).content.decode()
        bars.add(tuple(re.findall(r'href="([^"]+)"', re.search(r'<nav class="subnav".*?</nav>', html, re.S)[0])))
    assert len(bars) == 1
    (bar,) = bars
    assert [_page_name(u) for u in bar] == [
        "torneo:manage_dashboard",
        "torneo:manage_pairs",
        "torneo:manage_rounds",
        "scoring:results_entry",
        "referees:incident_log",
        "scoring:hands_index",
        "scoring:printables",
    ]


# --- role names ----------------------------------------------------------------------------------

HEADER = {
    "anonymous": None,
    "outsider": None,
    "other_organizer": None,
    "player": "tu función: jugador",
    "juez": "tu función: juez",
    "control": "tu función: mesa de control",
    "organizer": "tu función: organizador",
    "superuser": "tus funciones: organizador, mesa de control, juez",
}


@pytest.mark.parametrize("role", ROLES)
def test_the_tournament_bar_names_the_users_role_in_spanish(world, role):
    html = _client(world, role).get(_url(world, "torneo:tournament_detail")).content.decode()
    bar = re.search(r'<nav class="tournament-nav".*?</nav>', html, re.S)[0]
    if HEADER[role] is None:
        assert "función" not in bar and "funciones" not in bar
    else:
        assert HEADER[role] in bar


def test_the_roles_page_and_the_dashboard_name_roles_in_spanish(world):
    client = _client(world, "organizer")
    html = client.get(_url(world, "torneo:manage_roles")).content.decode()
    cells = re.findall(r"<tr><td>[^<]*</td><td>(\w+)</td><td>([^<]+)</td>", html)  # name, username, role
    assert ("juez", "Juez") in cells and ("control", "Mesa de control") in cells
    assert ("organizer", "Organizador") in cells
    select = re.search(r'<select name="role".*?</select>', html, re.S)[0]
    assert re.findall(r">([^<]+)</option>", select) == ["Organizador", "Mesa de control", "Juez"]
    html = _client(world, "juez").get(_url(world, "torneo:manage_dashboard")).content.decode()
    assert "Tus funciones: juez" in html


def test_role_labels_are_spanish_for_every_role():
    assert [role_label(r) for r in ("organizer", "control", "juez", "player")] == [
        "organizador",
        "mesa de control",
        "juez",
        "jugador",
    ]


def test_a_staff_member_who_also_plays_sees_both_roles():
    t = TournamentFactory()
    pair = make_pair(t, players=[player_data(1), player_data(2)])
    user = grant(UserFactory(), t, "juez")
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
    client = Client()
    client.force_login(user)
    html = client.get(f"/torneos/{t.slug}/").content.decode()
    assert "tus funciones: juez, jugador" in html
    assert f'href="/torneos/{t.slug}/parejas/{pair.number}/ficha/"' in html


# --- the juez sees private data (README, "Who does what") -----------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_the_pairs_page_of_the_menu_shows_contact_data_to_whoever_may_see_private_data(world, role):
    """The matrix gives the juez VIEW_PRIVATE (players' contact data) as it gives the mesa de
    control and the organizer: the list of pairs in their menu shows it; the public never sees it."""
    player = world.other_pair.ordered_members()[0].player
    Player.objects.filter(pk=player.pk).update(phone="600123456", email="secreto@example.com", id_document="12345678Z")
    html = _client(world, role).get(_url(world, "torneo:tournament_pairs")).content.decode()
    shown = all(s in html for s in ("600123456", "secreto@example.com", "12345678Z"))
    hidden = not any(s in html for s in ("600123456", "secreto@example.com", "12345678Z"))
    assert shown if role in VIEWERS_PRIVATE else hidden, role
    user: Any = world.users.get(role)
    if user is not None:
        assert (role in VIEWERS_PRIVATE) == can(user, world.tournament, Action.VIEW_PRIVATE)


def test_every_page_has_its_own_title(world):
    """Issue 34: tabs and bookmarks of the staff's pages all said «Torneos de mus». Each HTML page
    of the menus and of their tasks has a title of its own, naming the tournament."""
    client = _client(world, "superuser")
    titles: dict[str, str] = {}
    for page in [*MENU_PAGES, *SUB_PAGES]:
        response = client.get(_url(world, page))
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        title = re.search(r"<title>(.*?)</title>", response.content.decode(), re.S)
        titles[page] = " ".join(title[1].split()) if title else ""
    assert len(titles) > 20
    assert [page for page, title in titles.items() if world.tournament.name not in title] == []
    shared = {title for title in titles.values() if list(titles.values()).count(title) > 1}
    assert shared == set(), {page: title for page, title in titles.items() if title in shared}

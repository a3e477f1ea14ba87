"""The organizer's announcements to the hall and the hall's screen (issue 34, items 4 and 5): the
services (a short text with its time, Spanish refusals naming the field, the history), who may write
and remove them (the organizer and the mesa de control, Action.DRAWS_MANAGE), where they are shown
(the projector, the tournament's page, in Madrid's time), the projector's turn of slides and the
clock wall's projector mode. The browser's side: tests/e2e/test_projector_browser.py."""

import datetime
import json
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.timezone import localtime

from tests.factories import TournamentFactory, UserFactory, grant
from tests.scoring import publish_next_round
from tests.torneo.matrix import Case, check_case
from tests.torneo.simulation import new_tournament
from tests.world import EVERYONE, ROLES, STAFF_PAIRS, World
from torneo.errors import TournamentError
from torneo.models import ANNOUNCEMENT_MAX_LENGTH, Announcement, Tournament
from torneo.selectors.audit import AuditFilter, changes
from torneo.services.announcements import MAX_ANNOUNCEMENTS, announcement_create, announcement_delete
from torneo.services.rounds import round_prepare

pytestmark = pytest.mark.django_db


def versions(tournament: Tournament) -> tuple[int, int]:
    tournament.refresh_from_db()
    return tournament.live_version, tournament.live_all_version


def text_of(response: Any) -> str:
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def slides_of(response: Any) -> list[dict[str, str]]:
    found = re.search(r'<script id="pj-slides" type="application/json">(.*?)</script>', response.content.decode())
    assert found, "the projector's page carries its slides"
    return json.loads(found[1])


# --- the services ---------------------------------------------------------------------------------


def test_an_announcement_is_kept_on_one_line_with_who_and_when_and_moves_the_shared_pages_on():
    t = TournamentFactory()
    organizer = grant(UserFactory(), t, "organizer")
    before = versions(t)
    made = announcement_create(tournament=t, by=organizer, text="  La ronda 3\nempieza a las   18:30.  ")
    assert made.text == "La ronda 3 empieza a las 18:30."
    assert made.created_by == organizer and made.created_at is not None
    live, everyone = versions(t)
    assert live == before[0] + 1 and everyone == before[1]  # the shared pages; no pair's page


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Escribe el texto del aviso."),
        ("   \n\t ", "Escribe el texto del aviso."),
        (None, "Escribe el texto del aviso."),
        ("x" * (ANNOUNCEMENT_MAX_LENGTH + 1), "El texto del aviso no puede pasar de 280 caracteres (tiene 281)."),
        ("Cena\x00 a las 21:00", "El texto del aviso tiene caracteres no válidos."),
        ("Cena\x07 a las 21:00", "El texto del aviso tiene caracteres no válidos."),
    ],
)
def test_bad_text_is_refused_in_spanish_naming_the_field(text: Any, message: str):
    t = TournamentFactory()
    organizer = grant(UserFactory(), t, "organizer")
    before = versions(t)
    with pytest.raises(ValidationError) as refused:
        announcement_create(tournament=t, by=organizer, text=text)
    assert refused.value.message_dict == {"text": [message]}
    assert not Announcement.objects.exists() and versions(t) == before


def test_280_characters_are_accepted_and_spaces_do_not_count_twice():
    t = TournamentFactory()
    organizer = grant(UserFactory(), t, "organizer")
    assert len(announcement_create(tournament=t, by=organizer, text="y" * 280).text) == 280
    assert announcement_create(tournament=t, by=organizer, text="a" + " " * 300 + "b").text == "a b"


def test_a_tournament_keeps_a_bounded_number_of_announcements():
    t = TournamentFactory()
    organizer = grant(UserFactory(), t, "organizer")
    Announcement.objects.bulk_create(Announcement(tournament=t, text=f"Aviso {n}") for n in range(MAX_ANNOUNCEMENTS))
    with pytest.raises(TournamentError) as refused:
        announcement_create(tournament=t, by=organizer, text="Uno más")
    assert (
        str(refused.value) == f"Este torneo ya tiene {MAX_ANNOUNCEMENTS} avisos: borra alguno antes de escribir otro."
    )
    other = TournamentFactory()  # the bound is per tournament
    assert announcement_create(tournament=other, by=grant(UserFactory(), other, "organizer"), text="Hola").pk


def test_removing_one_leaves_the_others_and_the_history_says_who_wrote_and_who_removed_it():
    t = TournamentFactory()
    organizer = grant(UserFactory(username="org"), t, "organizer")
    control = grant(UserFactory(username="mesa"), t, "control")
    kept = announcement_create(tournament=t, by=organizer, text="Se mantiene")
    gone = announcement_create(tournament=t, by=organizer, text="Cambio de sala")
    before = versions(t)
    announcement_delete(tournament=t, announcement_id=gone.pk, by=control)
    assert list(Announcement.objects.values_list("pk", flat=True)) == [kept.pk]
    assert versions(t)[0] == before[0] + 1
    history = Announcement.history.filter(id=gone.pk).order_by("history_id")
    assert [(h.history_type, h.history_user.username) for h in history] == [("+", "org"), ("-", "mesa")]
    logged = changes(tournament=t, filters=AuditFilter(kind="avisos"))
    assert [(c.action_label, c.user, c.kind_label) for c in logged] == [
        ("Baja", "mesa", "Avisos"),
        ("Alta", "org", "Avisos"),
        ("Alta", "org", "Avisos"),
    ]
    assert any(f.after == "Cambio de sala" for f in logged[1].fields)


def test_an_announcement_is_removed_only_from_its_own_tournament_and_once():
    t, other = TournamentFactory(), TournamentFactory()
    organizer = grant(UserFactory(), t, "organizer")
    theirs = announcement_create(tournament=other, by=grant(UserFactory(), other, "organizer"), text="Suyo")
    with pytest.raises(TournamentError) as refused:
        announcement_delete(tournament=t, announcement_id=theirs.pk, by=organizer)
    assert str(refused.value) == "Ese aviso ya no existe: quizá otra persona lo ha borrado."
    assert Announcement.objects.filter(pk=theirs.pk).exists()
    mine = announcement_create(tournament=t, by=organizer, text="Mío")
    announcement_delete(tournament=t, announcement_id=mine.pk, by=organizer)
    with pytest.raises(TournamentError):
        announcement_delete(tournament=t, announcement_id=mine.pk, by=organizer)


# --- who may: the organizer and the mesa de control (Action.DRAWS_MANAGE) -------------------------


def slug(w: World) -> str:
    return w.tournament.slug


def an_announcement(w: World) -> int:
    return Announcement.objects.create(tournament=w.tournament, text="Para borrar").pk


CASES = [
    Case("announcements page", "get", lambda w: f"/torneos/{slug(w)}/gestion/avisos/", STAFF_PAIRS),
    Case(
        "write an announcement",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/avisos/",
        STAFF_PAIRS,
        lambda w: {"text": "Comida a las 14:00"},
    ),
    Case(
        "remove an announcement",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/avisos/{an_announcement(w)}/borrar/",
        STAFF_PAIRS,
    ),
    Case("the hall's screen", "get", lambda w: f"/torneos/{slug(w)}/proyector/", EVERYONE),
    Case("the clock wall for the screen", "get", lambda w: f"/torneos/{slug(w)}/relojes/?proyector=1", EVERYONE),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix_of_the_announcements_and_the_screen(world: World, case: Case, role: str) -> None:
    check_case(world, case, role)


def test_a_refused_write_or_removal_changes_nothing(world: World) -> None:
    kept = an_announcement(world)
    for role in ("juez", "player", "outsider", "other_organizer"):
        client = Client()
        client.force_login(world.users[role])
        assert client.post(f"/torneos/{slug(world)}/gestion/avisos/", {"text": "No"}).status_code == 403
        assert client.post(f"/torneos/{slug(world)}/gestion/avisos/{kept}/borrar/").status_code == 403
    assert list(Announcement.objects.values_list("text", flat=True)) == ["Para borrar"]


# --- the staff's page -----------------------------------------------------------------------------


def staff_client(world: World, role: str = "control") -> Client:
    client = Client()
    client.force_login(world.users[role])
    return client


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Escribe el texto del aviso."),
        ("   ", "Escribe el texto del aviso."),
        ("z" * 300, "El texto del aviso no puede pasar de 280 caracteres (tiene 300)."),
        ("Hola\x00", "El texto del aviso tiene caracteres no válidos."),
        ("Hola\x1b[31m", "El texto del aviso tiene caracteres no válidos."),
    ],
)
def test_the_page_says_what_is_wrong_with_the_text_never_a_500(world: World, text: str, message: str) -> None:
    response = staff_client(world).post(reverse("torneo:manage_announcements", args=[slug(world)]), {"text": text})
    assert response.status_code == 400
    page = text_of(response)
    assert "Texto del aviso" in page and message in page
    assert not Announcement.objects.exists()


def test_the_mesa_writes_one_and_sees_it_listed_with_its_time_then_removes_it(world: World) -> None:
    client = staff_client(world)
    url = reverse("torneo:manage_announcements", args=[slug(world)])
    response = client.post(url, {"text": "La ronda 2 se retrasa 10 minutos."}, follow=True)
    page = text_of(response)
    assert "Aviso publicado: sale en la pantalla de la sala y en la página del torneo." in page
    made = Announcement.objects.get()
    assert made.created_by == world.users["control"]
    assert "La ronda 2 se retrasa 10 minutos." in page and localtime(made.created_at).strftime("%H:%M") in page
    response = client.post(reverse("torneo:manage_announcement_remove", args=[slug(world), made.pk]), follow=True)
    assert "Aviso borrado." in text_of(response) and not Announcement.objects.exists()
    again = client.post(reverse("torneo:manage_announcement_remove", args=[slug(world), made.pk]), follow=True)
    assert "Ese aviso ya no existe: quizá otra persona lo ha borrado." in text_of(again)


def test_removing_an_announcement_that_never_was_is_a_message_never_a_500(world: World) -> None:
    for pk in (0, 424242, 99999999999999999999):
        url = f"/torneos/{slug(world)}/gestion/avisos/{pk}/borrar/"
        response = staff_client(world).post(url, follow=True)
        assert response.status_code == 200
        assert "Ese aviso ya no existe: quizá otra persona lo ha borrado." in text_of(response)


def test_the_dashboard_links_the_page_for_whoever_may_use_it(world: World) -> None:
    link = f'href="{reverse("torneo:manage_announcements", args=[slug(world)])}"'
    for role, linked in (("control", True), ("organizer", True), ("juez", False)):
        html = staff_client(world, role).get(reverse("torneo:manage_dashboard", args=[slug(world)])).content.decode()
        assert (link in html) == linked, role


# --- where they are shown: the tournament's page, in Madrid's time --------------------------------


def test_the_tournament_page_lists_them_newest_first_with_their_madrid_time(world: World) -> None:
    old = Announcement.objects.create(tournament=world.tournament, text="Inscripciones cerradas.")
    new = Announcement.objects.create(tournament=world.tournament, text="Empieza la ronda 1.")
    day = datetime.datetime(2026, 12, 12, 9, 5, tzinfo=datetime.UTC)  # 10:05 in Madrid (winter)
    Announcement.objects.filter(pk=old.pk).update(created_at=day)
    Announcement.objects.filter(pk=new.pk).update(created_at=day + datetime.timedelta(minutes=40))
    page = text_of(Client().get(reverse("torneo:tournament_detail", args=[slug(world)])))
    assert "Avisos" in page
    assert page.index("12/12 10:45 Empieza la ronda 1.") < page.index("12/12 10:05 Inscripciones cerradas.")
    html = Client().get(reverse("torneo:tournament_detail", args=[slug(world)])).content.decode()
    assert f'href="{reverse("torneo:projector", args=[slug(world)])}"' in html


def test_todays_announcements_show_the_time_only():
    t = TournamentFactory()
    made = announcement_create(tournament=t, by=grant(UserFactory(), t, "organizer"), text="Hoy")
    page = text_of(Client().get(reverse("torneo:tournament_detail", args=[t.slug])))
    assert f"Avisos {localtime(made.created_at):%H:%M} Hoy" in page


# --- the hall's screen ----------------------------------------------------------------------------


def projector_url(t: Tournament) -> str:
    return reverse("torneo:projector", args=[t.slug])


def test_the_screen_has_no_site_chrome_and_before_any_round_says_so():
    t = TournamentFactory()
    response = Client().get(projector_url(t))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="topbar"' not in html and "tournament-nav" not in html and 'class="footer"' not in html
    assert "js/projector.js" in html and "js/clocks.js" in html and "css/projector.css" in html
    assert slides_of(response) == [{"kind": "avisos", "url": ""}]
    assert "Todavía no hay ninguna ronda publicada." in text_of(response)


def test_the_turn_is_the_draw_the_clocks_the_standings_and_the_announcements():
    sim = new_tournament(8, seed=3, format=Tournament.Format.CEROS, max_losses=2)
    t = sim.tournament
    publish_next_round(sim)
    kinds = [(s["kind"], s["url"]) for s in slides_of(Client().get(projector_url(t)))]
    assert kinds == [
        ("sorteo", reverse("torneo:round_projector", args=[t.slug, 1])),
        ("relojes", reverse("scoring:clock_wall", args=[t.slug]) + "?proyector=1"),
        ("clasificacion", reverse("scoring:standings", args=[t.slug])),
    ]  # no announcements: no slide for them
    for _kind, url in kinds:
        assert Client().get(url).status_code == 200
    announcement_create(tournament=t, by=sim.organizer, text="Bocadillos en la barra.")
    response = Client().get(projector_url(t))  # the page kept for anonymous visitors moved on
    assert [s["kind"] for s in slides_of(response)] == ["sorteo", "relojes", "clasificacion", "avisos"]
    assert "Bocadillos en la barra." in text_of(response)
    assert localtime(Announcement.objects.get().created_at).strftime("%H:%M") in text_of(response)


def test_the_draw_slide_is_the_latest_round_even_before_its_draw_is_made():
    sim = new_tournament(8, seed=5, format=Tournament.Format.CEROS, max_losses=2)
    round_1 = publish_next_round(sim)
    for match in round_1.matches.exclude(pair_b=None).select_related("round__tournament"):
        sim.enter_result(match)
    round_prepare(tournament=sim.tournament, by=sim.organizer)  # round 2: its commitment is public
    urls = [s["url"] for s in slides_of(Client().get(projector_url(sim.tournament)))]
    assert urls[0] == reverse("torneo:round_projector", args=[sim.tournament.slug, 2])


def test_a_draft_tournament_has_no_screen_for_the_public():
    t = TournamentFactory(status=Tournament.Status.DRAFT)
    assert Client().get(projector_url(t)).status_code == 404


# --- the clock wall in projector mode -------------------------------------------------------------


def test_the_clock_wall_for_the_screen_has_no_chrome_and_scrolls_itself():
    sim = new_tournament(8, seed=3, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    t = sim.tournament
    response = Client().get(reverse("scoring:clock_wall", args=[t.slug]) + "?proyector=1")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="topbar"' not in html and "tournament-nav" not in html and 'class="footer"' not in html
    assert "data-autoscroll" in html and "js/projector.js" in html and "js/clocks.js" in html
    assert 'id="clock-data"' in html and html.count('class="ck-card') == round_.matches.exclude(pair_b=None).count()
    assert f"{t.name} · Relojes · Ronda 1" in text_of(response)
    plain = Client().get(reverse("scoring:clock_wall", args=[t.slug])).content.decode()
    assert 'class="topbar"' in plain and "data-autoscroll" not in plain and "js/projector.js" not in plain
    assert 'href="?proyector=1&amp;ronda=1"' in plain  # the wall offers its projector mode

"""The juez's ruling pages on a recorded hand (AMM chapter IV), as a phone uses them: the facts'
form, the engine's answer previewed with nothing written, the ruling confirmed (who, the articles,
the hand counting at its tantos), a rectification changing it, a fact the hand contradicts shown in
Spanish on the page, the ruling withdrawn, who may open the page, and the ruling shown on the
public hand page."""

import re

import pytest
from django.test import Client

from scoring.forms.rulings import RulingForm, field_for
from scoring.models import HandRuling, RecordedGame, RecordedHand
from scoring.services.hands import hand_edit, hand_record
from scoring.services.hands.rulings import hand_ruling_confirm
from tests.scoring.test_hands_services import Table, table

pytestmark = pytest.mark.django_db

# Hand-checked (tests/mus/data/chapter4_cases.jsonl, R01): asiento 1 declares «pares sí» without
# pares. Ruled A 4 – B 1 (4.1a, 4.2.b, 4.2.c, 4.2.d, 4.2.e).
D1 = ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"]
LIE = [
    {"pares": True, "juego": False},
    {"pares": True, "juego": False},
    {"pares": False, "juego": False},
    {"pares": False, "juego": False},
]
TRUE = [{**d, "pares": i == 0} for i, d in enumerate(LIE)]
ARTICLES = "4.1a, 4.2.b, 4.2.c, 4.2.d, 4.2.e"


def lie(t: Table, **extra: object) -> RecordedHand:
    record = {"hands": D1, "declarations": LIE, "lances": {"pares": ["B:envido 2", "A:quiero"]}, **extra}
    return hand_record(match=t.match, by=t.juez, record=record, mano="a").hand


def hand_url(t: Table, hand: RecordedHand) -> str:
    return f"/torneos/{t.tournament.slug}/partidas/{t.match.pk}/manos/{hand.pk}/"


def ruling_url(t: Table, hand: RecordedHand) -> str:
    return hand_url(t, hand) + "fallo/"


def facts(action: str = "preview", **fields: object) -> dict[str, object]:
    """What the facts' form posts: every row empty unless given."""
    data: dict[str, object] = {"action": action, "expected_version": "1"}
    for n in (1, 2):
        data.update({f"rect{n}_seat": "", f"rect{n}_lance": "", f"rect{n}_when": ""})
        data.update({f"sena{n}_seat": "", f"sena{n}_sena": "", f"sena{n}_lance": ""})
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        data[f"declined_{lance}"] = ""
    data.update(deck_seat="", wrong_seat="", wrong_when="", mano_repetida="", obligada_seat="", obligada_lance="")
    data.update(fields)
    return data


def text_of(response) -> str:
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def juez(t: Table) -> Client:
    client = Client()
    client.force_login(t.juez)
    return client


def test_the_juez_sees_the_hand_and_the_facts_form_amm_4_1a():
    t = table()
    hand = lie(t)
    response = juez(t).get(ruling_url(t, hand))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("rect1_seat", "rect2_when", "sena1_sena", "declined_pares", "deck_seat", "wrong_when"):
        assert f'name="{name}"' in html
    assert 'name="mano_repetida"' in html and 'name="rival_showed_cards"' in html and 'name="obligada_lance"' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "<details" in html and 'name="expected_version" value="1"' in html  # the rare facts folded
    page = text_of(response)
    assert "Reglamento AMM, art. 4.1a" in page  # the hand's finding
    a = f"{t.match.pair_a.number} · {t.match.pair_a.display_name}"
    b = f"{t.match.pair_b.number} · {t.match.pair_b.display_name}"
    assert f"Segundo · B ({b})" in html and f"Mano · A ({a})" in html  # seats named with their pair
    assert "Rectificaciones (AMM 4.3 y 4.4)" in page and "Ver el fallo del motor" in page


def test_the_preview_shows_the_engines_ruling_and_writes_nothing_amm_4_2():
    t = table()
    hand = lie(t)
    response = juez(t).post(ruling_url(t, hand), facts())
    assert response.status_code == 200
    page = text_of(response)
    a = f"{t.match.pair_a.number} · {t.match.pair_a.display_name}"
    b = f"{t.match.pair_b.number} · {t.match.pair_b.display_name}"
    assert f"Tras la mano: A ({a}): 4 B ({b}): 1" in page
    assert f"Artículos (reglamento AMM): {ARTICLES}" in page
    assert re.search(r"<li>4\.2\.c[^<]*</li>", response.content.decode())  # the explanation, one sentence each
    assert "Todavía no se ha guardado" in page
    html = response.content.decode()
    assert re.search(r'<button type="submit" name="action" value="confirm"[^>]*>Confirmar el fallo</button>', html)
    assert not HandRuling.objects.exists()
    hand.refresh_from_db()
    assert not hand.counted


def test_the_juez_confirms_a_ruling_and_the_hand_counts_amm_4_2():
    t = table()
    hand = lie(t)
    client = juez(t)
    response = client.post(ruling_url(t, hand), facts("confirm"))
    assert response.status_code == 302 and response["Location"] == hand_url(t, hand)
    ruling = HandRuling.objects.get()
    assert ruling.ruled_by == t.juez and ruling.articles == ARTICLES.split(", ") and ruling.is_current
    assert (ruling.score_a, ruling.score_b) == (4, 1) and ruling.facts == {}
    hand.refresh_from_db()
    assert hand.counted and (hand.score_a, hand.score_b) == (4, 1)
    game = RecordedGame.objects.get(pk=hand.game_id)
    assert (game.tantos_a, game.tantos_b, game.stopped_at) == (4, 1, None)
    page = text_of(client.get(response["Location"]))
    a = f"{t.match.pair_a.number} · {t.match.pair_a.display_name}"
    b = f"{t.match.pair_b.number} · {t.match.pair_b.display_name}"
    assert f"Fallo confirmado (AMM {ARTICLES}): tras la mano, {a} 4 – 1 {b}." in page
    assert "Fallo del juez en vigor" in page and "Cuenta para el tanteo" in page
    assert f"Tras la mano: {a}: 4 {b}: 1" in page
    # The form opens again from the ruling's facts, and the match's page links to the ruling.
    assert "Ver el fallo" in text_of(client.get(f"/torneos/{t.tournament.slug}/partidas/{t.match.pk}/manos/"))


def test_the_page_rules_again_with_a_rectification_before_pares_amm_4_4_b():
    t = table()
    hand = lie(t, lances={})
    client = juez(t)
    data = facts("confirm", rect1_seat="1", rect1_lance="pares", rect1_when="antes")
    preview = text_of(client.post(ruling_url(t, hand), {**data, "action": "preview"}))
    assert "Artículos (reglamento AMM): 4.1a, 4.3, 4.4.b" in preview
    response = client.post(ruling_url(t, hand), data)
    assert response.status_code == 302
    ruling = HandRuling.objects.get()
    assert (ruling.score_a, ruling.score_b) == (3, 1) and ruling.articles == ["4.1a", "4.3", "4.4.b"]
    assert ruling.facts == {"rectifications": [{"seat": 1, "lance": "pares", "when": "antes"}]}
    # Asked again, the form is prefilled from the ruling in force.
    html = client.get(ruling_url(t, hand)).content.decode()
    assert re.search(r'<option value="1" selected>Segundo', html)
    assert re.search(r'<option value="antes" selected>', html)


def test_a_fact_the_hand_contradicts_is_shown_in_spanish_and_nothing_is_written_amm_4_3():
    t = table()
    hand = lie(t)
    client = juez(t)
    for action in ("preview", "confirm"):
        response = client.post(
            ruling_url(t, hand), facts(action, rect1_seat="3", rect1_lance="pares", rect1_when="antes")
        )
        assert response.status_code == 200
        page = text_of(response)
        assert "ese jugador no tiene ningún error anterior que rectificar" in page
        assert "Confirmar el fallo" not in page
    assert not HandRuling.objects.exists()
    hand.refresh_from_db()
    assert not hand.counted


def test_a_row_without_its_lance_or_its_seat_is_an_error_on_that_field():
    t = table()
    hand = lie(t)
    response = juez(t).post(ruling_url(t, hand), facts(rect1_seat="1", rect1_lance="pares", sena2_sena="duples"))
    assert response.status_code == 200
    html = response.content.decode()
    when = html[html.index('id="id_rect1_when"') :]
    assert "Falta cuándo rectificó" in when[: when.index('id="id_rect1_rival"')]
    seat = html[html.index('id="id_sena2_seat"') :]
    assert "Falta el asiento de esta fila." in seat[: seat.index('id="id_sena2_sena"')]
    assert "Revisa los campos marcados: no se ha guardado nada." in html
    assert not HandRuling.objects.exists()


def test_the_players_and_the_mesa_de_control_get_403_and_anonymous_the_login():
    t = table()
    hand = lie(t)
    for user in (t.player_a, t.player_b, t.control):
        client = Client()
        client.force_login(user)
        assert client.get(ruling_url(t, hand)).status_code == 403
        assert client.post(ruling_url(t, hand), facts("confirm")).status_code == 403
    anonymous = Client().get(ruling_url(t, hand))
    assert anonymous.status_code == 302 and anonymous["Location"] == f"/cuenta/entrar/?next={ruling_url(t, hand)}"
    assert Client().post(ruling_url(t, hand), facts("confirm")).status_code == 302
    assert not HandRuling.objects.exists()
    organizer = Client()
    organizer.force_login(t.organizer)
    assert organizer.get(ruling_url(t, hand)).status_code == 200


def test_withdrawing_the_ruling_puts_the_hand_back_to_not_counted():
    t = table()
    hand = lie(t)
    ruling = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    url = ruling_url(t, hand) + f"{ruling.pk}/retirar/"
    assert juez(t).get(url).status_code == 405  # POST only
    player = Client()
    player.force_login(t.player_a)
    assert player.post(url).status_code == 403
    response = juez(t).post(url, follow=True)
    assert "Fallo retirado" in text_of(response)
    ruling.refresh_from_db()
    hand.refresh_from_db()
    assert not ruling.is_current and ruling.withdrawn_by == t.juez and not hand.counted
    # Withdrawn twice: a clear message, never a 500.
    again = juez(t).post(url, follow=True)
    assert again.status_code == 200 and "Ese fallo ya no está en vigor." in text_of(again)


def test_the_hand_page_shows_the_ruling_to_anyone_amm_4_2():
    t = table()
    hand = lie(t)
    hand_ruling_confirm(hand=hand, by=t.juez, facts={})
    response = Client().get(hand_url(t, hand))
    assert response.status_code == 200
    page = text_of(response)
    assert f"Artículos (reglamento AMM): {ARTICLES}" in page
    assert re.search(r"<li>4\.2\.c[^<]*</li>", response.content.decode())
    assert "dictado por juez del torneo" in page and t.juez.get_username() not in page  # never the username
    assert "Pedir fallo del juez" not in page and "Ver el fallo" not in page and "Retirar el fallo" not in page


def test_the_juez_is_offered_a_ruling_on_the_hands_that_need_one():
    t = table()
    hand = lie(t)
    match_url = f"/torneos/{t.tournament.slug}/partidas/{t.match.pk}/manos/"
    assert "Pedir fallo del juez" in text_of(juez(t).get(match_url))
    assert "Pedir fallo del juez" in text_of(juez(t).get(hand_url(t, hand)))
    for client in (Client(), Client()):
        client.force_login(t.control)
        assert "Pedir fallo del juez" not in text_of(client.get(match_url))
    assert "Pedir fallo del juez" not in text_of(Client().get(hand_url(t, hand)))


def test_a_replaced_version_of_the_hand_cannot_be_ruled():
    t = table()
    hand = lie(t)
    new = hand_edit(hand=hand, by=t.juez, record={"hands": D1, "declarations": TRUE}).hand
    client = juez(t)
    assert client.get(ruling_url(t, hand)).status_code == 404
    assert client.post(ruling_url(t, hand), facts("confirm")).status_code == 404
    assert client.get(ruling_url(t, new)).status_code == 200
    # A confirmation prepared on version 1 of a hand now at version 2: refused, on the page.
    response = client.post(ruling_url(t, new), facts("confirm"))
    assert response.status_code == 200 and "ha cambiado (ahora es la versión 2)" in text_of(response)
    assert not HandRuling.objects.exists()


@pytest.mark.parametrize(
    ("key", "field"),
    [
        ("rectifications[0].when", "rect1_when"),
        ("rectifications[1].seat", "rect2_seat"),
        ("rectifications[1].rival_intervened", "rect2_rival"),
        ("senas[1].sena", "sena2_sena"),
        ("senas[0]", "sena1_seat"),
        ("declined_by_error.pares", "declined_pares"),
        ("into_deck[0].recovered", "deck_recovered"),
        ("wrong_cards[0].when", "wrong_when"),
        ("obligadas[0].lance", "obligada_lance"),
        ("mano_repetida", "mano_repetida"),
        ("rival_showed_cards", "rival_showed_cards"),
        ("rectifications[2].seat", None),
        ("senas[0].moment", None),
        ("declined_by_error.tute", None),
        ("facts", None),
        ("hand", None),
    ],
)
def test_the_services_error_keys_land_on_the_forms_fields(key: str, field: str | None) -> None:
    assert field_for(key) == field


def test_the_form_turns_its_filled_rows_into_the_engines_facts_and_back() -> None:
    data = facts(
        rect1_seat="1",
        rect1_lance="pares",
        rect1_when="durante",
        rect1_rival="on",
        sena2_seat="0",
        sena2_sena="duples",
        declined_juego="2",
        deck_seat="3",
        wrong_seat="2",
        wrong_when="tras_grande",
        mano_repetida="antes_grande",
        rival_showed_cards="on",
        obligada_seat="2",
        obligada_lance="pares",
        out_seat="1",
        out_lance="juego",
        out_ordago="on",
    )
    form = RulingForm(data)
    assert form.is_valid(), form.errors
    expected = {
        "rectifications": [{"seat": 1, "lance": "pares", "when": "durante", "rival_intervened": True}],
        "declined_by_error": {"juego": 2},
        "senas": [{"seat": 0, "sena": "duples"}],
        "into_deck": [{"seat": 3, "recovered": False}],
        "wrong_cards": [{"seat": 2, "when": "tras_grande"}],
        "mano_repetida": "antes_grande",
        "rival_showed_cards": True,
        "obligadas": [{"seat": 2, "lance": "pares"}],
        "showed_out": {"seat": 1, "lance": "juego", "rival_bet": "ordago"},
    }
    assert form.to_facts() == expected
    again = RulingForm(initial=RulingForm.initial_from(expected, version=1))
    assert again["rect1_seat"].value() == "1" and again["rect1_rival"].value() is True
    assert again["sena1_seat"].value() == "0" and again["declined_juego"].value() == 2
    empty = RulingForm(facts())
    assert empty.is_valid() and empty.to_facts() == {}


def test_the_juez_rules_a_pair_that_showed_to_be_out_from_the_page_amm_3_4_b():
    """3.4.b on the ruling page: the pair that showed, the evident lance, the rivals' bet."""
    t = table()
    hand = hand_record(match=t.match, by=t.juez, record={"hands": D1, "declarations": TRUE}, mano="a").hand
    client = juez(t)
    bad = client.post(ruling_url(t, hand), facts("preview", out_seat="0"))
    assert "Falta el lance" in text_of(bad) and "no se ha guardado nada" in text_of(bad)
    both = client.post(
        ruling_url(t, hand), facts("preview", out_seat="0", out_lance="pares", out_bet="5", out_ordago="on")
    )
    assert "O un envite o un órdago" in text_of(both)
    response = client.post(ruling_url(t, hand), facts("confirm", out_seat="0", out_lance="pares"))
    assert response.status_code == 302, text_of(response)
    ruling = HandRuling.objects.get(hand=hand, is_current=True)
    assert ruling.facts["showed_out"] == {"seat": 0, "lance": "pares"} and "3.4.b" in ruling.articles


def test_the_public_hand_page_and_api_never_show_a_username_a_player_is_named_as_the_player():
    """Security round two, item 3: usernames are half a login and the login limits are per
    username, so nobody's is published. The hand's recorder (a player whose account has no name)
    is named as the player the account is linked to; the juez who ruled by name or «juez del torneo»."""
    t = table()
    t.player_a.first_name = t.player_a.last_name = ""
    t.player_a.save()
    record = {"hands": D1, "declarations": LIE, "lances": {"pares": ["B:envido 2", "A:quiero"]}}
    hand = hand_record(match=t.match, by=t.player_a, record=record, mano="a").hand
    hand_ruling_confirm(hand=hand, by=t.juez, facts={})
    player = t.player_a.players.get()
    html = Client().get(hand_url(t, hand)).content.decode()
    api = Client().get(f"/api/v1/tournaments/{t.tournament.slug}/matches/{t.match.pk}/hands/{hand.pk}/")
    rulings = Client().get(f"/api/v1/tournaments/{t.tournament.slug}/matches/{t.match.pk}/hands/{hand.pk}/rulings/")
    assert rulings.status_code == 200 and rulings.json()[0]["ruled_by"] == "juez del torneo"
    for body in (html, api.content.decode(), rulings.content.decode()):
        assert t.player_a.get_username() not in body and t.juez.get_username() not in body
    assert f"anotada por {player.first_name} {player.last_name}" in html
    assert api.status_code == 200 and api.json()["recorded_by"] == f"{player.first_name} {player.last_name}"

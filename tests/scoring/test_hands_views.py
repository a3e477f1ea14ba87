"""The recorded-hands pages, as a phone uses them: the match's page with its juegos, hands and
findings (their article as people read it, never an internal code), «A» and «B» named as the
hand's mano pair and the other, the form for the next hand (prefilled with the running tantos),
corrections as new versions, deletion, Spanish errors on the field at fault (a betting sequence no
play can have included), and the staff's index of tables."""

import re

import pytest
from django.test import Client

from scoring.models import RecordedHand
from scoring.services.hands import hand_record
from tests.scoring.test_hands_services import MALFORMED_SEQUENCES, S1, S2, S3, rec, table

pytestmark = pytest.mark.django_db


def url(t, *parts: object) -> str:
    base = f"/torneos/{t.tournament.slug}/partidas/{t.match.pk}/manos/"
    return base + "".join(f"{p}/" for p in parts)


def form_data(**fields: object) -> dict[str, object]:
    """What the phone form posts for one hand (empty declarations and bets unless given)."""
    data: dict[str, object] = {"mano": "a", "game": "", "score_a": "", "score_b": ""}
    for seat in range(4):
        data[f"cards_{seat}"] = ""
        data[f"decl_{seat}_pares"] = ""
        data[f"decl_{seat}_juego"] = ""
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        data[f"lance_{lance}"] = ""
    data.update(fields)
    return data


def cards(deal: list[str]) -> dict[str, str]:
    return {f"cards_{seat}": text for seat, text in enumerate(deal)}


def text_of(response) -> str:
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_anyone_sees_a_matchs_hands_but_only_players_and_staff_get_the_form():
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    anonymous = Client().get(url(t))
    assert anonymous.status_code == 200
    page = text_of(anonymous)
    assert "Mano 1" in page and "1 – 5" in page
    assert 'name="cards_0"' not in anonymous.content.decode()
    assert "Pueden anotar las manos los jugadores de esta partida" in page
    client = Client()
    client.force_login(t.player_b)
    html = client.get(url(t)).content.decode()
    assert 'name="cards_0"' in html and 'inputmode="numeric"' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    # The next hand: number 2 of juego 1, pair_b mano, the running tantos in its frame (A 5 – B 1).
    assert "Mano 2 del juego 1" in text_of(client.get(url(t)))
    assert re.search(r'name="mano" value="b"[^>]*checked', html)
    assert re.search(r'name="score_a" value="5"', html) and re.search(r'name="score_b" value="1"', html)


def test_a_player_records_a_hand_from_the_phone_and_sees_the_running_tantos():
    t = table()
    client = Client()
    client.force_login(t.player_a)
    response = client.post(url(t), form_data(**cards(S1), score_a="0", score_b="0"))
    assert response.status_code == 302
    hand = RecordedHand.objects.get()
    assert response["Location"].endswith(f"#mano-{hand.pk}")
    assert hand.recorded_by == t.player_a and hand.counted and (hand.score_a, hand.score_b) == (1, 5)
    assert hand.record["hands"] == S1 and hand.record["score"] == {"A": 0, "B": 0}
    page = text_of(client.get(url(t)))
    assert "Mano n.º 1 del juego 1 anotada." in page
    # Bets typed with the quick buttons' format, claimed tantos per lance and after the hand.
    response = client.post(
        url(t),
        form_data(
            mano="b",
            score_a="5",
            score_b="1",
            **cards(S1),
            lance_grande="A:envido 10, B:quiero",
            claimed_grande_a="10",
            claimed_grande_b="0",
            claimed_after_a="15",
            claimed_after_b="6",
        ),
    )
    assert response.status_code == 302
    second = RecordedHand.objects.get(number=2)
    assert second.record["lances"]["grande"] == ["A:envido 10", "B:quiero"]
    assert second.record["claimed"] == {"lances": {"grande": {"A": 10, "B": 0}}, "score": {"A": 15, "B": 6}}
    assert second.findings == [] and (second.score_a, second.score_b) == (6, 15)


def test_a_bad_card_is_shown_on_its_seat_in_spanish_and_nothing_is_saved():
    t = table()
    client = Client()
    client.force_login(t.juez)
    response = client.post(url(t), form_data(**cards(["12o 8c 7e 1b", *S1[1:]])))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Revisa los campos marcados: no se ha guardado nada." in html
    seat = html[html.index('id="id_cards_0"') :]
    assert "«8c» no es una carta" in seat[: seat.index('class="decls"')]
    assert not RecordedHand.objects.exists()


def test_a_false_declaration_is_saved_and_shown_with_article_seat_lance_and_pair_amm_4_1a():
    t = table()
    client = Client()
    client.force_login(t.juez)
    data = form_data(**cards(S1), decl_0_pares="si", decl_1_pares="si", decl_2_pares="no", decl_3_pares="no")
    response = client.post(url(t), data, follow=True)
    page = text_of(response)
    assert "Tiene errores: no cuenta para el tanteo hasta que se corrija" in page
    mano = f"{t.match.pair_a.number} · {t.match.pair_a.display_name}"  # pair_a is mano: A
    assert (
        f"Error · Reglamento AMM, art. 4.1a asiento: compañero del mano lance: pares pareja A ({mano}) "
        "El asiento 2 (compañero del mano) declaró «pares no» y lleva pareja de sietes."
    ) in page
    assert "declaracion_falsa" not in response.content.decode()
    assert "Cuenta detenida en la mano 1: tiene errores" in page
    hand = RecordedHand.objects.get()
    assert hand.record["declarations"][2] == {"pares": False} and not hand.counted


def test_findings_show_the_article_as_people_read_it_never_a_code_or_a_seed():
    """«Reglamento AMM, art. 3.8», «Reglas generales del mus (…)» (seed 000): the page never shows
    «envite_sin_jugada», «seed 000» and the like, on the match's page or the hand's."""
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(S3, lances={"pares": ["B:envido", "A:quiero"]}), mano="a")
    hand = hand_record(match=t.match, by=t.juez, record=rec(S3, lances={"pares": ["A:envido", "B:no quiero"]})).hand
    other = f"{t.match.pair_a.number} · {t.match.pair_a.display_name}"  # B of hand 2 (pair_b mano)
    for response in (Client().get(url(t)), Client().get(url(t, hand.pk))):
        html = response.content.decode()
        main = html[html.index("<main") : html.index("</main>")]
        assert not re.search(r"seed \d|envite_sin|_de_la_|data-code", main)
    page = text_of(Client().get(url(t)))
    assert (
        "Error · Reglamento AMM, art. 3.8 lance: pares pareja B "
        f"({t.match.pair_b.number} · {t.match.pair_b.display_name}) En pares, la pareja B envida sin llevar pares"
    ) in page
    assert (
        f"Error · Reglas generales del mus (anuncio de las jugadas) lance: pares pareja A ({t.match.pair_b.number} · "
        f"{t.match.pair_b.display_name}) En pares solo lleva la pareja A"
    ) in page
    assert f"pareja B ({other})" not in page  # hand 2's finding is A's: pair_b, its mano


def test_the_ehmts_own_articles_are_named_as_the_ehmts():
    t = table(rule_set="ehmt")
    declarations = [{"pares": False}, None, None, None]  # seat 0 holds pareja de reyes: EHMT art. 12
    hand_record(match=t.match, by=t.juez, record=rec(declarations=declarations), mano="a")
    page = text_of(Client().get(url(t)))
    assert "Error · Reglamento EHMT, art. 12 asiento: mano lance: pares" in page
    assert "Aviso · Reglamento EHMT, arts. 12–14" in page  # the tanteo is not checked (its effects)
    assert "EHMT art." not in page


def test_a_and_b_are_named_as_the_mano_pair_and_the_other_on_the_hands_and_the_form():
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    client = Client()
    client.force_login(t.player_a)
    response = client.get(url(t))
    page = text_of(response)
    a = f"{t.match.pair_a.number} · {t.match.pair_a.display_name}"
    b = f"{t.match.pair_b.number} · {t.match.pair_b.display_name}"
    assert f"Mano 1 1 – 5 ver o corregir A = pareja mano: {a}; B = la otra: {b}" in page
    # The form for hand 2: pair_b is mano, so A is pair_b, on the legend and by the scores.
    assert f"En toda la mano, A es la pareja mano y B la otra: A = {b} (pareja mano); B = {a}" in page
    assert f"Marcador antes de la mano A {b} B {a}" in page
    assert f"Tras la mano (lo que anotó la mesa) A {b} B {a}" in page
    assert "pareja A de la mesa" not in page and "pareja B de la mesa" not in page  # one meaning of A and B
    client.force_login(t.juez)  # who recorded it: the correction's form is theirs
    detail = text_of(client.get(url(t, RecordedHand.objects.get().pk)))
    assert f"A = pareja mano: {a}; B = la otra: {b}" in detail
    assert f"A = {a} (pareja mano); B = {b}" in detail  # the correction's form: the hand's own mano


def test_the_form_prefills_the_score_before_from_the_juegos_running_count_in_the_mano_pairs_frame():
    """The next hand's score before is the juego's running count with A the next mano pair: after
    1 – 5 (pair_a mano), pair_b is mano: A 5 – B 1; a new juego starts at 0 – 0, mano still
    alternating (AMM 2.8)."""
    t = table()
    client = Client()
    client.force_login(t.juez)
    client.post(url(t), form_data(**cards(S1)))
    html = client.get(url(t)).content.decode()
    assert re.search(r'name="mano" value="b"[^>]*checked', html)
    assert re.search(r'name="score_a" value="5"', html) and re.search(r'name="score_b" value="1"', html)
    # pair_b mano (A): grande envido 40 accepted, seat 0's reyes: pair_b wins juego 1.
    client.post(url(t), form_data(mano="b", **cards(S1), lance_grande="A:envido 40, B:quiero"))
    response = client.get(url(t))
    html = response.content.decode()
    assert "Mano 1 del juego 2" in text_of(response)
    assert re.search(r'name="mano" value="a"[^>]*checked', html)
    assert re.search(r'name="score_a" value="0"', html) and re.search(r'name="score_b" value="0"', html)
    # Hand 1 of juego 2 by the table (pair_a mano, 1 – 5): the next form, pair_b mano, A 5 – B 1.
    client.post(url(t), form_data(**cards(S1)))
    html = client.get(url(t)).content.decode()
    assert re.search(r'name="score_a" value="5"', html) and re.search(r'name="score_b" value="1"', html)


@pytest.mark.parametrize(("lances", "field", "message"), MALFORMED_SEQUENCES)
def test_a_betting_sequence_no_play_can_have_is_shown_on_its_lance_and_nothing_is_saved_amm_3_9(lances, field, message):
    t = table()
    client = Client()
    client.force_login(t.player_a)
    [(lance, bets)] = lances.items()
    response = client.post(url(t), form_data(**cards(S1), **{f"lance_{lance}": ", ".join(bets)}))
    assert response.status_code == 200
    assert response.context["form"].errors == {f"lance_{lance}": [message]}
    html = response.content.decode()
    assert "Revisa los campos marcados: no se ha guardado nada." in html
    box = html[html.index(f'id="id_lance_{lance}"') :]
    assert message in box[: box.index("</div>")]  # on the lance's own field
    assert not RecordedHand.objects.exists()


def test_3_14_the_page_counts_the_tables_tantos_and_shows_the_aviso_with_both_counts():
    """AMM 3.14: «Una vez apuntados los tantos y metidas las cartas en baraja, no podrá hacerse
    ninguna reclamación de tanteo.» Tantos written at the table that differ from the engine's
    count are saved and counted; the page shows the aviso with both counts for the juez."""
    t = table()
    client = Client()
    client.force_login(t.player_a)
    # S1 en paso, pair_a mano: the engine counts grande A 1 and A 1 – B 5; the table wrote 2 and 2 – 5.
    data = form_data(
        **cards(S1),
        score_a="0",
        score_b="0",
        claimed_grande_a="2",
        claimed_grande_b="0",
        claimed_after_a="2",
        claimed_after_b="5",
    )
    response = client.post(url(t), data, follow=True)
    page = text_of(response)
    hand = RecordedHand.objects.get()
    assert hand.valid and hand.counted and (hand.score_a, hand.score_b) == (2, 5)
    assert "Mano n.º 1 del juego 1 anotada." in page and "Tiene errores" not in page
    assert "El tanteo anotado no coincide con el del motor: cuenta el de la mesa (AMM 3.14)" in page
    assert "Juego 1 2 – 5" in page and "tanteo de la mesa" in page and "Cuenta detenida" not in page
    assert (
        "Aviso · Reglamento AMM, art. 3.14 El tanteo anotado por la mesa no coincide con el del motor. Mesa: A 2 – B 5 "
        "tras la mano (grande A 2 – B 0). Motor: A 1 – B 5 tras la mano (grande A 1 – B 0). Cuenta el de la mesa"
    ) in page
    html = response.content.decode()
    assert '<li class="finding aviso">' in html and "tanteo_de_la_mesa" not in html
    # The form for the next hand starts from the table's count: pair_b mano, A 5 – B 2.
    assert re.search(r'name="score_a" value="5"', html) and re.search(r'name="score_b" value="2"', html)
    detail = text_of(client.get(url(t, hand.pk)))
    assert "Aviso · Reglamento AMM, art. 3.14" in detail and "Motor: A 1 – B 5 tras la mano" in detail


def test_correcting_a_hand_saves_a_new_version_and_keeps_the_old_one():
    t = table()
    first = hand_record(match=t.match, by=t.player_a, record=rec(), mano="a").hand
    client = Client()
    client.force_login(t.player_a)
    page = client.get(url(t, first.pk))
    html = page.content.decode()
    assert 'value="12o 12c 1e 5b"' in html and 'name="expected_version" value="1"' in html
    response = client.post(url(t, first.pk), form_data(**cards(S2), score_a="0", score_b="0", expected_version="1"))
    assert response.status_code == 302
    current = RecordedHand.objects.get(is_current=True)
    assert (current.version, current.replaces_id, current.score_a, current.score_b) == (2, first.pk, 7, 1)
    old = text_of(client.get(url(t, first.pk)))
    assert "Sustituida por una versión posterior" in old and "v2" in old
    # A stale correction (the version the phone saw is no longer current) is refused.
    stale = client.post(url(t, current.pk), form_data(**cards(S1), expected_version="1"))
    assert stale.status_code == 200 and "ha cambiado (ahora es la versión 2)" in stale.content.decode()


def test_deleting_a_hand_takes_it_out_of_the_count():
    t = table()
    hand = hand_record(match=t.match, by=t.juez, record=rec(), mano="a").hand
    client = Client()
    client.force_login(t.control)
    response = client.post(url(t, hand.pk, "borrar"), follow=True)
    assert "Mano n.º 1 del juego 1 borrada." in text_of(response)
    hand.refresh_from_db()
    assert hand.is_deleted and not hand.is_current
    page = text_of(client.get(url(t)))
    assert "Juego 1 0 – 0" in page and "Sin manos." in page and "Mano 1 del juego 1" in page


def test_the_juego_and_match_close_on_the_page_when_a_pair_wins_amm_1_7_a():
    t = table(games_to_win=1)
    client = Client()
    client.force_login(t.juez)
    response = client.post(url(t), form_data(**cards(S1), lance_pares="B:ordago, A:quiero"), follow=True)
    page = text_of(response)
    assert "Juego n.º 1 para" in page and "a órdago" in page
    assert "Partida decidida por las manos anotadas: 0-1. Resultado anotado." in page
    assert "Las manos anotadas deciden la partida: 0-1." in page
    assert 'name="cards_0"' not in response.content.decode()  # nothing more to record


def test_a_bye_or_an_unknown_match_has_no_hands_page():
    t = table()
    assert Client().get(f"/torneos/{t.tournament.slug}/partidas/999999/manos/").status_code == 404
    other = table()
    assert Client().get(f"/torneos/{t.tournament.slug}/partidas/{other.match.pk}/manos/").status_code == 404


def test_the_staff_index_lists_the_rounds_tables_with_their_hands():
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    client = Client()
    client.force_login(t.juez)
    response = client.get(f"/torneos/{t.tournament.slug}/manos/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"/partidas/{t.match.pk}/manos/" in html and "1 mano" in text_of(response)
    client.force_login(t.player_a)
    assert client.get(f"/torneos/{t.tournament.slug}/manos/").status_code == 403

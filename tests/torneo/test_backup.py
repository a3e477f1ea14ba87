"""Backups of one tournament (torneo.backup): a real tournament built with the services — a trío,
check-ins, a withdrawn pair and the waiting list, two jornadas, a redrawn and published round, a
corrected result, recorded hands with a corrected hand — exported, deleted and imported: the same
rows (every field, times set by the database included) and the same public pages. Imported next to
the original it is a second, independent tournament; a bad file is refused with nothing written."""

import ast
import html.parser
import io
import json
import os
import re
import stat
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from referees.services.incidents import incident_report
from referees.services.sanctions import sanction_give, sanction_undo
from referees.services.substitutes import substitute_authorise
from scoring.models import RecordedHand
from scoring.services import clocks
from scoring.services.hands import hand_edit, hand_record
from scoring.services.hands.rulings import hand_ruling_confirm
from scoring.services.results import result_submit
from tests.factories import UserFactory, player_data
from tests.syntax import parse_file
from torneo import backup, pagecache
from torneo.models import Draw, Match, Pair, PairMember, Player, Tournament
from torneo.services.accounts import password_reset_allowed
from torneo.services.announcements import announcement_create
from torneo.services.registrations import pair_check_in, pair_register, pair_withdraw
from torneo.services.rounds import draw_publish, draw_redraw, live_draw, round_prepare
from torneo.services.terminals import terminal_issue
from torneo.services.tournaments import role_grant, session_save, tournament_create, tournament_update

pytestmark = pytest.mark.django_db
MADRID = ZoneInfo("Europe/Madrid")
SLUG = "open-copia"
# Hand-checked deals (tests/scoring/test_hands_services.py): S1 en paso A 1 B 5; S2 A 7 B 1.
S1 = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
S2 = ["12o 11o 10o 1c", "12c 11c 7c 4c", "5o 5c 6e 6b", "1o 1e 2b 7b"]


def dni(number: int) -> str:
    return f"{number:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"


def build() -> Tournament:
    """The tournament, through the project's own services, as a real one is run."""
    organizer = UserFactory(username="organiza")
    mesa, juez, jugador = (UserFactory(username=n) for n in ("mesa-copia", "juez-copia", "jugador-copia"))
    start = date(2026, 12, 12)
    t = tournament_create(
        by=organizer,
        data={
            "name": "Open de Mus «La Copia»",
            "slug": SLUG,
            "venue": "Peña El Órdago",
            "description": "Por parejas y tríos.",
            "start_date": start,
            "end_date": date(2026, 12, 13),
            "status": Tournament.Status.REGISTRATION_OPEN,
            "allow_trios": True,
            "max_pairs": 7,
            "entry_fee": "25.50",
        },
    )
    role_grant(tournament=t, username=mesa.username, role="control")
    role_grant(tournament=t, username=juez.username, role="juez")
    first = session_save(
        tournament=t, name="Jornada 1", starts_at=datetime(2026, 12, 12, 10, tzinfo=MADRID), courtesy_minutes=10
    )
    session_save(tournament=t, name="Jornada 2", starts_at=datetime(2026, 12, 13, 10, tzinfo=MADRID))
    people = iter(range(300, 400))
    for i in range(8):
        size = 3 if i == 2 else 2
        players = [
            player_data(
                next(people),
                id_document=dni(10_000_000 + 7 * i + k) if k == 0 else "",
                phone=f"6000000{i}{k}",
                email=f"j{i}{k}@example.com",
                club="Peña El Órdago" if i % 2 else "",
            )
            for k in range(size)
        ]
        pair_register(tournament=t, players=players, name="Los de Tolosa" if i == 4 else "")
    assert Pair.objects.get(tournament=t, number=8).status == Pair.Status.WAITLISTED
    pair_withdraw(pair=Pair.objects.get(tournament=t, number=2), reason="Se ha puesto enfermo")  # 8 moves up
    for pair in Pair.objects.filter(tournament=t, status=Pair.Status.CONFIRMED):
        pair_check_in(pair=pair)
    Player.objects.filter(pk=PairMember.objects.get(pair__tournament=t, pair__number=1, position=1).player_id).update(
        user=jugador
    )
    t = tournament_update(tournament=t, data={"status": Tournament.Status.REGISTRATION_CLOSED})

    round_ = round_prepare(tournament=t, by=mesa, session=first)
    draw_publish(draw=live_draw(round_), public_value="3 5 1", witness=juez, by=mesa)
    draw_redraw(round=round_, reason="La mesa 3 estaba ocupada", by=organizer)
    draw_publish(draw=live_draw(round_), public_value="6 2 4", witness=juez, by=mesa)
    played = list(round_.matches.exclude(pair_b=None).order_by("table_number"))
    assert len(played) == 3 and round_.matches.filter(pair_b=None).count() == 1  # 7 pairs: one exenta
    result_submit(match=played[0], by=mesa, games_a=3, games_b=1, tantos=[[40, 12], [20, 41], [40, 5], [40, 33]])
    result_submit(match=played[0], by=organizer, games_a=1, games_b=3, reason="Acta mal copiada", expected_version=1)
    result_submit(match=played[1], by=mesa, games_a=0, games_b=3)
    hand = hand_record(match=played[2], by=juez, record={"hands": S1}, mano="a").hand
    hand_record(match=played[2], by=juez, record={"hands": S2})
    hand_edit(hand=hand, by=juez, record={"hands": S2})
    # A false «pares sí» of postre, ruled by the juez (AMM chapter IV).
    lie = hand_record(match=played[2], by=juez, record={"hands": S1, "declarations": [{"pares": True}] * 4}).hand
    hand_ruling_confirm(hand=lie, by=juez, facts={"rectifications": [{"seat": 3, "lance": "pares", "when": "despues"}]})
    # The clocks of the round (AMM chapter VI): a pause, a juego, an absence and a delay warning,
    # and the events the beat applied.
    clock_at = datetime(2026, 12, 12, 10, 10, tzinfo=MADRID)
    clocks.clocks_start_round(round=round_, by=juez, at=clock_at)
    clocks.clock_absence(match=played[2], by=juez, pair="B", at=clock_at)
    clocks.clock_pause(match=played[2], by=juez, reason="Baraja nueva", at=clock_at + timedelta(minutes=3))
    clocks.clock_resume(match=played[2], by=juez, at=clock_at + timedelta(minutes=5))
    clocks.clock_juego(match=played[2], by=juez, winner="A", at=clock_at + timedelta(minutes=20))
    clocks.clock_warning(match=played[2], by=juez, pair="B", note="Tarda", at=clock_at + timedelta(minutes=21))
    # A juego pair A's phone claims, waiting for pair B (issue 32).
    phone = terminal_issue(pair=played[2].pair_a, by=mesa).terminal.user
    clocks.clock_juego(match=played[2], by=phone, winner="A", at=clock_at + timedelta(minutes=21, seconds=30))
    clocks.clocks_tick(now=clock_at + timedelta(minutes=22))
    # The juez's record (AMM 5.3.a, 5.4): an incident, its sanction, and the sanction undone.
    incident = incident_report(
        tournament=t, by=juez, match=played[2], pair=played[2].pair_b, article="3.20.c", description="Se mete"
    )
    # Its delay warning above was the apercibimiento: the ladder's next step is a juego (AMM 5.4).
    sanction = sanction_give(by=juez, pair=played[2].pair_b, incident=incident, article="3.20.c", step=2)
    sanction_undo(sanction=sanction, by=juez, reason="Se sacaron las cartas del mazo")
    substituted = next(m for m in played if m.pair_a.members.count() == 2)  # not the trío (AMM 5.8.e)
    substitute_authorise(
        by=juez,
        match=substituted,
        pair=substituted.pair_a,
        replaced=substituted.pair_a.ordered_members()[0].player,
        first_name="Suplente",
        last_name="De Copia",
        id_document="12345678Z",
    )  # AMM 5.8
    announcement_create(tournament=t, by=mesa, text="La ronda 2 empieza a las 18:30.")  # issue 34
    return Tournament.objects.get(pk=t.pk)


# --- comparing exports -----------------------------------------------------------------------


def canonical(data: dict[str, Any]) -> dict[str, Any]:
    """A backup with every pk replaced by the row's position in its model (new pks keep the
    original order), references likewise, and what an import changes on purpose set aside: the
    slug, live_version (one more) and the export time."""
    data = json.loads(json.dumps(data))
    index = {label: {row["pk"]: i for i, row in enumerate(rows)} for label, rows in data["objects"].items()}
    columns = {part.label: cols for part, cols in backup.plan()}
    for label, rows in data["objects"].items():
        for row in rows:
            row["pk"] = index[label][row["pk"]]
            for column in columns[label]:
                value = row["fields"].get(column.name)
                if value is None:
                    continue
                if column.kind == backup.TOURNAMENT:
                    row["fields"][column.name] = "T"
                elif column.kind in (backup.REF, backup.SELF):
                    row["fields"][column.name] = index[column.target or label][value]
    tournament = data["objects"]["torneo.tournament"][0]["fields"]
    tournament.pop("slug"), tournament.pop("live_version")
    for key in ("exported_at", "tournament"):
        data.pop(key)
    return data


def counts() -> dict[str, int]:
    models = [part.model for part in backup.parts()] + [apps.get_model("auth", "User")]
    models += [m.history.model for m in models if hasattr(m, "history")]  # type: ignore[attr-defined]
    return {m._meta.label: m._base_manager.count() for m in models}


def wipe(tournament: Tournament) -> None:
    """Delete a tournament and its players (the PROTECT references first)."""
    players = list(Player.objects.filter(memberships__pair__tournament=tournament).values_list("pk", flat=True))
    RecordedHand.objects.filter(game__match__round__tournament=tournament).update(replaces=None)
    Match.objects.filter(round__tournament=tournament).delete()
    Draw.objects.filter(round__tournament=tournament).update(replaces=None)
    Draw.objects.filter(round__tournament=tournament).delete()
    PairMember.objects.filter(pair__tournament=tournament).delete()
    tournament.delete()
    Player.objects.filter(pk__in=players).delete()


# --- comparing pages -------------------------------------------------------------------------


class _Text(html.parser.HTMLParser):
    """The visible text (outside script and style), and every link."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in ("href", "action") and value:
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.extend(data.split())


# Row ids (pks, new on import) in addresses — /partidas/12/manos/ -> /partidas/N/manos/, /relojes/mesa/12/ — and in
# the one text that shows one: a superseded draw's file name, sorteo-ronda-1-anulado-<draw id>.json.
_IDS = re.compile(r"(/(?:partidas|manos|acta|partida|relojes/mesa)/|[?&]sorteo=|-anulado-)\d+")


def page(client: Client, url: str) -> tuple[str, list[str]]:
    response = client.get(url)
    assert response.status_code == 200, url
    content = response.content.decode()
    if not response["Content-Type"].startswith("text/html"):
        return content, []
    parser = _Text()
    parser.feed(content)
    return _IDS.sub(r"\1N", " ".join(parser.words)), [_IDS.sub(r"\1N", link) for link in parser.links]


def first_difference(before: tuple[str, list[str]], after: tuple[str, list[str]]) -> str:
    for a, b in zip([*before[0].split(" "), *before[1]], [*after[0].split(" "), *after[1]], strict=False):
        if a != b:
            return f"{a!r} != {b!r}"
    return "one is longer"


def public_pages(tournament: Tournament) -> dict[str, tuple[str, list[str]]]:
    """The public pages, as an anonymous visitor sees them, by name (the same names for any
    copy of the tournament: the hands page is found by table number, not by match id)."""
    slug = tournament.slug
    hands_match = Match.objects.get(round__tournament=tournament, round__number=1, recorded_games__isnull=False)
    trio = Pair.objects.get(tournament=tournament, number=3)
    assert trio.members.count() == 3
    urls = {
        "home": reverse("torneo:home"),
        "detail": reverse("torneo:tournament_detail", args=[slug]),
        "pairs": reverse("torneo:tournament_pairs", args=[slug]),
        "rounds": reverse("torneo:rounds_list", args=[slug]),
        "round": reverse("torneo:round_detail", args=[slug, 1]),
        "projector": reverse("torneo:round_projector", args=[slug, 1]),
        "wall": reverse("torneo:round_wall", args=[slug, 1]),
        "draw input": reverse("torneo:draw_input", args=[slug, 1]),
        "results": reverse("scoring:results", args=[slug]),
        "results csv": reverse("scoring:results_csv", args=[slug]),
        "standings": reverse("scoring:standings", args=[slug]),
        "standings csv": reverse("scoring:standings_csv", args=[slug]),
        "pair 1": reverse("scoring:pair_page", args=[slug, 1]),
        "trío": reverse("scoring:pair_page", args=[slug, trio.number]),
        "withdrawn pair": reverse("scoring:pair_page", args=[slug, 2]),
        "find player": reverse("scoring:find_player", args=[slug]) + "?q=Abad",
        "hands": reverse("scoring:hands_match", args=[slug, hands_match.pk]),
    }
    client = Client()
    return {name: page(client, url) for name, url in urls.items()}


# --- tests -----------------------------------------------------------------------------------


def test_export_import_round_trip_gives_the_same_rows_and_the_same_pages():
    original = build()
    before = public_pages(original)
    data = backup.export_tournament(tournament=original)
    assert (data["format"], data["version"]) == ("torneo-mus-backup", 1)
    objects = data["objects"]
    assert [len(objects[label]) for label in ("torneo.pair", "torneo.draw", "torneo.match")] == [8, 2, 4]
    assert sorted(r["fields"]["status"] for r in objects["scoring.resultsubmission"]) == [
        "confirmed",
        "confirmed",
        "confirmed",  # the clock's walkover of the table whose pair B never came, at once (AMM 6.1.b)
        "superseded",
    ]
    hands = objects["scoring.recordedhand"]
    assert [(h["fields"]["number"], h["fields"]["version"]) for h in hands] == [(1, 1), (2, 1), (1, 2), (3, 1)]
    (ruling,) = objects["scoring.handruling"]
    assert ruling["fields"]["hand"] == hands[3]["pk"] and ruling["fields"]["articles"][0] == "4.1a"
    assert hands[2]["fields"]["replaces"] == hands[0]["pk"]
    assert {r["fields"]["user"]: r["fields"]["role"] for r in objects["torneo.tournamentrole"]} == {
        "organiza": "organizer",
        "mesa-copia": "control",
        "juez-copia": "juez",
    }
    assert len(objects["torneo.player"]) == 17  # 7 pairs and a trío, each player once
    assert {p["fields"]["user"] for p in objects["torneo.player"]} == {None, "jugador-copia"}
    text = backup.dumps(data)
    old_pks = {label: {row["pk"] for row in rows} for label, rows in objects.items()}

    wipe(original)
    assert not Tournament.objects.filter(slug=SLUG).exists() and not Player.objects.exists()
    imported = backup.import_tournament(data=backup.loads(text), link_accounts=backup.named_accounts(data))

    assert imported.slug == SLUG and imported.pk != original.pk
    assert imported.live_version == original.live_version + 1  # pages left open reload
    again = backup.export_tournament(tournament=imported)
    assert canonical(again) == canonical(data)  # every field, times set by the database included
    for label, rows in again["objects"].items():
        assert not {row["pk"] for row in rows} & old_pks[label], label  # no original pk reused
    assert Pair.objects.get(tournament=imported, number=1).registered_at == datetime.fromisoformat(
        objects["torneo.pair"][0]["fields"]["registered_at"]
    )
    assert Player.objects.get(user__username="jugador-copia").memberships.get().pair.number == 1
    for model in (Pair, PairMember, Player, Tournament):  # the import starts each row's change log
        assert model.history.filter(history_change_reason=backup.HISTORY_REASON).exists()

    after = public_pages(imported)
    assert after.keys() == before.keys()
    for name in before:
        assert after[name] == before[name], (name, first_difference(before[name], after[name]))


def test_pages_after_an_import_are_fresh_never_a_cached_page_of_the_original():
    original = build()
    cached_before = public_pages(original)  # the round, standings and results bodies are now cached
    stamp = pagecache.tournament_stamp(original)
    data = backup.export_tournament(tournament=original)
    for row in data["objects"]["torneo.pair"]:
        if row["fields"]["number"] == 1:
            row["fields"]["name"] = "Los Restaurados"
    wipe(original)
    imported = backup.import_tournament(data=data)
    assert imported.slug == SLUG and pagecache.tournament_stamp(imported) != stamp
    after = public_pages(imported)
    for name in ("round", "results", "standings", "pairs", "pair 1"):
        assert "Los Restaurados" in after[name][0] and "Los Restaurados" not in cached_before[name][0], name


def test_import_next_to_the_original_is_a_second_independent_tournament(tmp_path):
    original = build()
    data = backup.export_tournament(tournament=original)
    stdout, stderr = io.StringIO(), io.StringIO()
    path = str(tmp_path / "copia.json")
    call_command("tournament_export", SLUG, "-o", path, stderr=stderr)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # personal data
    assert "8 parejas, 4 partidas, 4 actas" in stderr.getvalue()
    everyone = ",".join(backup.named_accounts(data))
    call_command("tournament_import", path, "--link-accounts", everyone, stdout=stdout, stderr=stderr)
    copy = Tournament.objects.get(slug=stdout.getvalue().strip())
    assert copy.slug == f"{SLUG}-2" and copy.name == original.name
    assert "/torneos/open-copia-2/" in stderr.getvalue()

    for part in backup.parts():
        mine, theirs = (
            set(part.queryset(original).values_list("pk", flat=True)),
            set(part.queryset(copy).values_list("pk", flat=True)),
        )
        assert mine and theirs and not mine & theirs, part.label
    assert canonical(backup.export_tournament(tournament=original)) == canonical(data)  # untouched
    assert canonical(backup.export_tournament(tournament=copy)) == canonical(data)
    # A change to the copy stays in the copy.
    match = Match.objects.get(round__tournament=copy, round__number=1, table_number=2)
    kept = Match.objects.get(round__tournament=original, round__number=1, table_number=2)
    result_submit(match=match, by=UserFactory.create(username="mesa2"), games_a=3, games_b=2, reason="Corrección")
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) != (kept.games_a, kept.games_b, kept.result_version)
    assert Match.objects.get(pk=kept.pk).result_version == kept.result_version
    # A third import takes the next free slug.
    assert backup.import_tournament(data=data).slug == f"{SLUG}-3"


def test_missing_users_roles_are_skipped_and_reported_references_left_empty(tmp_path):
    data = backup.export_tournament(tournament=build())
    objects = data["objects"]
    for row in objects["torneo.tournamentrole"]:
        if row["fields"]["role"] == "juez":
            row["fields"]["user"] = "juez-de-otro-sitio"
    next(p for p in objects["torneo.player"] if p["fields"]["user"])["fields"]["user"] = "jugador-de-otro-sitio"
    for row in objects["torneo.draw"]:
        row["fields"]["witness"] = "juez-de-otro-sitio"
    stdout, stderr = io.StringIO(), io.StringIO()
    path = tmp_path / "copia.json"
    path.write_text(backup.dumps(data), encoding="utf-8")
    users = counts()["auth.User"]
    link = ["--link-accounts", "organiza,mesa-copia,juez-copia"]
    call_command("tournament_import", str(path), *link, stdout=stdout, stderr=stderr)
    copy = Tournament.objects.get(slug=stdout.getvalue().strip())
    report = stderr.getvalue()
    assert "Se omite la función «Juez» de «juez-de-otro-sitio»: ese usuario no existe en este sitio." in report
    assert "«jugador-de-otro-sitio» no existe en este sitio" in report
    assert "juez-de-otro-sitio." in report  # the draws' witness, left empty
    assert set(copy.roles.values_list("user__username", flat=True)) == {"organiza", "mesa-copia"}
    assert "Funciones en el torneo importado: Mesa de control: mesa-copia; Organización: organiza." in report
    assert not Player.objects.filter(memberships__pair__tournament=copy, user__isnull=False).exists()
    assert not Draw.objects.filter(round__tournament=copy, witness__isnull=False).exists()
    assert counts()["auth.User"] == users  # no account is ever created


def _bad_files(data: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(what, content, the error's telling part)."""

    def edited(change: Any) -> dict[str, Any]:
        copy = json.loads(json.dumps(data))
        change(copy["objects"])
        return copy

    def last(label: str) -> Any:
        return lambda o: o[label][-1]["fields"]

    return [
        ("not json", b'{"format": "torneo-mus-backup",', "no es JSON válido (línea 1"),
        ("not utf-8", "é".encode("latin-1"), "no es texto UTF-8"),
        ("a list", b"[1, 2]", "no es una copia de seguridad de un torneo"),
        ("a django dump", b'[{"model": "torneo.pair", "pk": 1, "fields": {}}]', "no es una copia de seguridad"),
        ("another format", {**data, "format": "otra-cosa"}, "no es una copia de seguridad de un torneo"),
        ("version 2", {**data, "version": 2}, "Versión de copia de seguridad desconocida: 2"),
        ("no version", {k: v for k, v in data.items() if k != "version"}, "desconocida: null"),
        ("no objects", {**data, "objects": []}, "«objects»: falta"),
        (
            "a missing model",
            edited(lambda o: o.pop("scoring.recordedhand")),
            "faltan los modelos: scoring.recordedhand",
        ),
        ("an unknown model", edited(lambda o: o.update({"torneo.club": []})), "modelos desconocidos: torneo.club"),
        ("two tournaments", edited(lambda o: o["torneo.tournament"].append({"pk": 1, "fields": {}})), "un torneo"),
        ("a row without pk", edited(lambda o: o["torneo.pair"][0].pop("pk")), "torneo.pair, fila 1"),
        (
            "a repeated pk",
            edited(lambda o: o["torneo.session"].append(o["torneo.session"][0])),
            "torneo.session pk",
        ),
        ("an unknown field", edited(lambda o: last("torneo.pair")(o).update({"color": "rojo"})), "color"),
        ("a missing field", edited(lambda o: last("torneo.match")(o).pop("pair_a")), "«pair_a»: falta"),
        (
            "a bad date",
            edited(lambda o: last("torneo.pair")(o).update({"registered_at": "ayer"})),
            "«registered_at»",
        ),
        ("a number for a date", edited(lambda o: last("torneo.pair")(o).update({"registered_at": 1.5})), "«regis"),
        ("a NUL", edited(lambda o: last("torneo.player")(o).update({"first_name": "a\x00b"})), "«first_name»"),
        ("a bad number", edited(lambda o: last("torneo.match")(o).update({"games_a": "tres"})), "«games_a»"),
        ("too long", edited(lambda o: last("torneo.player")(o).update({"phone": "6" * 40})), "más de 20 caracteres"),
        (
            "a dangling reference",
            edited(lambda o: last("torneo.match")(o).update({"pair_a": 999_999})),
            "apunta a torneo.pair pk 999999, que no está en la copia",
        ),
        (
            "a dangling self-reference",
            edited(lambda o: last("scoring.recordedhand")(o).update({"replaces": 999_999})),
            "«replaces»",
        ),
        (
            "another tournament",
            edited(lambda o: last("torneo.pair")(o).update({"tournament": 999_999})),
            "apunta a otro torneo",
        ),
        ("a user that is not a name", edited(lambda o: last("torneo.draw")(o).update({"witness": 5})), "usuario"),
        ("a bad slug", edited(lambda o: last("torneo.tournament")(o).update({"slug": "con espacios"})), "«slug»"),
        (
            # Only the database finds it, on the last model: everything before is rolled back.
            "a duplicate hand version",
            edited(lambda o: last("scoring.recordedhand")(o).update({"number": 2, "version": 1, "is_current": False})),
            "La base de datos rechaza la copia de seguridad; no se ha importado nada",
        ),
    ]


def test_a_bad_file_is_refused_with_a_clear_message_and_nothing_written(tmp_path):
    data = backup.export_tournament(tournament=build())
    before = counts()
    for what, content, message in _bad_files(data):
        path = tmp_path / "copia.json"
        path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
        with pytest.raises(CommandError) as refused:
            call_command("tournament_import", str(path), stdout=io.StringIO(), stderr=io.StringIO())
        assert message in str(refused.value), (what, str(refused.value))
        assert counts() == before, what
    with pytest.raises(CommandError, match="No se puede leer"):
        call_command("tournament_import", str(tmp_path / "no-existe.json"))
    with pytest.raises(CommandError, match="No existe ningún torneo con el identificador «nada»"):
        call_command("tournament_export", "nada")


def test_export_to_stdout_is_the_backup():
    build()
    out = io.StringIO()
    call_command("tournament_export", SLUG, stdout=out)
    data = json.loads(out.getvalue())
    assert data["tournament"]["slug"] == SLUG and set(data["objects"]) == {p.label for p in backup.parts()}
    assert backup.parse(data).tournament_pk == data["tournament"]["pk"]


def test_every_model_that_belongs_to_a_tournament_is_in_the_backup():
    """A new model that refers to a tournament's rows must be added to its app's ``backup_parts``
    (or deliberately left out here, with the reason in torneo/backup.py's docstring)."""
    parts = {part.model for part in backup.parts()}
    left_out = {
        "torneo.WorkerHeartbeat",
        "torneo.AccountToken",
        "torneo.PairTerminal",
        "torneo.PushSubscription",
        "torneo.EmailSubscription",
        "scoring.PrintJob",
        "circuits.CircuitTournament",
        "circuits.PlayerRating",
        "circuits.PersonLink",
    }
    for model in apps.get_models():
        if hasattr(model, "instance_type") or model._meta.label in left_out:  # simple_history's tables
            continue
        refers = {f.related_model for f in model._meta.concrete_fields if f.is_relation} & parts
        assert not refers or model in parts, f"{model._meta.label} no está en backup_parts (torneo.backup.parts())"
    backup.plan()  # and every relation of those models is carried


def test_parts_come_from_the_apps_in_dependency_order_and_backup_does_not_import_scoring():
    """Each app declares its own parts (AppConfig.backup_parts), so torneo.backup, a lower layer,
    never imports scoring: the parts are torneo's first, then scoring's, in dependency order."""
    labels = [part.label for part in backup.parts()]
    assert labels == [
        "torneo.tournament",
        "torneo.session",
        "torneo.tournamentrole",
        "torneo.player",
        "torneo.pair",
        "torneo.pairmember",
        "torneo.round",
        "torneo.draw",
        "torneo.match",
        "torneo.announcement",
        "scoring.resultsubmission",
        "scoring.recordedgame",
        "scoring.recordedhand",
        "scoring.handruling",
        "scoring.matchclock",
        "scoring.clockpause",
        "scoring.clockjuego",
        "scoring.juegoclaim",
        "scoring.delaywarning",
        "scoring.clockevent",
        "referees.incident",
        "referees.sanction",
        "referees.substitution",
    ]
    player = backup.parts()[3]
    assert (player.path, player.also) == ("memberships__pair__tournament", "tournament")
    assert all(part.also == "" for part in backup.parts() if part is not player)
    seen: set[Any] = set()
    for part in backup.parts():  # every relation points back to an earlier part (or itself)
        related = {f.related_model for f in part.model._meta.concrete_fields if f.is_relation}
        assert related & set(apps.get_models()) - {part.model, apps.get_model("auth", "User")} <= seen, part.label
        seen.add(part.model)

    assert backup.__file__ is not None
    tree = parse_file(backup.__file__)
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names] + [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ]
    assert imported and not [name for name in imported if name.split(".")[0] == "scoring"]


# --- accounts of this site named by a file ---------------------------------------------------


def crafted(tmp_path: Any) -> tuple[str, Any]:
    """A file that names «victima», an existing account of this site in no tournament, as a juez
    and as a player's account of a tournament of «organiza»: the backup of a real one, edited."""
    organizer = UserFactory(username="organiza")
    UserFactory(username="juez-copia")
    t = tournament_create(
        by=organizer,
        data={
            "name": "Open a medida",
            "slug": "a-medida",
            "start_date": date(2026, 12, 12),
            "end_date": date(2026, 12, 12),
            "status": Tournament.Status.REGISTRATION_OPEN,
        },
    )
    role_grant(tournament=t, username="juez-copia", role="juez")
    pair_register(tournament=t, players=[player_data(1), player_data(2)])
    data = backup.export_tournament(tournament=t)
    for row in data["objects"]["torneo.tournamentrole"]:
        if row["fields"]["role"] == "juez":
            row["fields"]["user"] = "victima"
    data["objects"]["torneo.player"][0]["fields"]["user"] = "victima"
    path = tmp_path / "a-medida.json"
    path.write_text(backup.dumps(data), encoding="utf-8")
    return str(path), UserFactory(username="victima")


def test_an_existing_account_the_file_names_is_not_linked_unless_the_import_names_it(tmp_path):
    path, victim = crafted(tmp_path)
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command("tournament_import", path, stdout=stdout, stderr=stderr)
    copy = Tournament.objects.get(slug=stdout.getvalue().strip())
    assert copy.slug == "a-medida-2" and not copy.roles.exists()  # nobody named, nobody linked
    assert not Player.objects.filter(user=victim).exists()
    assert Player.objects.filter(tournament=copy).count() == 2  # the players are kept, without account
    report = stderr.getvalue()
    assert "Cuentas vinculadas: ninguna." in report
    assert "Cuentas no vinculadas (existen en este sitio, pero no se han nombrado con --link-account): " in report
    assert "--link-account): organiza, victima." in report
    assert "Se omite la función «Juez» de «victima»: la cuenta existe en este sitio, pero no se ha vinculado" in report
    # The site's admin makes the file's organizer the copy's organizer: still no password link for
    # an account of this site the file put in it (torneo.services.accounts).
    organizer = get_user_model().objects.get(username="organiza")
    role_grant(tournament=copy, username="organiza", role="organizer")
    assert not password_reset_allowed(by=organizer, tournament=copy, account=victim)


def test_an_account_named_at_import_is_linked_and_listed(tmp_path):
    path, victim = crafted(tmp_path)
    stdout, stderr = io.StringIO(), io.StringIO()
    link = ["--link-account", "victima", "--link-accounts", "organiza, juez-copia"]
    call_command("tournament_import", path, *link, stdout=stdout, stderr=stderr)
    copy = Tournament.objects.get(slug=stdout.getvalue().strip())
    assert set(copy.roles.values_list("user__username", "role")) == {("organiza", "organizer"), ("victima", "juez")}
    assert Player.objects.get(user=victim).tournament_id == copy.pk
    report = stderr.getvalue()
    assert "Cuentas vinculadas: organiza, victima." in report and "no vinculadas" not in report
    assert "--link-account: la copia no nombra estas cuentas: juez-copia." in report  # the file's juez is victima
    assert "Funciones en el torneo importado: Juez: victima; Organización: organiza." in report

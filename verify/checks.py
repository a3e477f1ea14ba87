"""The verifier's checks, each a Finding naming its article (see verify/__init__.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from verify.draws import exact_draw, halves, liguillas
from verify.matching import fewest_rematches

COMMITMENT_DOMAIN = "torneo-mus/compromiso/v1\n"
SEED_DOMAIN = "torneo-mus/semilla/v1\n"


@dataclass(frozen=True)
class Finding:
    article: str
    ok: bool
    what: str


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical(record: Any) -> bytes:
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def commitment(secret: str) -> str:
    return hashlib.sha256((COMMITMENT_DOMAIN + secret).encode()).hexdigest()


def derive_seed(secret: str, public: str) -> str:
    parts = [unicodedata.normalize("NFC", secret).strip(), unicodedata.normalize("NFC", public).strip()]
    joined = json.dumps(parts, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256((SEED_DOMAIN + joined).encode()).hexdigest()


def check_signature(envelope: dict[str, Any], key: str | None) -> list[Finding]:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    firma = envelope.get("firma") or {}
    public = firma.get("clave_publica", "")
    out = []
    if key is not None:
        out.append(
            Finding(
                "firma",
                public == key,
                "la clave del registro es la del sitio"
                if public == key
                else f"la clave del registro ({public[:12]}…) no es la del sitio ({key[:12]}…)",
            )
        )
    try:
        Ed25519PublicKey.from_public_bytes(_b64url(public)).verify(
            _b64url(firma.get("valor", "")), canonical(envelope["registro"])
        )
        out.append(Finding("firma", True, "la firma Ed25519 cubre el registro tal como está"))
    except (InvalidSignature, ValueError, TypeError):
        out.append(Finding("firma", False, "la firma no corresponde al registro: se ha cambiado después de firmarlo"))
    return out


def check_draw(round_number: int, draw: dict[str, Any], generator: Any = None) -> list[Finding]:
    where = f"ronda {round_number}"
    out: list[Finding] = []
    secret, public, seed = draw.get("secreto"), draw.get("valor_publico"), draw.get("semilla")
    if draw.get("estado") == "committed":
        return [Finding("5.5", secret is None, f"{where}: sorteo aún sin publicar, solo su compromiso")]
    if not secret:
        return [Finding("5.5", False, f"{where}: un sorteo publicado sin su secreto no se puede comprobar")]
    kept = commitment(secret) == draw.get("compromiso")
    verb = "corresponde" if kept else "NO corresponde"
    out.append(Finding("5.5", kept, f"{where}: el secreto {verb} al compromiso publicado antes del sorteo"))
    if public is not None:
        good = derive_seed(secret, public) == seed
        out.append(
            Finding(
                "5.5",
                good,
                f"{where}: la semilla {'sale' if good else 'NO sale'} del secreto y del valor público «{public}»",
            )
        )
    outputs = draw.get("salida") or {}
    for request in draw.get("entrada") or []:
        label = request.get("label", "")
        pool = f"{where}{' · ' + label if label else ''}"
        result = outputs.get(label)
        if result is None:
            out.append(Finding("5.5", False, f"{pool}: falta la salida del sorteo"))
            continue
        pairs = list(request.get("pairs", []))
        if generator is not None and seed:
            own_seed = seed if request.get("group_count") or not label else f"{seed}/{label}"
            out.append(_check_with_site(pool, generator, request, result, own_seed))
        if "groups" in result:
            out += _check_groups(pool, pairs, result["groups"])
            if seed and request.get("group_count"):
                pots = request.get("pots")
                fair = True
                if pots is not None:
                    checked = _check_pots(pool, pairs, pots, int(request["group_count"]))
                    out += checked
                    fair = checked[0].ok
                if fair:  # malformed bombos are reported above; nothing to deal from them
                    again = liguillas(pairs, int(request["group_count"]), seed, pots)
                    same = [sorted(g) for g in again] == [sorted(g) for g in result["groups"]]
                    verb = "son" if same else "NO son"
                    out.append(Finding("5.5", same, f"{pool}: las liguillas {verb} las que da la semilla"))
            continue
        if seed:
            out += _check_choice(pool, request, result, f"{seed}/{label}" if label else seed)
        drawn = [p for m in result.get("matches", []) for p in m]
        bye = result.get("bye")
        if bye is not None:
            drawn.append(bye)
        same = sorted(drawn) == sorted(pairs)
        out.append(
            Finding(
                "5.5",
                same,
                f"{pool}: cada pareja sorteada una vez" if same else f"{pool}: no son las parejas de la entrada",
            )
        )
        if bye is not None:
            had = Counter(request.get("byes", []))
            fewest = min(had[p] for p in pairs)
            ok = bye in pairs and had[bye] == fewest
            out.append(
                Finding(
                    "5.6",
                    ok,
                    f"{pool}: la exenta ({bye}) {'es' if ok else 'NO es'} de las parejas con menos exentas ({fewest})",
                )
            )
        met = {frozenset(h) for h in request.get("history", []) if len(h) == 2}
        actual = sum(1 for m in result.get("matches", []) if frozenset(m) in met)
        if same:
            # 5.7 comes after 5.6: the fewest rematches over every exenta 5.6 allows (verify/matching.py).
            had = Counter(request.get("byes", []))
            least = min(had[p] for p in pairs)
            optimum = fewest_rematches(pairs, met, [p for p in pairs if had[p] == least])
            ok = actual == optimum
            out.append(Finding("5.7", ok, f"{pool}: {actual} partidas repetidas; el mínimo posible es {optimum}"))
    return out


def _check_with_site(pool: str, generator: Any, request: dict[str, Any], result: dict[str, Any], seed: str) -> Finding:
    """The draw again by the site's own published generator (verify/site_generator.py)."""
    from verify.site_generator import recompute

    try:
        again = recompute(generator, request, seed)
    except Exception as exc:  # the site's generator refusing the input is a finding, not a crash
        return Finding("5.5", False, f"{pool}: el generador del sitio no acepta la entrada: {exc}")
    if "groups" in result:
        same = [sorted(g) for g in again] == [sorted(g) for g in result["groups"]]
    else:
        matches, bye = again
        same = {frozenset(m) for m in matches} == {frozenset(m) for m in result.get("matches", [])}
        same = same and bye == result.get("bye")
    verb = "es" if same else "NO es"
    return Finding("5.5", same, f"{pool}: el sorteo {verb} el que da el generador publicado del sitio con esa semilla")


def _check_choice(pool: str, request: dict[str, Any], result: dict[str, Any], seed: str) -> list[Finding]:
    """The draw's random choice itself, recomputed from the seed where the method is re-implemented
    independently (verify/draws.py: up to 22 pairs); larger draws are said not recomputed."""
    if "top" in request:  # a Swiss's first round seeded by rating (docs/draws.md)
        top = set(request["top"])
        ok = len(top) == len(request.get("pairs", [])) // 2 and all(
            (a in top) != (b in top) for a, b in result.get("matches", [])
        )
        out = [Finding("5.5", ok, f"{pool}: la mitad fuerte {'contra' if ok else 'NO contra'} la otra mitad")]
        again: tuple[list[tuple[Any, Any]], Any] | None = halves(request, seed)
    else:
        out = []
        again = exact_draw(request, seed)
    if again is None:
        return [
            *out,
            Finding("5.5", True, f"{pool}: sorteo grande (método {result.get('method')}): elección no recomputada"),
        ]
    matches, bye = again
    same = {frozenset(m) for m in matches} == {frozenset(m) for m in result.get("matches", [])} and bye == result.get(
        "bye"
    )
    if same:
        return [*out, Finding("5.5", True, f"{pool}: el sorteo es exactamente el que da la semilla")]
    drawn = ", ".join(f"{a}–{b}" for a, b in matches) + (f", exenta {bye}" if bye is not None else "")
    return [*out, Finding("5.5", False, f"{pool}: el sorteo NO es el que da la semilla, que da {drawn}")]


def _check_pots(pool: str, pairs: list[int], pots: list[list[int]], groups: int) -> list[Finding]:
    """Liguillas seeded by rating: the bombos (frozen with the commitment) hold every pair once,
    one per liguilla (the last bombo, the pairs left)."""
    whole = sorted(p for pot in pots for p in pot) == sorted(pairs)
    sized = bool(pots) and all(len(pot) == groups for pot in pots[:-1]) and 0 < len(pots[-1]) <= groups
    ok = whole and sized
    return [Finding("5.5", ok, f"{pool}: {len(pots)} bombos de {groups}" + ("" if ok else ": no reparten las parejas"))]


def _check_groups(pool: str, pairs: list[int], groups: list[list[int]]) -> list[Finding]:
    """A liguillas draw: every pair in one liguilla, the liguillas as even as they can be."""
    drawn = sorted(p for group in groups for p in group)
    same = drawn == sorted(pairs)
    sizes = sorted(len(group) for group in groups)
    even = bool(sizes) and sizes[-1] - sizes[0] <= 1
    return [
        Finding(
            "5.5", same, f"{pool}: cada pareja en una liguilla" if same else f"{pool}: no son las parejas de la entrada"
        ),
        Finding(
            "5.5", even, f"{pool}: liguillas de {', '.join(map(str, sizes))} parejas" + ("" if even else ": desiguales")
        ),
    ]


def check_liguillas(record: dict[str, Any]) -> list[Finding]:
    """The liguillas as drawn: each partida of their rounds between two pairs of one liguilla, and,
    once the cuadro began, every two pairs of a liguilla met exactly once (a full round robin)."""
    rounds = [r for r in record.get("rondas", []) if r.get("fase") == "groups"]
    drawn = [d for r in rounds for d in r.get("sorteos", []) if d.get("estado") == "published"]
    groups = [g for d in drawn for result in (d.get("salida") or {}).values() for g in result.get("groups", [])]
    if not groups:
        return []
    where = {p: i for i, group in enumerate(groups) for p in group}
    met: Counter[frozenset[int]] = Counter()
    outside = []
    for rnd in rounds:
        for m in rnd.get("partidas", []):
            if m["b"] is None:
                continue
            met[frozenset((m["a"], m["b"]))] += 1
            if where.get(m["a"]) != where.get(m["b"]) or m["a"] not in where:
                outside.append(f"ronda {rnd['numero']}: {m['a']}–{m['b']}")
    out = [
        Finding(
            "5.5",
            not outside,
            "cada partida de las liguillas entre dos parejas de la misma liguilla"
            if not outside
            else f"partidas entre liguillas distintas: {', '.join(outside)}",
        )
    ]
    if any(r.get("fase") == "bracket" and r.get("partidas") for r in record.get("rondas", [])):
        wrong = [
            f"{a}–{b} ({met[frozenset((a, b))]} veces)"
            for group in groups
            for i, a in enumerate(group)
            for b in group[i + 1 :]
            if met[frozenset((a, b))] != 1
        ]
        out.append(
            Finding(
                "liguillas",
                not wrong,
                "en cada liguilla se enfrentaron todas las parejas una vez"
                if not wrong
                else f"en las liguillas no se enfrentaron una vez: {', '.join(wrong)}",
            )
        )
    return out


def check_round(rnd: dict[str, Any], games_to_win: int) -> list[Finding]:
    out: list[Finding] = []
    where = f"ronda {rnd['numero']}"
    published = [d for d in rnd.get("sorteos", []) if d.get("estado") == "published"]
    grouped = any("groups" in result for d in published for result in (d.get("salida") or {}).values())
    if published and rnd.get("partidas") and not grouped:
        drawn = {
            frozenset(m) for result in (published[-1].get("salida") or {}).values() for m in result.get("matches", [])
        }
        byes = {result.get("bye") for result in (published[-1].get("salida") or {}).values()} - {None}
        played = {frozenset((m["a"], m["b"])) for m in rnd["partidas"] if m["b"] is not None}
        exentas = {m["a"] for m in rnd["partidas"] if m["b"] is None}
        ok = played == drawn and exentas == byes
        out.append(Finding("5.5", ok, f"{where}: las partidas {'son' if ok else 'NO son'} las del sorteo publicado"))
    for m in rnd.get("partidas", []):
        table = f"{where}, mesa {m.get('mesa') or '—'}"
        if m["resultado"] == "played":
            ga, gb, winner = m["juegos_a"], m["juegos_b"], m["ganadora"]
            expected = m["a"] if (ga or 0) > (gb or 0) else m["b"]
            ok = winner in (m["a"], m["b"]) and max(ga or 0, gb or 0) == games_to_win and winner == expected
            out.append(
                Finding("1.7.a", ok, f"{table}: {ga}–{gb}, ganadora {winner}" + ("" if ok else ": resultado imposible"))
            )
        if m["resultado"] != "pending" and m.get("versiones"):
            last = max(v["version"] for v in m["versiones"])
            ok = m["version"] in {v["version"] for v in m["versiones"]} and m["version"] <= last
            out.append(Finding("3.16", ok, f"{table}: cuenta la versión {m['version']} del acta"))
    return out


def verify_record(envelope: dict[str, Any], *, key: str | None = None, generator: Any = None) -> list[Finding]:
    """Every finding about ``envelope`` (a signed record), in order."""
    record = envelope.get("registro")
    if not isinstance(record, dict) or record.get("formato") != "registro-torneo-mus":
        return [Finding("formato", False, "no es un registro de torneo de mus")]
    findings = check_signature(envelope, key)
    if record.get("version") != 1:
        findings.append(Finding("formato", False, f"versión {record.get('version')} desconocida (se conoce la 1)"))
        return findings
    games = int(record["torneo"]["reglas"].get("games_to_win") or 3)
    numbers = [p["numero"] for p in record.get("parejas", [])]
    findings.append(
        Finding("parejas", len(numbers) == len(set(numbers)), f"{len(numbers)} parejas, cada número una vez")
    )
    for rnd in record.get("rondas", []):
        for draw in rnd.get("sorteos", []):
            if draw.get("estado") == "superseded":
                continue
            findings += check_draw(rnd["numero"], draw, generator)
        findings += check_round(rnd, games)
    findings += check_liguillas(record)
    findings += check_tables(record)
    findings += check_classification(record)
    return findings


def _row(row: tuple[int, int, int, int]) -> str:
    place, to, pair, points = row
    return f"{place}.º{f'–{to}.º' if to != place else ''} pareja {pair} ({points} puntos)"


def check_classification(record: dict[str, Any]) -> list[Finding]:
    """The classification recomputed from the partidas and the rules (verify/standings.py) against
    the one the site publishes, section by section and row by row."""
    from verify.standings import classification, tiebreak_order

    published = record.get("clasificacion") or {}
    mine = classification(record)
    out: list[Finding] = []
    order = ", ".join(tiebreak_order(record["torneo"]["reglas"]))
    theirs = [
        [(r["puesto"], r["hasta"], r["pareja"], r["puntos"]) for r in s.get("filas", [])]
        for s in published.get("secciones", [])
    ]
    if len(theirs) != len(mine.sections):
        out.append(
            Finding(
                "clasificación",
                False,
                f"el registro tiene {len(theirs)} secciones; las reglas del torneo dan {len(mine.sections)}",
            )
        )
    for number, (shown, computed) in enumerate(zip(theirs, mine.sections, strict=False), start=1):
        where = f"clasificación{f' (sección {number})' if len(mine.sections) > 1 else ''}"
        differ = next((i for i, (x, y) in enumerate(zip(shown, computed, strict=False)) if x != y), None)
        if differ is None and len(shown) != len(computed):
            differ = min(len(shown), len(computed))
        if differ is None:
            out.append(
                Finding(
                    "clasificación",
                    True,
                    f"{where}: los {len(shown)} puestos salen de los resultados (puntos, después {order})",
                )
            )
            continue
        said = _row(shown[differ]) if differ < len(shown) else "nada"
        gives = _row(computed[differ]) if differ < len(computed) else "nada"
        out.append(
            Finding(
                "clasificación",
                False,
                f"{where}, fila {differ + 1}: el registro dice {said}; los resultados dan {gives}",
            )
        )
    excluded = sorted(published.get("excluidas", []))
    ok = excluded == sorted(mine.excluded)
    out.append(
        Finding(
            "3.16.b",
            ok,
            f"parejas expulsadas fuera de la clasificación: {mine.excluded or 'ninguna'}"
            if ok
            else f"el registro excluye {excluded or 'ninguna'}; las expulsadas son {mine.excluded or 'ninguna'}",
        )
    )
    finished = record["torneo"].get("estado") == "finished"
    says = bool(published.get("final"))
    ok = says == (finished or mine.decided)
    out.append(
        Finding(
            "clasificación",
            ok,
            ("la clasificación es definitiva" if says else "la clasificación aún no es definitiva")
            + ("" if ok else (": faltan resultados o rondas" if says else ": el torneo ya está decidido")),
        )
    )
    for pair, round_out in mine.played_after_out:
        out.append(
            Finding("eliminación", False, f"la pareja {pair}, eliminada en la ronda {round_out}, volvió a jugar")
        )
    if mine.qualifiers is not None:
        expected, drawn = mine.qualifiers
        ok = expected == drawn
        out.append(
            Finding(
                "cuadro",
                ok,
                f"el cuadro empieza con las {len(drawn)} clasificadas de las liguillas"
                if ok
                else f"el cuadro tiene {sorted(drawn - expected)} sin plaza; le faltan {sorted(expected - drawn)}",
            )
        )
    return out


_LINE_FIELDS = (
    "puesto",
    "hasta",
    "pareja",
    "jugadas",
    "ganadas",
    "perdidas",
    "exentas",
    "puntos",
    "juegos",
    "tantos",
    "estado",
    "pasa",
)


def check_tables(record: dict[str, Any]) -> list[Finding]:
    """The standings tables (``tablas``) recomputed from the partidas and the rules, line by line."""
    from verify.standings import standings

    published = record.get("tablas")
    if published is None:
        return [Finding("clasificación", True, "el registro no trae las tablas por rondas (anterior a ellas)")]
    mine = standings(record)
    theirs = {
        t.get("grupo", ""): [tuple(row.get(k) for k in _LINE_FIELDS) for row in t.get("filas", [])] for t in published
    }
    out: list[Finding] = []
    if set(theirs) != set(mine):
        out.append(
            Finding(
                "clasificación",
                False,
                f"las tablas del registro son {sorted(theirs)}; los resultados dan {sorted(mine)}",
            )
        )
    for pool in sorted(set(theirs) & set(mine)):
        where = f"tabla{' ' + pool if pool else ''}"
        shown, computed = theirs[pool], [tuple(line) for line in mine[pool]]
        differ = next((i for i, (x, y) in enumerate(zip(shown, computed, strict=False)) if x != y), None)
        if differ is None and len(shown) != len(computed):
            differ = min(len(shown), len(computed))
        if differ is None:
            out.append(Finding("clasificación", True, f"{where}: las {len(shown)} líneas salen de los resultados"))
            continue
        said = dict(zip(_LINE_FIELDS, shown[differ], strict=True)) if differ < len(shown) else "nada"
        gives = dict(zip(_LINE_FIELDS, computed[differ], strict=True)) if differ < len(computed) else "nada"
        out.append(
            Finding(
                "clasificación",
                False,
                f"{where}, línea {differ + 1}: el registro dice {said}; los resultados dan {gives}",
            )
        )
    return out

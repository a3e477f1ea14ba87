"""The open record of a tournament as data (version 1 of docs/registro.schema.json).

Everything a third party needs to check the tournament end to end, and nothing personal: the rule
set and format; the pairs by number with their public names; every round with its draws (the
frozen input, the commitment, the secret and the public value once published, the juez who
witnessed it, the output) and its partidas with every counted version's time; the sanctions that
changed a result; the standings and the final classification as the site publishes them. A draw
not yet published keeps its secret out (the draw would be predictable)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from referees.models import Sanction
from scoring.models import ResultSubmission
from scoring.selectors.standings import classification, standings
from torneo.models import Draw, Match, Pair, Round, Tournament

FORMAT = "registro-torneo-mus"
VERSION = 1

RULE_FIELDS = (
    "rule_set",
    "games_to_win",
    "points_per_game",
    "points_per_win",
    "tiebreaks",
    "format",
    "max_losses",
    "same_losses",
    "repesca_until_round",
    "pool_b_max_losses",
    "repesca_reentry_round",
    "swiss_rounds",
    "group_count",
    "group_qualifiers",
    "seed_by_rating",
    "final_phase_from_round",
    "first_table_number",
    "results_double_check",
    "allow_trios",
)


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _person(user: Any) -> str | None:
    """A juez as the record names them: their full name, else their user name."""
    if user is None:
        return None
    return str(user.get_full_name() or user.get_username())


def tournament_record(tournament: Tournament) -> dict[str, Any]:
    pairs = list(
        Pair.objects.filter(tournament=tournament)
        .exclude(status=Pair.Status.WAITLISTED)
        .prefetch_related("members__player")
        .order_by("number")
    )
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    draws: dict[int, list[Draw]] = {}
    for draw in (
        Draw.objects.filter(round__tournament=tournament).select_related("witness").order_by("committed_at", "pk")
    ):
        draws.setdefault(draw.round_id, []).append(draw)
    matches: dict[int, list[Match]] = {}
    for match in (
        Match.objects.filter(round__tournament=tournament)
        .select_related("pair_a", "pair_b", "winner")
        .order_by("table_number", "pool", "slot", "pk")
    ):
        matches.setdefault(match.round_id, []).append(match)
    versions: dict[int, list[ResultSubmission]] = {}
    for sub in ResultSubmission.objects.filter(match__round__tournament=tournament).order_by("version", "pk"):
        versions.setdefault(sub.match_id, []).append(sub)
    result = classification(tournament)
    return {
        "formato": FORMAT,
        "version": VERSION,
        "generado": timezone.now().isoformat(),
        "sitio": settings.SITE_URL,
        "torneo": {
            "slug": tournament.slug,
            "nombre": tournament.name,
            "lugar": tournament.venue,
            "inicio": tournament.start_date.isoformat(),
            "fin": tournament.end_date.isoformat(),
            "estado": tournament.status,
            "reglas": {field: getattr(tournament, field) for field in RULE_FIELDS},
        },
        "parejas": [
            {
                "numero": pair.number,
                "nombre": pair.display_name,
                "jugadores": [m.player.full_name for m in pair.ordered_members()],
                "estado": pair.status,
            }
            for pair in pairs
        ],
        "rondas": [
            {
                "numero": r.number,
                "tipo": r.kind,
                "fase": r.phase,
                "final": r.is_final,
                "estado": r.status,
                "sorteos": [_draw(d) for d in draws.get(r.pk, [])],
                # A round not published yet keeps its partidas out: its draw is not public.
                "partidas": [_match(m, versions.get(m.pk, [])) for m in matches.get(r.pk, [])]
                if r.status == Round.Status.PUBLISHED
                else [],
            }
            for r in rounds
        ],
        "sanciones": _sanctions(tournament),
        "tablas": _tables(tournament),
        "clasificacion": {
            "final": result.final,
            "secciones": [
                {
                    "titulo": section.title,
                    "filas": [
                        {
                            "puesto": row.position,
                            "hasta": row.position_to,
                            "pareja": row.pair.number,
                            "puntos": row.points,
                        }
                        for row in section.rows
                    ],
                }
                for section in result.sections
            ],
            "excluidas": [p.number for p in result.excluded],
        },
    }


def _tables(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as the site publishes them (the standings page): one table per pool of an
    elimination format, per liguilla, or the Swiss's, each line with its figures and status."""
    return [
        {
            "grupo": table.pool,
            "tipo": table.kind,
            "filas": [
                {
                    "puesto": row.position,
                    "hasta": row.position_to,
                    "pareja": row.pair.number,
                    "jugadas": row.played,
                    "ganadas": row.wins,
                    "perdidas": row.losses,
                    "exentas": row.byes,
                    "puntos": row.points,
                    "juegos": row.juegos_diff,
                    "tantos": row.tantos_diff,
                    "estado": row.status,
                    "pasa": row.qualifies,
                }
                for row in table.rows
            ],
        }
        for table in standings(tournament).tables
    ]


def _place(row: Any) -> dict[str, Any]:
    return {"puesto": row.position, "hasta": row.position_to, "pareja": row.pair.number, "puntos": row.points}


def _draw(draw: Draw) -> dict[str, Any]:
    published = draw.status != Draw.Status.COMMITTED
    return {
        "estado": draw.status,
        "compromiso": draw.commitment,
        "secreto": draw.secret if published else None,
        "valor_publico": draw.public_value or None,
        "semilla": draw.seed or None,
        "entrada": draw.requests,
        "salida": draw.results if published else None,
        "juez": _person(draw.witness),
        "comprometido": _when(draw.committed_at),
        "publicado": _when(draw.published_at),
        "motivo": draw.reason or None,
    }


def _match(match: Match, subs: list[ResultSubmission]) -> dict[str, Any]:
    return {
        "mesa": match.table_number,
        "grupo": match.pool,
        "posicion": match.slot,
        "a": match.pair_a.number,
        "b": match.pair_b.number if match.pair_b else None,
        "resultado": match.outcome,
        "juegos_a": match.games_a,
        "juegos_b": match.games_b,
        "tantos_a": match.tantos_a,
        "tantos_b": match.tantos_b,
        "ganadora": match.winner.number if match.winner else None,
        "version": match.result_version,
        "versiones": [
            {
                "version": s.version,
                "estado": s.status,
                "origen": s.source,
                "resultado": s.outcome,
                "juegos_a": s.games_a,
                "juegos_b": s.games_b,
                "hora": _when(s.submitted_at),
            }
            for s in subs
        ],
    }


def _sanctions(tournament: Tournament) -> list[dict[str, Any]]:
    """The sanctions that changed a result (a juego or the partida: they carry a result version)."""
    rows = (
        Sanction.objects.filter(tournament=tournament, result__isnull=False)
        .select_related("match__round", "pair", "result")
        .order_by("number", "version")
    )
    return [
        {
            "numero": s.number,
            "version": s.version,
            "estado": s.status,
            "articulo": s.article,
            "sancion": s.step,
            "pareja": s.pair.number,
            "ronda": s.match.round.number if s.match else None,
            "mesa": s.match.table_number if s.match else None,
            "version_resultado": s.result.version if s.result else None,
            "hora": _when(s.given_at),
        }
        for s in rows
    ]

"""The words of a notice (torneo/notices.py), in the active language: a notice is kept as what
happened (its kind and facts, JSON), and rendered when sent — the phones' pushes in the site's
language, each e-mail in the language its address was given in."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def _pair(number_and_name: Any) -> str:
    """«Pareja 48 (Los de Tolosa)»: its number and, if it has one, its name; nothing else."""
    number, name = number_and_name
    label = _("Pareja %(n)s") % {"n": number}
    return f"{label} ({name})" if name else label


def _table(notice: dict[str, Any]) -> str:
    return str(notice.get("table") or "—")


def render(notice: dict[str, Any]) -> dict[str, str]:
    """The push payload (torneo/push/send.py) of a notice, in the active language."""
    kind, table = notice["kind"], _table(notice)
    if kind == "ronda":
        title = _("%(t)s · Ronda %(r)s: mesa %(m)s") % {"t": notice["tournament"], "r": notice["round"], "m": table}
        body = _("Contra %(rival)s") % {"rival": _pair(notice["rival"])}
    elif kind == "exenta":
        title = _("%(t)s · Ronda %(r)s: exenta") % {"t": notice["tournament"], "r": notice["round"]}
        body = _("Tu pareja queda exenta en esta ronda.")
    elif kind == "confirmar":
        title = _("Mesa %(m)s: confirmad el resultado") % {"m": table}
        body = _("%(pair)s ha anotado %(theirs)s-%(mine)s. Confirmadlo en vuestra página o avisad al juez.") % {
            "pair": _pair(notice["reporter"]),
            "theirs": "—" if notice["theirs"] is None else notice["theirs"],
            "mine": "—" if notice["mine"] is None else notice["mine"],
        }
    elif kind == "6.4":
        title = _("Mesa %(m)s: quedan 10 minutos") % {"m": table}
        body = _("Empiezan los ajustes de terminación (AMM 6.4).")
    elif kind == "6.2-5":
        title = _("Mesa %(m)s: quedan 5 minutos") % {"m": table}
        body = _("A los 5 minutos se alcanza el tiempo máximo de la partida (AMM 6.2).")
    elif kind == "aviso":
        title = _("Llaman al juez: mesa %(m)s") % {"m": table}
        body = _(notice["reason"]) if notice.get("reason") else ""
    elif kind == "voy":
        title = _("Mesa %(m)s: el juez va hacia la mesa") % {"m": table}
        body = _("Un juez ha atendido vuestro aviso.")
    else:
        raise ValueError(f"aviso desconocido: {kind!r}")
    return {"title": title, "body": body, "url": notice["url"], "tag": notice["tag"]}

"""Optional: every draw's exact random choice, whatever its size, by the site's own published
generator — the ``torneo/draws`` package of the site's open source, which needs no Django — when
the user points the verifier at a copy of it (``--generador DIR``).

It is not independent (it is the site's code), so it answers a narrower question than the other
checks: is the published draw the one the published algorithm gives from that seed and that frozen
input? The independent checks (verify/draws.py up to 22 pairs and the liguillas; 5.6 and 5.7 for
any size) stay as they are; this one covers the larger draws, whose sampler, construction and
matching the verifier does not re-implement.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def load(directory: str) -> ModuleType:
    """The generator from a copy of the site's source (the folder holding ``torneo/draws``)."""
    root = Path(directory).resolve()
    if not (root / "torneo" / "draws" / "__init__.py").is_file():
        raise ValueError(f"{directory} no contiene torneo/draws (el código del sitio)")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module("torneo.draws")


def _ids(raw: dict[str, Any], pairs: list[Any]) -> dict[Any, Any]:
    """A group's keys back to the pair ids (JSON made them text)."""
    known = set(pairs)
    out: dict[Any, Any] = {}
    for key, label in raw.items():
        text = isinstance(key, str) and key not in known and key.lstrip("-").isdigit()
        out[int(key) if text and int(key) in known else key] = label
    return out


def recompute(generator: ModuleType, request: dict[str, Any], seed: str) -> Any:
    """What the site's generator draws for ``request`` with ``seed``: (matches, exenta), or the
    liguillas (a list of groups) for a liguillas request."""
    pairs = list(request.get("pairs", []))
    if request.get("group_count"):
        groups = generator.allocate_liguillas(
            pairs, group_count=int(request["group_count"]), seed=seed, pots=request.get("pots")
        )
        return [list(g) for g in groups]
    if "top" in request:
        halves = importlib.import_module("torneo.draws.halves")
        draw = halves.halves_draw(pairs, top=request["top"], history=request.get("history", []), seed=seed)
    else:
        group = request.get("group")
        draw = generator.make_draw(
            pairs,
            history=request.get("history", []),
            byes=request.get("byes", []),
            group=None if group is None else _ids(group, pairs),
            seed=seed,
        )
    return [list(m) for m in draw.matches], draw.bye

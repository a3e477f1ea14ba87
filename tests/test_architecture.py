"""The direction of imports (docs/architecture.md), checked on the source: a newcomer's import that
climbs a layer fails here, not in review.

- Pure cores (the mus engine, the standings, the draw generators, the clock, the circuits'
  ranking) import nothing of
  Django or of the apps but other pure cores: they run and are tested without a database.
- torneo is the lower app: none of its modules imports scoring except its pure cores (the demo
  builder aside, which plays whole tournaments through scoring's services). The project's URLconf
  names scoring's URLs by string (``include("scoring.urls")``): that is composition, not an import.
- Inside an app: models import no services, selectors or web layers; services and selectors
  import no web layers (views, forms, API, URLs).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE_CORES = (
    "scoring.mus",
    "scoring.standings",
    "torneo.clock",
    "torneo.draws",
    "referees.rules",
    "circuits.ranking",
    "circuits.rating",
)
NOT_PURE = ("torneo.draws.manager",)  # the draws' one bridge to the database
TORNEO_MAY_IMPORT_SCORING = ("torneo.demo.build",)
WEB = ("views", "forms", "api", "urls")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: str) -> list[tuple[str, Path]]:
    return sorted(
        (_module_name(p), p) for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts
    )


_IMPORTS_SCRIPT = """
import ast, json, sys
found = {}
for name in json.load(sys.stdin):
    mods = []
    for node in ast.walk(ast.parse(open(name, encoding="utf-8").read())):
        if isinstance(node, ast.Import):
            mods += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mods.append(node.module)
            mods += [node.module + "." + alias.name for alias in node.names]
    found[name] = mods
json.dump(found, sys.stdout)
"""


@functools.cache
def _all_imports() -> dict[str, list[str]]:
    """Every module each file of the apps imports, at the top or inside a function (``from scoring
    import selectors`` imports scoring.selectors). Parsed in a fresh interpreter: CPython 3.11's
    ``ast.parse`` fails with «AST constructor recursion depth mismatch» in a process where a
    RecursionError happened before (the bad-input tests send JSON nested too deep), and this test
    may share its pytest worker with them."""
    return _parsed([str(p) for package in ("torneo", "scoring", "referees") for p in (ROOT / package).rglob("*.py")])


def _parsed(paths: list[str]) -> dict[str, list[str]]:
    answer = subprocess.run(
        [sys.executable, "-c", _IMPORTS_SCRIPT], input=json.dumps(paths), capture_output=True, text=True, check=True
    )
    return json.loads(answer.stdout)


def _imports(path: Path) -> list[str]:
    """Every module the file imports, at the top or inside a function."""
    found = _all_imports().get(str(path))
    return found if found is not None else _parsed([str(path)])[str(path)]


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _is_pure(module: str) -> bool:
    return _within(module, PURE_CORES) and not _within(module, NOT_PURE)


def _app_modules() -> list[tuple[str, Path]]:
    return _modules("torneo") + _modules("scoring") + _modules("referees") + _modules("circuits")


def _first_party(name: str) -> bool:
    return _within(name, ("torneo", "scoring", "referees", "circuits"))


def _real_module(name: str) -> bool:
    """``from scoring.standings import compute`` also yields scoring.standings.compute: keep only
    names that are modules or packages of the project."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


PURE_MODULES = {m: p for m, p in _app_modules() if _is_pure(m)}


@pytest.mark.parametrize("module", sorted(PURE_MODULES))
def test_pure_cores_import_no_django_and_no_app_layer(module: str) -> None:
    for name in _imports(PURE_MODULES[module]):
        top = name.split(".")[0]
        assert top not in {"django", "rest_framework", "celery", "simple_history"}, f"{module} importa {name}"
        if _first_party(name) and _real_module(name):
            assert _is_pure(name), f"{module} (núcleo puro) importa {name}, que no lo es"


def test_torneo_imports_scoring_only_through_its_pure_cores() -> None:
    wrong = [
        f"{module} importa {name}"
        for module, path in _modules("torneo")
        if module not in TORNEO_MAY_IMPORT_SCORING
        for name in _imports(path)
        if _within(name, ("scoring",)) and _real_module(name) and not _is_pure(name) and name != "scoring"
    ]
    assert not wrong, "\n".join(wrong)


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) < 2:
        return ""
    layer = parts[1]
    if layer in WEB:
        return "web"
    if layer in ("services", "selectors", "snapshot"):
        return "reads-writes"
    if layer == "models":
        return "models"
    return ""


def test_layers_import_downwards_only() -> None:
    above = {"models": {"reads-writes", "web"}, "reads-writes": {"web"}}
    wrong = []
    for module, path in _app_modules():
        forbidden = above.get(_layer(module), set())
        for name in _imports(path):
            if _first_party(name) and _real_module(name) and _layer(name) in forbidden:
                wrong.append(f"{module} ({_layer(module)}) importa {name} ({_layer(name)})")
    assert not wrong, "\n".join(wrong)


def test_the_contract_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The checks read real imports: a lazy import inside a function is found too."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from scoring import selectors\n    import django.db\n", encoding="utf-8")
    names = _imports(sample)
    assert "scoring.selectors" in names and "django.db" in names
    assert not _is_pure("scoring.selectors") and _is_pure("scoring.standings.points")
    assert not _is_pure("torneo.draws.manager")

"""``torneo.draws`` is pure: importing it (and every module in it) loads no Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.syntax import parse_file

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "torneo" / "draws"
PURE_MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in {"manager", "__main__"})


def test_importing_the_package_in_a_fresh_interpreter_loads_no_django():
    imports = "; ".join(f"import torneo.draws.{name}" for name in PURE_MODULES if name != "__init__")
    loaded = "sorted(m for m in sys.modules if m.split('.')[0] == 'django')"
    code = f"import sys, torneo.draws; {imports}; print({loaded})"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_no_module_imports_django():
    for path in PACKAGE.glob("*.py"):
        if path.stem == "manager":
            continue  # the one bridge to the database, written by the lead
        tree = parse_file(path)
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n.split(".")[0] in {"django", "rest_framework"} for n in names), path

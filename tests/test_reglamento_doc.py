"""docs/reglamento.md stays true: every test it names exists, and every test whose name cites an
AMM article appears in the table (so a rule implemented and tested is never left out of it)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "reglamento.md"
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)?((?:::\w+)+)`")


def defined_tests() -> dict[str, set[str]]:
    """Every test function name, by file (class methods included)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text())
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        found[str(path.relative_to(ROOT))] = names
    return found


def referenced() -> list[tuple[str, str]]:
    """(file, test name) for each test the table names; `::name` alone continues the last file."""
    refs = []
    for line in DOC.read_text().splitlines():
        if not line.startswith("| "):
            continue
        current = None
        for path, names in REFERENCE.findall(line):
            current = path or current
            last = names.split("::")[-1]
            if current and last.startswith("test"):
                refs.append((current, last))
    return refs


def test_every_test_named_in_the_table_exists():
    tests = defined_tests()
    missing = [(path, name) for path, name in referenced() if name not in tests.get(path, set())]
    assert missing == []


def test_every_test_citing_an_amm_article_is_in_the_table():
    named = {name for _path, name in referenced()}
    table = DOC.read_text()
    cited = {
        name
        for names in defined_tests().values()
        for name in names
        if re.search(r"_amm_\d", name) and name.startswith("test")
    }
    missing = sorted(name for name in cited if name not in named and name not in table)
    assert missing == []

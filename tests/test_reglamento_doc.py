"""docs/reglamento.md stays true: every test it names exists, and every test whose name cites an
AMM article appears in the table (so a rule implemented and tested is never left out of it)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "reglamento.md"
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)?((?:::\w+)+)`")


DEFINITION = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)


def defined_tests() -> dict[str, set[str]]:
    """Every function name, by file (class methods included). Read with a pattern, not ``ast``:
    CPython 3.11's ``ast.parse`` fails with «AST constructor recursion depth mismatch» in a process
    where a RecursionError happened before (the bad-input tests send JSON nested too deep), and
    this test may share its pytest worker with them."""
    return {
        str(path.relative_to(ROOT)): set(DEFINITION.findall(path.read_text()))
        for path in (ROOT / "tests").rglob("test_*.py")
    }


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

"""Source parsed for the tests that read code (imports, calls): in a fresh interpreter.

CPython 3.11's ``ast.parse`` fails with «AST constructor recursion depth mismatch» in a process
where a RecursionError happened before (the bad-input tests send JSON nested too deep), and a test
that reads code may share its pytest worker with them: seen in CI (tests/test_architecture.py).
The tree comes back pickled."""

import ast
import pickle
import subprocess
import sys
from pathlib import Path

_SCRIPT = "import ast, pickle, sys; sys.stdout.buffer.write(pickle.dumps(ast.parse(sys.stdin.buffer.read())))"


def parse_source(source: str) -> ast.Module:
    done = subprocess.run([sys.executable, "-c", _SCRIPT], input=source.encode(), capture_output=True, check=True)
    tree = pickle.loads(done.stdout)
    assert isinstance(tree, ast.Module)
    return tree


def parse_file(path: str | Path) -> ast.Module:
    return parse_source(Path(path).read_text(encoding="utf-8"))

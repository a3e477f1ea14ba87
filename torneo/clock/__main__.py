"""``python -m torneo.clock [partida]``: see torneo.clock.cli and docs/clock.md."""

import sys

from torneo.clock.cli import main

raise SystemExit(main(sys.stdin, sys.stdout, sys.argv[1:]))

"""Pages of results, standings, bracket and classification: `entry` for the mesa de control (and the
confirmation a second person or the losing pair gives), `public` for everyone."""

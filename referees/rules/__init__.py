"""The referees' pure rules (no Django): the reglamento's catalogue of articles, the sanction ladder (5.4),
the suplentes' limits (5.8)."""

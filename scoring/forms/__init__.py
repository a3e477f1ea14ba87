"""Forms: they collect and type-check input; the services decide and write. Split by feature, like
every layer of the app:

- results.py: a result as the mesa or a correction enters it (juegos, special outcome and winner,
  tantos, reason, the version seen), by table number on the entry page, and a rejection's reason;
- hands.py: a recorded hand from a phone, in the engine's format, and where the engine's errors go.
"""

"""Forms: they collect and type-check input; the services decide and write. Split by feature, like
every layer of the app:

- errors.py: the one way a view puts a service's refusal on its form (`service_errors`, `attach_errors`:
  service errors come keyed 'players.<i>.<field>', each goes on its form field);
- tournaments.py: a tournament, its jornadas and its staff's functions;
- registrations.py: a pair (or trío) and its players, the CSV import, a withdrawal;
- rounds.py: preparing a round, publishing its draw before the juez (AMM 5.5), a redraw.
"""

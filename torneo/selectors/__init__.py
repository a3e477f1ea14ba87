"""Reads for pages and the API: querysets and page objects with what their templates need, in a fixed
number of queries. Split by feature, like every layer of the app:

- tournaments.py: the tournaments listed, visible to or managed by a user, and a tournament's staff;
- registrations.py: a tournament's pairs with their players (search included) and their counts;
- rounds.py: a round's draw by table and by surname, the pairs to be drawn and everything needed to
  verify a draw (AMM 5.5), each pool's command input among it.
"""

"""Reads for pages and the API, each in a fixed number of queries whatever the number of pairs. Split
by feature, like every layer of the app:

- results.py: a round's results by table, the mesa de control's entry state, what it sees after
  typing a table, a match's history of actas and the double check's confirmation queue (AMM 3.16);
- standings.py: the standings of each format, the final classification and the bracket, with their
  titles and translated labels (the tiebreaks'), cached under the tournament's stamp; the rules
  themselves are the pure core's, scoring.standings;
- players.py: find yourself by name, and the pair page;
- hands.py: a match's recorded juegos and hands, the next hand, a hand's versions, the staff's index.
"""

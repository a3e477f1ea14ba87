"""Pages, split by feature like every layer of the app:

- results.py: the public results of each round (and their CSV), the mesa de control's entry, the
  confirmation queue, a match's history, and the confirmation a second person or the losing pair
  gives (AMM 3.16);
- standings.py: the standings, final classification and bracket pages, and their CSVs;
- players.py: find yourself, and the pair page;
- hands.py: a match's recorded hands from a phone, a hand's versions, the staff's index of tables;
- render.py: what the standings pages render in Python (long rows, bracket trees) and the CSV
  download response.
"""

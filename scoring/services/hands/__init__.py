"""Recorded hands (manos anotadas): record, edit (a new version) and delete a hand of a match; the
mus engine validates each hand as it is saved; the juego's running tantos follow from its valid
hands, and the match result from the recorded juegos.

One module per job: ``permissions`` who may record; ``records`` reading and checking one record
(rules 1 and 2); ``count`` the juego's running count (rules 3 and 4); ``result`` following the
match result (rule 5); ``writes`` the writes (record, edit, delete), which use the other four;
``sources`` the articles the findings cite, named for people («Reglamento AMM, art. 3.8»).
Imports go one way, records → count → result → writes (permissions and sources stand apart).

The rules of the record, precisely (README «Manos anotadas» says the same to users):

1. Typing mistakes are refused and nothing is written: a record that does not follow the
   engine's format (``RecordFormatError``, keyed by its field) and a deal that cannot exist — a
   card that is not one, a card twice, a hand without four cards (keyed ``hands[<seat>]``). The
   cards are optional (AMM 3.4.c has them shown at the end of every hand, but a table may not
   note them): four hands or none. A lance's envites that no play can have, whatever the cards,
   are typing mistakes of the sequence (``records._check_sequences``, keyed by the action at
   fault, ``lances.<lance>[<index>]``): a «quiero» or «no quiero» with no envite
   (``respuesta_sin_envite``), a pair answering, passing on or raising its own envite
   (``envite_propio``, AMM 3.7.d, 3.10), anything after the answer or after four passes
   (``lance_cerrado``, AMM 3.9, 3.8), an envite after an órdago (``envite_tras_ordago``), an
   envite of less than 2 (``envite_menor_de_dos``, AMM 3.6) and an envite left without an answer
   (``envite_sin_respuesta``, AMM 3.7, keyed by the lance, ``lances.<lance>``). Tantos no hand
   can have are typing mistakes too: a score before the hand outside 0 to tantos per juego − 1
   (a juego decided at fewer tantos, AMM 6.4, still starts below it), envites of one lance adding
   up to more than 100, a claimed score after the hand below 0 or above tantos per juego − 1 +
   100 (``records._check_tantos``).
2. Everything else the engine finds is a fact about the play and the hand is stored with it:
   false declarations by seat and lance (AMM 4.1a), an impossible score, and the betting that is
   illegal only for who held the jugada or what the cards were: an envite by a pair without the
   jugada (``envite_sin_jugada``: AMM 3.8, envidar is declaring that one holds it, a false
   declaration whose effects and sanctions are the juez's), an envite where only the bettor's
   pair holds it (``envite_sin_contrario``: the lance is not played then, so the other pair
   spoke as if it held the jugada — a declaration not as recorded, for the juez), envites in the
   fourth lance that was not played (``lance_equivocado``) or after an accepted órdago that
   jugada mínima did not annul (``lance_tras_ordago``). These are errors: the hand does not
   count (rule 3). A disputed hand is recorded as it happened; the jueces' rulings (chapter IV)
   start from it. The pages show a finding as its article named for people («Reglamento AMM,
   art. 3.8», ``sources``) and its message, never its code; the API keeps both.
   Tantos the table wrote (``claimed``) that differ from the engine's count are not an error:
   once the tantos are written down no claim on the count is admitted (AMM 3.14), so the
   table's count stands and the engine's comparison becomes one «aviso» for the juez with both
   counts (``tanteo_de_la_mesa``, ``records.table_count``). Only what cannot be a juego's count
   at all stays an error (AMM 3.13): a pair losing tantos, more than a hand can give, both
   pairs at the tantos per juego, a winner that contradicts the table's own score or an
   accepted órdago.
3. The running tantos: the juego's current hands are checked in order by the engine
   (``check_record``, with the recorded mano of each hand) and follow on as the engine's
   ``replay_game`` would have them, from the count that stands. A hand **counts** when it has no
   finding of severity error — its own, or of the sequence (its score before is not the score
   after the previous hand, AMM 1.5; it follows the end of the juego) — and every hand before it
   counted. The first hand with an error **stops the count** of its juego: it and the hands
   after it are kept but do not count until it is corrected (a new version) or deleted. Counted
   hands score what the engine counts, or the table's count where it differs and stands (rule
   2, AMM 3.14): the next hand starts from it. A hand without cards cannot be checked: it counts
   at the table's claimed score after the hand (required), with an «aviso»; recorded by a
   player, it cannot close a juego (an error, ``sin_cartas_decide``): a side would be declaring
   its own win.
4. A juego closes when a counted hand takes a pair to the tournament's tantos per juego or wins
   an accepted órdago (AMM 1.7.a); a later hand of that juego is an error. The next hand starts
   the next juego, mano continuing to alternate (AMM 2.8).
5. The match: when the closed juegos, in order, give a pair the tournament's juegos to win, the
   result is submitted through ``result_submit(source=HANDS)`` (double check, AMM 3.16, and the
   3.18 lock included). Recorded by a player, it is only proposed, double check or not, until the
   mesa de control or the losing pair confirms it — never the side that recorded it. A result the
   mesa de control or a player entered otherwise is never overwritten: a difference is reported.
   A refusal (3.18, a conflict) is reported too; the hand stays saved.

Writes lock the tournament row and then the match row (the order of result_submit and the draw
services), so two phones recording the same table get consecutive numbers, never the same one.

The names below are re-exported for the rest of the site; a test that patches a name must patch
it in the module that looks it up (e.g. ``scoring.services.hands.writes.MAX_HANDS_PER_GAME``).
"""

from scoring.services.hands.permissions import can_change_hand, can_record_hands
from scoring.services.hands.records import TABLE_COUNT_CODE, other
from scoring.services.hands.result import juegos_result
from scoring.services.hands.sources import article_label
from scoring.services.hands.writes import HandSaved, hand_delete, hand_edit, hand_record, next_mano
from scoring.services.results import MAX_LANCE_STAKE, max_score_after

__all__ = [
    "MAX_LANCE_STAKE",
    "TABLE_COUNT_CODE",
    "HandSaved",
    "article_label",
    "can_change_hand",
    "can_record_hands",
    "hand_delete",
    "hand_edit",
    "hand_record",
    "juegos_result",
    "max_score_after",
    "next_mano",
    "other",
]

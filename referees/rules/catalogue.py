"""The catalogue of the reglamento's articles a juez can cite on an incident, pure (no Django).

An incident is an infraction by a pair or a player during a tournament. The juez's incident form
offers these articles in its picker (code, title, one-line summary), and the sanction ladder
(``referees.rules.ladder``) reads each article's ``penalty`` to know what to propose: the 5.4
protocol, nothing (the article sets its own consequence) or the expulsion. ``delay`` tells which
incidents are sanctions for a delay, the ones 6.5.b («apercibimiento por retraso») and 6.6 («tres
sanciones por retraso en partidas anteriores») count.

Titles and summaries are Spanish, marked with ``gettext_noop`` so that ``makemessages`` collects
them without this module importing Django; the site shows them through ``gettext``.

What is in and what is left out (AMM reglamento v6.4, chapters I to VII):

- **In**: every article or sub-article a player or a pair can break, with the code exactly as the
  text writes it: «1.1a» and «4.1a» have no dot before the letter, «1.5.a» and «3.20.c» have one.
- **Out**: what nobody can infringe: the card and scoring rules (1.2, 1.4, 1.7.*), permissions
  (3.1, 3.2, 3.3, 3.11, 4.3, 7.4), interpretations of what was said or done (3.9, 3.10.*, 3.20.a),
  the flow of the mus (2.3.b, 2.3.c), the remedy for a card seen while dealing (2.4.*), the
  definitions of chapter IV other than the error (4.1b, 4.1c, 4.1d), the jueces' own powers and
  the tournament's organisation (5.1, 5.3.a, 5.4, 5.5, 5.6, 5.7, 5.8.e, 5.9, 5.11, 6.1, 6.1.a,
  6.1.c, 6.2, 6.4.*, 6.5.*). 1.6 binds the spectators, not the players (the jueces send them away).
- **Titles**: as the reglamento names the article, in normal capitalisation (the lances keep their
  capital: «Antes Grande»). A sub-article without a title of its own (2.1.a, 3.7.c, 5.8.a…) takes
  its article's title, with what it adds in parentheses: «Tiempo envites (sin dilaciones)».

Penalties:

- **"ladder"** (the 5.4 protocol: apercibimiento, juego, partida or expulsión) for every norm whose
  breach the reglamento does not price: 5.4 «Todas las normas de este reglamento que sean
  susceptibles de penalización y que no esté expresamente determinada». Among them 3.4.d and
  3.20.c, which send to 5.4 by name; 3.7.d («aplique las sanciones según 5.4 y cap.6»); 5.10,
  whose «podrán ser sancionados con la descalificación» is the ladder's top, not a fixed penalty;
  3.4.c, because not showing the cards without putting them in the deck has no set consequence
  (putting them in the deck is 3.20); and 4.1a, the error itself: its effects are chapter IV's
  (cited as 4.2.* and 4.4.*), and the juez cites 4.1a when the error was intentional, which
  «además de estas penalizaciones» brings «el procedimiento genérico del art. 5.4».
- **"own"** when the article itself, or the article it sends to, sets the consequence: the shown
  cards of 3.4 and 3.4.a/b, the extra or missing cards of 2.5.a and 2.7.*, the hand annulled by
  2.8, the meaning of an envite without figures (3.6), declining past the time of 3.7 (3.7.b), the
  errors of 3.8, the annulled órdago of 3.12.*, the loss of the partida of 3.17, the result that
  stands of 3.18, the error in every lance of 3.20 and the renounced play of 3.20.b, the effects of
  chapter IV (4.2.*, 4.4.*), the juegos lost by lateness (6.1.b), the partida or disqualification
  of 6.6, and partial señas (7.6), which are errors by 4.1a («cualquier seña que no se corresponda
  con la jugada que se lleva según apartado 7»). The incident records it; no step is proposed.
- **"expulsion"**: 3.16.b, results agreed or manipulated, «motivo de descalificación y expulsión».

Delays (``delay=True``): 6.3 and the articles that send to it (2.3.d, 3.7.c); 3.7.d, which names
the pair that interrupts the other's deliberation «causante del retraso»; 6.1.b, whose penalties
6.1.c calls «las sanciones por retrasos del art. 6.1.b»; and 6.6, the sanction for a repeated
delay. Exceeding the minute of 2.3 or 3.7 is not one by itself: 3.7.b turns it into declining,
which is no sanction; dragging it on is cited as 2.3.d or 3.7.c.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Literal


def gettext_noop(message: str) -> str:
    """Marks a string for translation (Django's ``makemessages`` finds it by this name) without importing
    Django: the site shows it through ``gettext``."""
    return message


Penalty = Literal["ladder", "own", "expulsion"]


@dataclasses.dataclass(frozen=True)
class Article:
    """An article of the reglamento that a juez can cite on an incident."""

    code: str
    """The article's number as the reglamento writes it: "3.20.c", "5.10", "6.3"."""
    title: str
    """Its title in Spanish, as the reglamento names it (marked with ``gettext_noop``)."""
    penalty: Penalty
    """"ladder": the 5.4 protocol; "own": the article sets the consequence; "expulsion": 3.16.b."""
    delay: bool = False
    """Whether a sanction under it is a sanction for a delay (6.5.b, 6.6)."""
    summary: str = ""
    """One short Spanish sentence: what the norm asks or forbids (marked with ``gettext_noop``)."""


AMM_V6_4: Final[tuple[Article, ...]] = (
    # Capítulo I: al inicio.
    Article(
        "1.1",
        gettext_noop("Puestos en la mesa"),
        "ladder",
        summary=gettext_noop("Los puestos en la mesa no pueden cambiarse mientras dure la partida."),
    ),
    Article(
        "1.1a",
        gettext_noop("Postura"),
        "ladder",
        summary=gettext_noop("Los jugadores deben mantener una postura correcta en la mesa."),
    ),
    Article(
        "1.3",
        gettext_noop("Contar naipes"),
        "ladder",
        summary=gettext_noop("Al empezar la partida deben contarse los naipes."),
    ),
    Article(
        "1.5",
        gettext_noop("Tantear"),
        "ladder",
        summary=gettext_noop(
            "Solo un jugador de cada pareja lleva los tantos y nadie toca los tantos de la pareja contraria."
        ),
    ),
    Article(
        "1.5.a",
        gettext_noop("Tantear (amarracos y piedras)"),
        "ladder",
        summary=gettext_noop(
            "Cada 5 piedras se anota un amarraco delante del compañero y el que anota nunca tiene más de 4 piedras."
        ),
    ),
    # Capítulo II: al repartir.
    Article(
        "2.1",
        gettext_noop("Doble barajeo"),
        "ladder",
        summary=gettext_noop(
            "Baraja el jugador anterior al que da, este vuelve a barajar y presenta al corte de al menos tres cartas."
        ),
    ),
    Article(
        "2.1.a",
        gettext_noop("Doble barajeo (entremezclar las cartas)"),
        "ladder",
        summary=gettext_noop("Se baraja entremezclando las cartas, no en bloques, sin que nadie vea ningún naipe."),
    ),
    Article(
        "2.2",
        gettext_noop("Reparto"),
        "ladder",
        summary=gettext_noop("Las cartas se dan por arriba y con la baraja lo más baja posible."),
    ),
    Article(
        "2.2.a",
        gettext_noop("Inicial"),
        "ladder",
        summary=gettext_noop("Al principio de cada mano las cartas se dan de una en una y de derecha a izquierda."),
    ),
    Article(
        "2.2.b",
        gettext_noop("Descartes"),
        "ladder",
        summary=gettext_noop("En los descartes se sirve de una vez a cada jugador y por el mismo orden."),
    ),
    Article(
        "2.2.c",
        gettext_noop("Ver cartas"),
        "ladder",
        summary=gettext_noop("No se miran las cartas hasta que termine el reparto, también en el descarte."),
    ),
    Article(
        "2.2.d",
        gettext_noop("Señas"),
        "ladder",
        summary=gettext_noop("No se pasan señas mientras dure el reparto de los naipes."),
    ),
    Article(
        "2.3",
        gettext_noop("Mus o no mus"),
        "ladder",
        summary=gettext_noop(
            "La pareja mano dialoga hasta un minuto sin que la contraria la interrumpa ni corte el mus."
        ),
    ),
    Article(
        "2.3.a",
        gettext_noop("Mus o no mus (turno de la pareja contraria)"),
        "ladder",
        summary=gettext_noop("Si el compañero del mano da mus, la pareja contraria dialoga en las mismas condiciones."),
    ),
    Article(
        "2.3.d",
        gettext_noop("Mus o no mus (sin dilaciones)"),
        "ladder",
        delay=True,
        summary=gettext_noop("El diálogo del mus no debe dilatarse ni reiterarse en exceso (ver 6.3)."),
    ),
    Article(
        "2.5",
        gettext_noop("Descartes"),
        "ladder",
        summary=gettext_noop("Se descarta del postre a la mano por la izquierda, y el mano es el último."),
    ),
    Article(
        "2.5.a",
        gettext_noop("Mostrar cartas"),
        "own",
        summary=gettext_noop(
            "Los naipes que se conservan se muestran claramente sobre el tapete; los errores se resuelven por 2.7."
        ),
    ),
    Article(
        "2.6",
        gettext_noop("Mazo de cartas"),
        "ladder",
        summary=gettext_noop("Durante el reparto solo toca el mazo el jugador que reparte."),
    ),
    Article(
        "2.6.a",
        gettext_noop("Mazo de cartas (en los descartes)"),
        "ladder",
        summary=gettext_noop("El postre no coge el mazo hasta que todos los jugadores se hayan descartado."),
    ),
    Article(
        "2.6.b",
        gettext_noop("Mazo de cartas (tras cortar el mus)"),
        "ladder",
        summary=gettext_noop("Cortado el mus, nadie toca el mazo hasta terminar el recuento de tantos."),
    ),
    Article(
        "2.7",
        gettext_noop("Cartas de más o de menos"),
        "own",
        summary=gettext_noop("Un jugador con naipes de más o de menos se corrige según el momento (2.7.a, 2.7.b)."),
    ),
    Article(
        "2.7.a",
        gettext_noop("Antes Grande"),
        "own",
        summary=gettext_noop("Si no se ha cerrado la Grande, se le dan o quitan las cartas precisas."),
    ),
    Article(
        "2.7.b",
        gettext_noop("Tras Grande"),
        "own",
        summary=gettext_noop(
            "Cerrada la Grande, se invalidan sus cartas y las del postre, salvo si el contrario admite pedirlas mal."
        ),
    ),
    Article(
        "2.7.c",
        gettext_noop("Cartas quitadas"),
        "ladder",
        summary=gettext_noop("Las cartas de más las quita un contrario sin verlas y muestra a todos la carta quitada."),
    ),
    Article(
        "2.8",
        gettext_noop("Mano 2 veces"),
        "own",
        summary=gettext_noop(
            "Si una pareja es mano dos veces seguidas se anula la jugada, salvo si ya se cerró la Grande."
        ),
    ),
    # Capítulo III: durante la partida.
    Article(
        "3.4",
        gettext_noop("Enseñar cartas"),
        "own",
        summary=gettext_noop("No se enseñan las cartas durante el juego; quien lo hace asume los significados de 3.4."),
    ),
    Article(
        "3.4.a",
        gettext_noop("Con órdago"),
        "own",
        summary=gettext_noop("Enseñar las cartas en respuesta a un órdago equivale a aceptarlo."),
    ),
    Article(
        "3.4.b",
        gettext_noop("Estar fuera"),
        "own",
        summary=gettext_noop(
            "Quien enseña por creerse fuera explica, si se le pide, el lance; si yerra, pierde los lances posteriores."
        ),
    ),
    Article(
        "3.4.c",
        gettext_noop("Al terminar la mano"),
        "ladder",
        summary=gettext_noop(
            "Al terminar los envites de cada mano todos enseñan sus 4 cartas; meterlas en baraja es 3.20."
        ),
    ),
    Article(
        "3.4.d",
        gettext_noop("Otros casos"),
        "ladder",
        summary=gettext_noop("Enseñar las cartas reiteradamente en otros momentos lleva la sanción genérica de 5.4."),
    ),
    Article(
        "3.5",
        gettext_noop("Envites"),
        "ladder",
        summary=gettext_noop("Envites, quieros y revoques se dicen en voz clara, sin gestos ni indicaciones."),
    ),
    Article(
        "3.6",
        gettext_noop("Envites altos"),
        "own",
        summary=gettext_noop(
            "Los envites se dicen con cifras concretas; sin número valen 2 piedras y nunca equivalen a un órdago."
        ),
    ),
    Article(
        "3.7",
        gettext_noop("Tiempo envites"),
        "own",
        summary=gettext_noop("Para aceptar o revocar un envite hay como mucho 1 minuto; rebasado, se declina (3.7.b)."),
    ),
    Article(
        "3.7.a",
        gettext_noop("Tiempo envites (jugadas finales)"),
        "own",
        summary=gettext_noop("Con alguna pareja a 10 piedras o menos del final, el límite es de 2 minutos."),
    ),
    Article(
        "3.7.b",
        gettext_noop("Tiempo envites (tiempo rebasado)"),
        "own",
        summary=gettext_noop("Rebasado el tiempo límite, se entiende que declinan aceptar o revocar."),
    ),
    Article(
        "3.7.c",
        gettext_noop("Tiempo envites (sin dilaciones)"),
        "ladder",
        delay=True,
        summary=gettext_noop("Aceptar o revocar envites no debe dilatarse ni reiterarse en exceso (ver 6.3)."),
    ),
    Article(
        "3.7.d",
        gettext_noop("Tiempo envites (silencio de la pareja contraria)"),
        "ladder",
        delay=True,
        summary=gettext_noop(
            "Mientras una pareja delibera, la contraria calla; si interrumpe, causa el retraso y el tiempo se reinicia."
        ),
    ),
    Article(
        "3.8",
        gettext_noop("Turnos de envite"),
        "own",
        summary=gettext_noop(
            "Envidar antes de turno o a varios lances vale; envidar a pares o juego sin llevar es un error (cap. IV)."
        ),
    ),
    Article(
        "3.12",
        gettext_noop("Jugada mínima"),
        "own",
        summary=gettext_noop("Con jugada mínima se puede querer cualquier envite excepto un órdago."),
    ),
    Article(
        "3.12.a",
        gettext_noop("Jugada mínima (órdago aceptado)"),
        "own",
        summary=gettext_noop(
            "Un órdago aceptado con jugada mínima se anula y la pareja contraria se apunta como no querido."
        ),
    ),
    Article(
        "3.12.b",
        gettext_noop("Jugada mínima (órdago a Pares)"),
        "own",
        summary=gettext_noop(
            "Si el órdago era a Pares y un contrario enseñó sus cartas, los infractores pueden perder Juego o Punto."
        ),
    ),
    Article(
        "3.13",
        gettext_noop("Orden recuento"),
        "ladder",
        summary=gettext_noop(
            "Al acabar la mano se tantea por el orden de los lances: Grande, Chica, Pares y Juego o Punto."
        ),
    ),
    Article(
        "3.14",
        gettext_noop("Recoger"),
        "ladder",
        summary=gettext_noop("No se recogen los naipes hasta que ambas parejas hayan terminado de tantearse."),
    ),
    Article(
        "3.14.a",
        gettext_noop("Recoger (quién recoge)"),
        "ladder",
        summary=gettext_noop("Recoge las cartas el que repartió en la mano recién terminada."),
    ),
    Article(
        "3.15",
        gettext_noop("Interrupciones"),
        "ladder",
        summary=gettext_noop("No se interrumpe la partida salvo fuerza mayor autorizada por los jueces."),
    ),
    Article(
        "3.15.a",
        gettext_noop("Interrupciones (ausencia de la pareja)"),
        "ladder",
        summary=gettext_noop("Los dos jugadores de una pareja nunca se ausentan de la partida a la vez."),
    ),
    Article(
        "3.16",
        gettext_noop("Anotar en acta"),
        "ladder",
        summary=gettext_noop(
            "En el acta se anota cada juego ganado, el resultado final y la firma de la pareja perdedora."
        ),
    ),
    Article(
        "3.16.a",
        gettext_noop("Acta siempre visible"),
        "ladder",
        summary=gettext_noop("El acta permanece encima de la mesa, a la vista de cualquier juez."),
    ),
    Article(
        "3.16.b",
        gettext_noop("Resultados pactados o manipulados"),
        "expulsion",
        summary=gettext_noop(
            "Intentar pactar o manipular el resultado de una partida supone la descalificación y la expulsión."
        ),
    ),
    Article(
        "3.17",
        gettext_noop("Entrega de acta"),
        "own",
        summary=gettext_noop(
            "La pareja ganadora entrega el acta cumplimentada con todo el material; si no, puede perder la partida."
        ),
    ),
    Article(
        "3.18",
        gettext_noop("Reclamación resultados"),
        "own",
        summary=gettext_noop(
            "La pareja ganadora comprueba el resultado al entregar el acta; tras el siguiente sorteo es inamovible."
        ),
    ),
    Article(
        "3.19",
        gettext_noop("Ocultar cartas"),
        "ladder",
        summary=gettext_noop(
            "Se prohíbe tapar totalmente las cartas, esconderlas bajo el tapete o sacarlas de la mesa."
        ),
    ),
    Article(
        "3.20",
        gettext_noop("Meterse en baraja"),
        "own",
        summary=gettext_noop(
            "Las cartas no se meten en baraja; si no pueden sacarse, se sanciona como error en todos los lances."
        ),
    ),
    Article(
        "3.20.b",
        gettext_noop("Meterse en baraja (renuncia a la jugada)"),
        "own",
        summary=gettext_noop("Quien se mete en baraja renuncia a su jugada para todos los lances pendientes."),
    ),
    Article(
        "3.20.c",
        gettext_noop("Meterse en baraja (amonestación)"),
        "ladder",
        summary=gettext_noop("Meter las cartas en baraja conlleva siempre además la amonestación genérica de 5.4."),
    ),
    # Capítulo IV: errores.
    Article(
        "4.1a",
        gettext_noop("Error"),
        "ladder",
        summary=gettext_noop(
            "Declaración obligatoria o seña que no corresponde con la jugada; si es intencionado, se aplica además 5.4."
        ),
    ),
    Article(
        "4.2",
        gettext_noop("Efectos del error no rectificado"),
        "own",
        summary=gettext_noop("Un error no rectificado a tiempo tiene los efectos de 4.2.a a 4.2.g."),
    ),
    Article(
        "4.2.a",
        gettext_noop("Anular jugada del infractor"),
        "own",
        summary=gettext_noop("Se anula la jugada del infractor al lance con error, sin excepciones."),
    ),
    Article(
        "4.2.b",
        gettext_noop("Perder lance con error"),
        "own",
        summary=gettext_noop(
            "La pareja infractora pierde el lance con error, salvo jugada máxima u obligada del compañero."
        ),
    ),
    Article(
        "4.2.c",
        gettext_noop("Perder lance posterior"),
        "own",
        summary=gettext_noop(
            "Un error en Pares hace perder también el lance de Juego o Punto, salvo jugada máxima u obligada."
        ),
    ),
    Article(
        "4.2.d",
        gettext_noop("Envites u órdagos pendientes o anotados"),
        "own",
        summary=gettext_noop(
            "Los envites de lances con error valen si los gana la pareja no infractora y la infractora lleva jugada."
        ),
    ),
    Article(
        "4.2.e",
        gettext_noop("Negada adicional"),
        "own",
        summary=gettext_noop(
            "La pareja no infractora se apunta una negada adicional en cada lance con error que gane."
        ),
    ),
    Article(
        "4.2.f",
        gettext_noop("Envites u órdagos rechazados"),
        "own",
        summary=gettext_noop("La pareja no infractora puede apuntarse los envites que rechazó por culpa del error."),
    ),
    Article(
        "4.2.g",
        gettext_noop("Doble error"),
        "own",
        summary=gettext_noop(
            "Con errores de ambas parejas en un lance se anulan envites y negadas y gana en paso la mejor jugada."
        ),
    ),
    Article(
        "4.4",
        gettext_noop("Efectos del error rectificado"),
        "own",
        summary=gettext_noop("Rectificar un error evita unos u otros efectos de 4.2 según el momento (4.4.a a 4.4.c)."),
    ),
    Article(
        "4.4.a",
        gettext_noop("Después de lance"),
        "own",
        summary=gettext_noop(
            "Rectificado tras terminar un lance, se mantienen los efectos de 4.2 en ese lance y los anteriores."
        ),
    ),
    Article(
        "4.4.b",
        gettext_noop("Antes de lance"),
        "own",
        summary=gettext_noop(
            "Rectificado antes de empezar un lance, se cancelan los efectos de 4.2 en ese lance y los siguientes."
        ),
    ),
    Article(
        "4.4.c",
        gettext_noop("Lance iniciado"),
        "own",
        summary=gettext_noop(
            "Rectificado con el lance empezado, se mantienen algunos efectos de 4.2 según lo que se haya jugado."
        ),
    ),
    # Capítulo V: sobre el torneo.
    Article(
        "5.2",
        gettext_noop("Abuso de reglamento"),
        "ladder",
        summary=gettext_noop(
            "Se sanciona usar el reglamento en beneficio propio en situaciones claras contra el espíritu de la jugada."
        ),
    ),
    Article(
        "5.3",
        gettext_noop("Infracciones"),
        "ladder",
        summary=gettext_noop("Los jugadores deben comunicar a los jueces el incumplimiento de cualquier norma."),
    ),
    Article(
        "5.8",
        gettext_noop("Suplente"),
        "ladder",
        summary=gettext_noop("Un jugador solo puede ser sustituido por causa justificada y con autorización."),
    ),
    Article(
        "5.8.a",
        gettext_noop("Suplente (terminar la partida)"),
        "ladder",
        summary=gettext_noop("El suplente que empieza una partida debe terminarla."),
    ),
    Article(
        "5.8.b",
        gettext_noop("Suplente (jugador inscrito)"),
        "ladder",
        summary=gettext_noop("Un jugador inscrito en el torneo no puede ser suplente, aunque esté eliminado."),
    ),
    Article(
        "5.8.c",
        gettext_noop("Suplente (otra pareja)"),
        "ladder",
        summary=gettext_noop("Quien ha sido suplente no puede volver a serlo de otra pareja diferente."),
    ),
    Article(
        "5.8.d",
        gettext_noop("Suplente (rondas finales)"),
        "ladder",
        summary=gettext_noop("No se admiten suplencias en las rondas finales del torneo."),
    ),
    Article(
        "5.10",
        gettext_noop("Comportamiento"),
        "ladder",
        summary=gettext_noop(
            "Gritos, insultos, embriaguez, faltas de respeto o desacato al juez pueden llevar a la descalificación."
        ),
    ),
    # Capítulo VI: el tiempo.
    Article(
        "6.1.b",
        gettext_noop("Si falta algún jugador"),
        "own",
        delay=True,
        summary=gettext_noop(
            "Si falta un jugador, a los 10 y 15 minutos la pareja pierde un juego y a los 20 la partida."
        ),
    ),
    Article(
        "6.3",
        gettext_noop("Retrasos deliberados"),
        "ladder",
        delay=True,
        summary=gettext_noop(
            "Ninguna pareja debe retrasar excesivamente la partida; se denuncia a los jueces en su momento."
        ),
    ),
    Article(
        "6.6",
        gettext_noop("Reincidencia en retrasos"),
        "own",
        delay=True,
        summary=gettext_noop(
            "Con tres sanciones por retraso en partidas previas, otro retraso puede costar partida o descalificación."
        ),
    ),
    # Capítulo VII: las señas.
    Article(
        "7.1",
        gettext_noop("Señas admitidas"),
        "ladder",
        summary=gettext_noop("Solo se admiten las señas reglamentadas en la tabla de 7.1."),
    ),
    Article(
        "7.2",
        gettext_noop("Corrido y sin señas"),
        "ladder",
        summary=gettext_noop("En la primera mano de la partida no se pasan señas hasta cortar el mus."),
    ),
    Article(
        "7.3",
        gettext_noop("Orden y momento"),
        "ladder",
        summary=gettext_noop("Las señas se pasan en cualquier orden y momento, excepto durante los repartos."),
    ),
    Article(
        "7.5",
        gettext_noop("Preguntar con seña"),
        "ladder",
        summary=gettext_noop("Está prohibido hacer señas para preguntar jugada."),
    ),
    Article(
        "7.6",
        gettext_noop("Señas parciales"),
        "own",
        summary=gettext_noop(
            "No se pasan señas parciales; una seña que no corresponde con la jugada es un error (4.1a)."
        ),
    ),
)
"""AMM reglamento v6.4 (the default for every rule set without its own catalogue)."""

CATALOGUES: Final[dict[str, tuple[Article, ...]]] = {"amm": AMM_V6_4}
"""Each rule set's catalogue, by the rule set's name."""


CLOCK_APPLIED: Final[frozenset[str]] = frozenset({"6.1.b"})
"""Articles whose penalty the partida's clock applies by itself (6.1.b: the juegos and the partida
lost by lateness, «no pueden ser perdonadas»): where a clock ran, a sanction under them records the
juez's decision and never applies it a second time (no second juego, no delay warning for 6.5.b)."""


def catalogue_for(rule_set: str) -> tuple[Article, ...]:
    """The catalogue of a tournament's rule set: its own, else AMM v6.4 (the other rule sets of the mus
    engine change card rules, not the tournament's reglamento)."""
    return CATALOGUES.get(rule_set, AMM_V6_4)


def article(code: str, rule_set: str = "amm") -> Article:
    """The article ``code`` of the rule set's catalogue; ValueError (Spanish message naming the code) when
    it is not there."""
    for candidate in catalogue_for(rule_set):
        if candidate.code == code:
            return candidate
    raise ValueError(f"el artículo {code!r} no está en el catálogo del reglamento")

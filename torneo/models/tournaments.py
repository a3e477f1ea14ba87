"""Tournaments, their sessions (jornadas), roles, players and pairs (with their registration state).

Business rules live in the services (torneo/services/); models hold data, constraints that the
database can enforce, and small derived properties.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from torneo.clock.rules import AMM as CLOCK_AMM
from torneo.clock.rules import PRESETS as CLOCK_PRESETS
from torneo.rulesets import DEFAULT_RULE_SET, RULE_SET_CHOICES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class Tournament(models.Model):
    class Format(models.TextChoices):
        CEROS = "ceros", _("A N ceros (eliminatoria con sorteo en cada ronda)")
        REPESCA = "repesca", _("A N ceros con repesca (grupo B)")
        SWISS = "swiss", _("Sistema suizo")
        LIGUILLAS = "groups", _("Liguillas y cuadro final")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Borrador")
        REGISTRATION_OPEN = "open", _("Inscripción abierta")
        REGISTRATION_CLOSED = "closed", _("Inscripción cerrada")
        RUNNING = "running", _("En juego")
        FINISHED = "finished", _("Terminado")

    name = models.CharField(_("nombre"), max_length=200)
    slug = models.SlugField(_("identificador en la dirección"), max_length=80, unique=True)
    venue = models.CharField(_("lugar"), max_length=200, blank=True)
    description = models.TextField(_("descripción"), blank=True)
    # RGPD: what a person registering reads about their data, as the organizer (the controller) says it.
    privacy_notice = models.TextField(
        _("aviso de protección de datos"),
        blank=True,
        help_text=_(
            "Lo que lee quien se inscribe sobre sus datos: quién los trata, para qué, hasta cuándo y cómo "
            "pedir que se borren. Vacío: el aviso general de la plataforma."
        ),
    )
    start_date = models.DateField(_("fecha de inicio"))
    end_date = models.DateField(_("fecha de fin"))
    rule_set = models.CharField(_("reglamento"), max_length=30, choices=RULE_SET_CHOICES, default=DEFAULT_RULE_SET)
    # AMM 1.7.a: juegos per partida as each tournament says (3 or 4 usual), juegos to 40 tantos.
    games_to_win = models.PositiveSmallIntegerField(
        _("juegos para ganar la partida"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(7)],
    )
    points_per_game = models.PositiveSmallIntegerField(
        _("tantos por juego"),
        default=40,
        choices=[(40, "40"), (30, "30"), (25, "25")],
    )
    # AMM chapter VI: the timings of the clocks (lateness, adjustments, forced end) as a preset of
    # torneo.clock.rules; AMM v6.4 by default.
    clock_rules = models.CharField(
        _("tiempos y retrasos"),
        max_length=20,
        choices=[(rules.name, _(rules.label)) for rules in CLOCK_PRESETS.values()],  # marked in torneo.clock.rules
        default=CLOCK_AMM.name,
        help_text=_("Las reglas de tiempo de la partida (cap. VI): retrasos, ajustes de terminación, final forzado."),
    )
    # AMM 6.1.a / 6.1.c: the clocks of the current round start by themselves at the latest moment the
    # reglamento allows (scoring.services.clocks.clocks_autostart); off, the juez or the mesa starts them.
    clocks_autostart = models.BooleanField(
        _("relojes automáticos"),
        default=False,
        help_text=_(
            "Los relojes de la ronda se ponen en marcha solos a la hora del reglamento: 5 minutos después de "
            "publicar el sorteo, o al comienzo de la jornada más su tiempo de cortesía (AMM 6.1.a y 6.1.c)."
        ),
    )
    # AMM 5.4: what the sanction ladder counts (referees.rules.ladder): the pair's sanctions in the
    # same partida (the acta's, the default reading) or in the whole tournament.
    ladder_scope = models.CharField(
        _("escala de sanciones"),
        max_length=10,
        choices=[
            ("partida", _("cuenta las sanciones de la misma partida")),
            ("torneo", _("cuenta las de todo el torneo")),
        ],
        default="partida",
        help_text=_(
            "Qué cuenta la escala de sanciones (AMM 5.4) para proponer el siguiente paso. Las infracciones fuera de "
            "una partida (AMM 5.10) siempre cuentan las del torneo."
        ),
    )
    # The format and its parameters (torneo.draws.formats plans each round from them).
    format = models.CharField(_("formato"), max_length=10, choices=Format.choices, default=Format.CEROS)
    max_losses = models.PositiveSmallIntegerField(
        _("ceros para quedar eliminado"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(9)],
        help_text=_("A N ceros: una pareja queda fuera al perder N partidas (1 = eliminatoria directa)."),
    )
    same_losses = models.BooleanField(
        _("emparejar por número de derrotas"),
        default=False,
        help_text=_("Si es posible, se enfrentan parejas con las mismas derrotas."),
    )
    repesca_until_round = models.PositiveSmallIntegerField(
        _("repesca: perdedores hasta la ronda"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Las parejas que pierden por primera vez hasta esta ronda pasan al grupo B."),
    )
    pool_b_max_losses = models.PositiveSmallIntegerField(
        _("repesca: derrotas para quedar fuera del grupo B"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(9)],
    )
    repesca_reentry_round = models.PositiveSmallIntegerField(
        _("repesca: ronda de reenganche al grupo A"),
        null=True,
        blank=True,
        help_text=_("Vacío: el grupo B sigue aparte, con sus propios premios."),
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("rondas del suizo"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    group_count = models.PositiveSmallIntegerField(
        _("número de liguillas"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(256)]
    )
    group_qualifiers = models.PositiveSmallIntegerField(
        _("clasificados por liguilla"), default=2, validators=[MinValueValidator(1), MaxValueValidator(16)]
    )
    seed_by_rating = models.BooleanField(
        _("sembrar por rating"),
        default=False,
        help_text=_(
            "Según el rating de los jugadores en los circuitos (sin rating, una pareja cuenta 0). Liguillas: "
            "por bombos, una pareja de cada bombo en cada liguilla, sorteada dentro del bombo. Suizo: en la "
            "primera ronda, la mitad más fuerte contra la otra mitad, sorteada."
        ),
    )
    # AMM 5.8.d: the rondas finales have no suplentes; from this round on the bracket is fixed.
    final_phase_from_round = models.PositiveSmallIntegerField(
        _("rondas finales desde la ronda"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Desde esta ronda: cuadro fijo y sin suplentes (AMM 5.8.d). Vacío: sin fase final."),
    )
    first_table_number = models.PositiveSmallIntegerField(_("número de la primera mesa"), default=1)
    # Results: a second person confirms each acta (like the losing pair's signature, AMM 3.16).
    results_double_check = models.BooleanField(
        _("doble comprobación de resultados"),
        default=False,
        help_text=_("Cada resultado lo confirma otra persona (o la pareja perdedora desde su móvil)."),
    )
    points_per_win = models.PositiveSmallIntegerField(_("puntos por partida ganada"), default=1)
    tiebreaks = models.CharField(
        _("orden de desempate"),
        max_length=100,
        default="juegos,tantos,buchholz,head_to_head",
        help_text=_("Separados por comas: juegos, tantos, buchholz, head_to_head, wins."),
    )
    max_pairs = models.PositiveIntegerField(
        _("máximo de parejas"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2)],
        help_text=_("Vacío: sin límite. Las inscripciones por encima del límite pasan a lista de espera."),
    )
    # AMM 5.8.e: when tríos are admitted, all three players count as titulares.
    allow_trios = models.BooleanField(_("se admiten tríos"), default=False)
    entry_fee = models.DecimalField(
        _("cuota de inscripción (€)"),
        max_digits=8,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    listed = models.BooleanField(
        _("público en la lista de torneos"),
        default=True,
        help_text=_("Si no, el torneo solo es accesible con su dirección (no listado)."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("creado por"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modificado"), auto_now=True)
    # Bumped whenever something players watch changes (a draw published, a result confirmed): the
    # public pages poll it and refresh themselves without reloading (torneo.services.live).
    live_version = models.PositiveIntegerField(default=0, editable=False)
    # The live_version of the last change that concerned every pair's page (a draw, a round): a
    # pair's page is as new as the later of this and the pair's own live_version (live.json?pareja=).
    live_all_version = models.PositiveIntegerField(default=0, editable=False)

    history = HistoricalRecords(excluded_fields=["live_version", "live_all_version", "updated_at"])

    class Meta:
        verbose_name = _("torneo")
        verbose_name_plural = _("torneos")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")),
                name="tournament_dates_in_order",
                violation_error_message=_("La fecha de fin no puede ser anterior a la de inicio."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("torneo:tournament_detail", kwargs={"slug": self.slug})

    def clean(self) -> None:
        """Each format needs its own parameters; say which one is missing, on its field."""
        errors: dict[str, StrOrPromise] = {}
        if self.format == self.Format.REPESCA:
            if not self.repesca_until_round:
                errors["repesca_until_round"] = _(
                    "La repesca necesita la última ronda cuyos perdedores van al grupo B."
                )
            elif self.repesca_reentry_round is not None and self.repesca_reentry_round <= self.repesca_until_round:
                errors["repesca_reentry_round"] = _("El reenganche debe ser posterior a la última ronda con repesca.")
        if self.format == self.Format.SWISS and not self.swiss_rounds:
            errors["swiss_rounds"] = _("Indica cuántas rondas tiene el suizo.")
        if self.format == self.Format.LIGUILLAS and not self.group_count:
            errors["group_count"] = _("Indica cuántas liguillas se forman.")
        if (
            self.format == self.Format.REPESCA
            and self.final_phase_from_round
            and self.repesca_reentry_round
            and self.final_phase_from_round < self.repesca_reentry_round
        ):
            errors["final_phase_from_round"] = _("Con reenganche, la fase final empieza en el reenganche o después.")
        from scoring.standings import TIEBREAKS

        unknown = [t for t in self.tiebreaks.split(",") if t.strip() and t.strip() not in TIEBREAKS]
        if unknown:
            errors["tiebreaks"] = _("Desempates desconocidos: %(t)s. Válidos: %(v)s.") % {
                "t": ", ".join(unknown),
                "v": ", ".join(TIEBREAKS),
            }
        if errors:
            raise ValidationError(errors)

    @property
    def tiebreak_order(self) -> list[str]:
        """The tiebreaks in the tournament's order (the defaults when none is set)."""
        from scoring.standings import DEFAULT_TIEBREAKS, TIEBREAKS

        order = [t.strip() for t in (self.tiebreaks or "").split(",") if t.strip() in TIEBREAKS]
        return order or list(DEFAULT_TIEBREAKS)

    @property
    def is_visible_to_public(self) -> bool:
        return self.status != self.Status.DRAFT

    @property
    def accepts_public_registrations(self) -> bool:
        return self.status == self.Status.REGISTRATION_OPEN

    @property
    def max_players_per_pair(self) -> int:
        return 3 if self.allow_trios else 2


class Session(models.Model):
    """A jornada (or tanda): a block of rounds with its start time (AMM 6.1, 6.1.c)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="sessions"
    )
    name = models.CharField(_("nombre"), max_length=100)
    starts_at = models.DateTimeField(_("hora de comienzo"))
    # AMM 6.1.c: optional grace time before the clock of the session's first match starts.
    courtesy_minutes = models.PositiveSmallIntegerField(
        _("tiempo de cortesía (minutos)"), default=0, validators=[MaxValueValidator(60)]
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("jornada")
        verbose_name_plural = _("jornadas")
        ordering = ["tournament", "starts_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.tournament})"


class TournamentRole(models.Model):
    """A user's role in one tournament. Player and public roles are implicit (see permissions)."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organización")
        CONTROL = "control", _("Mesa de control")
        JUEZ = "juez", _("Juez")

    tournament = models.ForeignKey(Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("usuario"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("función"), max_length=10, choices=Role.choices)
    # A juez's zone of the room (torneo.tableranges: «1-20, 41-50»); empty: every table.
    tables = models.CharField(_("mesas"), max_length=200, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("función en un torneo")
        verbose_name_plural = _("funciones en torneos")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="unique_tournament_role"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} — {self.tournament}"


class Player(models.Model):
    """A person as one tournament's registration knows them (RGPD: the data belongs to that
    registration, is seen by that tournament's staff only, and no other tournament's form reads or
    changes it). Linked to a user account when the organizer or the person links it (the player
    role); that link is the only identity shared across tournaments."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="players"
    )
    first_name = models.CharField(_("nombre"), max_length=100)
    last_name = models.CharField(_("apellidos"), max_length=150)
    # Normalised (upper case, no spaces or dashes); empty when not given.
    id_document = models.CharField(_("documento de identidad"), max_length=20, blank=True, db_index=True)
    phone = models.CharField(_("teléfono"), max_length=20, blank=True)
    email = models.EmailField(_("correo electrónico"), blank=True)
    club = models.CharField(_("club / peña"), max_length=120, blank=True)
    # Accents and case removed: used for searching and for the same-person check without document.
    normalized_name = models.CharField(max_length=260, db_index=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("usuario"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("jugador")
        verbose_name_plural = _("jugadores")
        ordering = ["last_name", "first_name"]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.set_normalized_name()
        super().save(*args, **kwargs)

    def set_normalized_name(self) -> None:
        """The search and same-person key (save() sets it; bulk creation calls it)."""
        from torneo.identity import normalize_name

        self.normalized_name = normalize_name(self.full_name)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


def pair_label(name: str, members: Sequence[tuple[str, str]], number: int) -> str:
    """The pair as players read it on the wall: its name, else its players' surnames (a first name
    when there is no surname) in seat order, else its number. The one rule for every page, export
    and API (members: (first name, last name) in position order)."""
    return name or " / ".join(last or first for first, last in members) or f"#{number}"


def players_label(members: Sequence[tuple[str, str]]) -> str:
    """The pair's players in full, in seat order: «Ana García · Luis Pérez»."""
    return " · ".join(f"{first} {last}".strip() for first, last in members)


class Pair(models.Model):
    """A pareja (or trío, AMM 5.8.e) entered in a tournament, with its registration state."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Inscrita")
        WAITLISTED = "waitlisted", _("Lista de espera")
        WITHDRAWN = "withdrawn", _("Retirada")
        EXPELLED = "expelled", _("Expulsada")

        @classmethod
        def out(cls) -> tuple[str, ...]:
            """The statuses of a pair out of the tournament: never drawn again; an expelled pair
            (AMM 3.16.b) is not classified either, a withdrawn one keeps its results."""
            return (cls.WITHDRAWN, cls.EXPELLED)

    class Source(models.TextChoices):
        PUBLIC_FORM = "public", _("Formulario público")
        CONTROL = "control", _("Mesa de control")
        CSV = "csv", _("Importación CSV")
        API = "api", _("API")

    tournament = models.ForeignKey(Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="pairs")
    # The pair's number in this tournament (1, 2, ...), in order of registration: what the mesa
    # de control and the wall sheets call it.
    number = models.PositiveIntegerField(_("número"), editable=False)
    name = models.CharField(_("nombre de la pareja"), max_length=120, blank=True)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.CONFIRMED)
    source = models.CharField(_("origen"), max_length=10, choices=Source.choices, default=Source.CONTROL)
    registered_at = models.DateTimeField(_("inscrita el"), auto_now_add=True, db_index=True)
    # Position in the waiting list is by registered_at; kept explicit for clarity in exports.
    checked_in_at = models.DateTimeField(_("presente desde"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("retirada el"), null=True, blank=True)
    notes = models.TextField(_("notas de la organización"), blank=True)
    fixed_table = models.PositiveSmallIntegerField(
        _("mesa fija"),
        null=True,
        blank=True,
        help_text=_("Para una pareja que debe jugar siempre en la misma mesa (p. ej. accesibilidad)."),
    )
    players = models.ManyToManyField(Player, through="PairMember", related_name="pairs")
    # Bumped on every change: lets forms and the API refuse a stale edit (optimistic locking).
    version = models.PositiveIntegerField(default=1)
    # The tournament's live_version at the last change of this pair's own page (its result, its
    # table's clock, its recorded hands): its phones poll live.json?pareja=<number> (torneo.services.live).
    live_version = models.PositiveIntegerField(default=0, editable=False)

    history = HistoricalRecords(excluded_fields=["version", "live_version"])

    class Meta:
        verbose_name = _("pareja")
        verbose_name_plural = _("parejas")
        ordering = ["tournament", "number"]
        indexes = [models.Index(fields=["tournament", "status"])]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_pair_number"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        members = self.ordered_members()
        return pair_label(self.name, [(m.player.first_name, m.player.last_name) for m in members], self.number)

    @property
    def members_label(self) -> str:
        return players_label([(m.player.first_name, m.player.last_name) for m in self.ordered_members()])

    @property
    def is_out(self) -> bool:
        return self.status in Pair.Status.out()

    def ordered_members(self) -> list["PairMember"]:
        # Uses the prefetch cache when present (selectors prefetch members__player).
        return sorted(self.members.all(), key=lambda m: m.position)

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.CONFIRMED, self.Status.WAITLISTED)


class PairMember(models.Model):
    """A player in a pair. `identity_key` makes 'one person, one pair per tournament' a DB rule."""

    pair = models.ForeignKey(Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, verbose_name=_("jugador"), on_delete=models.PROTECT, related_name="memberships")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+", editable=False)
    position = models.PositiveSmallIntegerField(_("orden"), validators=[MinValueValidator(1)])
    # "doc:<DOCUMENT>" when the document is known, else "name:<normalised name>". Released (set to
    # NULL) when the pair withdraws, so that its players may enter again with another partner.
    identity_key = models.CharField(max_length=300, null=True, editable=False)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("integrante")
        verbose_name_plural = _("integrantes")
        ordering = ["pair", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "position"], name="unique_member_position"),
            models.UniqueConstraint(
                fields=["tournament", "identity_key"],
                condition=Q(identity_key__isnull=False),
                name="one_pair_per_person_per_tournament",
                violation_error_message=_("Este jugador ya está inscrito en otra pareja del torneo."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.pair})"

    def clean(self) -> None:
        """A pair's players are its own tournament's records (personal data per tournament)."""
        if self.player_id and self.pair_id and self.player.tournament_id != self.pair.tournament_id:
            raise ValidationError({"player": _("El jugador pertenece a la inscripción de otro torneo.")})


class WorkerHeartbeat(models.Model):
    """The last time Celery beat and a worker ran the periodic task: time-driven rules (the match
    clocks of chapter VI) depend on them, so the organizer's dashboard shows whether they run."""

    name = models.CharField(max_length=50, unique=True)
    beat_at = models.DateTimeField()

    class Meta:
        verbose_name = _("latido de tareas programadas")
        verbose_name_plural = _("latidos de tareas programadas")

    def __str__(self) -> str:
        return f"{self.name} @ {timezone.localtime(self.beat_at):%H:%M:%S}"

"""The notices by e-mail (issue 33, item 4; the model: torneo/models/email_notices.py).

A player of the pair, on the pair's page, gives an address and ticks the consent; the site sends
one e-mail to it with a confirmation link (valid ``CONFIRM_DAYS``): only a confirmed address gets
notices, with its consent recorded with the date. Every notice carries a one-click unsubscribe
link (RFC 8058: ``List-Unsubscribe`` and ``List-Unsubscribe-Post``; the link's page too), which
deletes the address. The links are signed with the site's SECRET_KEY (``django.core.signing``):
nothing to guess, nothing kept.

Sent through Django's e-mail backend (settings: SMTP in production, files under var/correo/ in
the demo) by a Celery task, after the commit of what caused them, in the language the address
was given in."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from torneo.errors import NotAllowed
from torneo.models import EmailSubscription, Pair, Tournament
from torneo.notice_texts import render
from torneo.permissions import member_pairs
from torneo.typing import User

CONFIRM_DAYS = 7
_CONFIRM_SALT = "torneo.avisos-correo.confirmar"
_UNSUBSCRIBE_SALT = "torneo.avisos-correo.baja"
MAX_ADDRESSES_PER_PAIR = 6  # a pair of three, and a spare address each


def _link(name: str, token: str) -> str:
    return f"{settings.SITE_URL}{reverse(name, args=[token])}"


def confirm_token(sub: EmailSubscription) -> str:
    return signing.dumps([sub.pk, sub.email], salt=_CONFIRM_SALT, compress=True)


def unsubscribe_token(sub: EmailSubscription) -> str:
    return signing.dumps([sub.pk, sub.email], salt=_UNSUBSCRIBE_SALT, compress=True)


def email_subscribe(*, pair: Pair, by: User, email: str, consent: bool, language: str) -> EmailSubscription:
    """A player of ``pair`` asks for its notices at ``email`` (``consent``: the box ticked): the
    confirmation e-mail is sent when the transaction commits. The same address again sends a new
    confirmation (a confirmed one stays confirmed)."""
    if not member_pairs(by, [pair.pk]):
        raise NotAllowed(_("Solo los jugadores de la pareja (o su móvil) piden sus avisos por correo."))
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError({"email": _("Escribe un correo electrónico válido.")}) from None
    if len(email) > 254:
        raise ValidationError({"email": _("El correo electrónico es demasiado largo (máximo 254 caracteres).")})
    if not consent:
        raise ValidationError(
            {"consent": _("Marca la casilla para aceptar recibir los avisos del torneo en ese correo.")}
        )
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    with transaction.atomic():
        Pair.objects.select_for_update().filter(pk=pair.pk).values_list("pk", flat=True).get()
        sub = EmailSubscription.objects.filter(pair=pair, email__iexact=email).first()
        if sub is None:
            if EmailSubscription.objects.filter(pair=pair).count() >= MAX_ADDRESSES_PER_PAIR:
                raise ValidationError(
                    {"email": _("Esta pareja ya tiene %(n)d correos para avisos.") % {"n": MAX_ADDRESSES_PER_PAIR}}
                )
            sub = EmailSubscription.objects.create(pair=pair, email=email, language=language)
        else:
            sub.language = language
            sub.save(update_fields=["language"])
        sub_id = sub.pk
        transaction.on_commit(lambda: _queue([[sub_id, "confirm"]]))
    return sub


def _from_token(token: str, salt: str, max_age: int | None = None) -> EmailSubscription | None:
    try:
        pk, email = signing.loads(token, salt=salt, max_age=max_age)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return EmailSubscription.objects.select_related("pair__tournament").filter(pk=pk, email=email).first()


def email_confirm(*, token: str) -> EmailSubscription | None:
    """The player confirmed the address from the e-mail: its consent, recorded now. None for a
    link that is not one, has expired, or names an address no longer asked for."""
    sub = _from_token(token, _CONFIRM_SALT, CONFIRM_DAYS * 24 * 3600)
    if sub is not None and sub.consented_at is None:
        sub.consented_at = timezone.now()
        sub.save(update_fields=["consented_at"])
    return sub


def email_unsubscribe(*, token: str) -> EmailSubscription | None:
    """The one-click link: the address is deleted (None: nothing to delete; answered alike)."""
    sub = _from_token(token, _UNSUBSCRIBE_SALT)
    if sub is not None:
        EmailSubscription.objects.filter(pk=sub.pk).delete()
    return sub


def email_notices_purge(*, now: datetime.datetime | None = None) -> int:
    """Hourly on beat: the addresses of tournaments that are over — finished, or past their last
    day by more than a day — are deleted (they were given for that tournament's notices only);
    an address never confirmed, after CONFIRM_DAYS. Returns how many."""
    now = now or timezone.now()
    over = Q(pair__tournament__status=Tournament.Status.FINISHED) | Q(
        pair__tournament__end_date__lt=timezone.localdate(now) - datetime.timedelta(days=1)
    )
    stale = Q(consented_at__isnull=True, asked_at__lt=now - datetime.timedelta(days=CONFIRM_DAYS))
    deleted, _rows = EmailSubscription.objects.filter(over | stale).delete()
    return deleted


def email_notices_send(*, messages: Sequence[tuple[int, dict[str, Any]]]) -> int:
    """Each (pair id, notice) to the pair's confirmed addresses, by a worker after the commit (the
    notice as torneo/notice_texts.py renders it, in each address's language); returns how many
    e-mails."""
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for pair_id, payload in messages:
        by_pair.setdefault(pair_id, []).append(payload)
    rows = EmailSubscription.objects.filter(pair_id__in=list(by_pair), consented_at__isnull=False)
    items = [[pk, payload] for pk, pair_id in rows.values_list("pk", "pair_id") for payload in by_pair[pair_id]]
    if items:
        transaction.on_commit(lambda: _queue(items))
    return len(items)


def _queue(items: list[list[Any]]) -> None:
    from torneo.tasks import notice_emails_task

    for start in range(0, len(items), 100):
        notice_emails_task.delay(items[start : start + 100])


def email_batch(items: Sequence[Sequence[Any]]) -> int:
    """Send each ``[subscription id, notice or "confirm"]`` through one connection; returns how
    many were sent (a subscription deleted meanwhile is skipped). An SMTP error propagates: the
    task retries."""
    from django.core.mail import EmailMessage, get_connection

    subs = EmailSubscription.objects.select_related("pair__tournament").in_bulk({int(pk) for pk, _p in items})
    mails = []
    for pk, payload in items:
        sub = subs.get(int(pk))
        if sub is None or (payload != "confirm" and sub.consented_at is None):
            continue
        with translation.override(sub.language):
            subject, body, headers = _confirmation(sub) if payload == "confirm" else _notice(sub, render(payload))
        mails.append(EmailMessage(subject, body, to=[sub.email], headers=headers))
    if mails:
        with get_connection() as connection:
            connection.send_messages(mails)
    return len(mails)


def _confirmation(sub: EmailSubscription) -> tuple[str, str, dict[str, str]]:
    tournament = sub.pair.tournament
    subject = _("Confirma tus avisos de %(t)s") % {"t": tournament.name}
    body = "\n\n".join(
        [
            _(
                "Alguien (seguramente tú) ha pedido en la página de la pareja %(n)s de %(t)s recibir en este "
                "correo los avisos del torneo: la mesa de cada ronda, el resultado por confirmar, el reloj y el juez."
            )
            % {"n": sub.pair.number, "t": tournament.name},
            _("Para aceptarlo, abre este enlace (vale %(d)d días):") % {"d": CONFIRM_DAYS},
            _link("email_confirm", confirm_token(sub)),
            _("Si no lo has pedido tú, no hagas nada: no recibirás ningún otro correo."),
        ]
    )
    return subject, body, {}


def _notice(sub: EmailSubscription, payload: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    unsubscribe = _link("email_unsubscribe", unsubscribe_token(sub))
    lines = [str(payload.get("body") or ""), f"{settings.SITE_URL}{payload.get('url') or ''}"]
    lines.append(
        _("Recibes este aviso porque lo pediste en la página de tu pareja. Para no recibir más: %(url)s")
        % {"url": unsubscribe}
    )
    headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    return str(payload["title"]), "\n\n".join(line for line in lines if line), headers

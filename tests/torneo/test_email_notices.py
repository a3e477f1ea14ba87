"""The notices by e-mail (issue 33, item 4; torneo/services/email_notices.py), through a real SMTP
conversation with a mail server on this machine (aiosmtpd): a player asks on the pair's page with
explicit consent, confirms the address from the e-mail, gets the notices, and leaves with the
one-click link (RFC 8058) every notice carries."""

from __future__ import annotations

import email
import re
import socket
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.celery import app as celery_app
from torneo.models import EmailSubscription
from torneo.services.terminals import terminal_issue

pytestmark = pytest.mark.django_db


class Inbox:
    """aiosmtpd's handler: every message the site sends, parsed."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def inbox(settings: Any) -> Iterator[Inbox]:
    handler = Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = Controller(handler, hostname="127.0.0.1", port=port)
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.SITE_URL = "https://mus.example.org"
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield handler
    celery_app.conf.task_always_eager = eager
    server.stop()


def body(message: Message) -> str:
    return message.get_payload(decode=True).decode()


def link(message: Message, kind: str) -> str:
    found = re.search(rf"https://mus\.example\.org(/avisos/{kind}/[^/\s]+/)", body(message))
    assert found, body(message)
    return found.group(1)


def phone(sim: Any, number: int) -> Client:
    issued = terminal_issue(pair=sim.tournament.pairs.get(number=number), by=sim.organizer)
    client = Client()
    assert client.get(f"/torneos/{sim.tournament.slug}/tarjeta/{issued.token}/").status_code == 303
    return client


def ask(client: Client, sim: Any, number: int, **data: str) -> Any:
    return client.post(f"/torneos/{sim.tournament.slug}/parejas/{number}/avisos-correo/", data, follow=True)


def test_a_player_asks_confirms_gets_the_notices_and_leaves_with_one_click(
    inbox: Inbox, django_capture_on_commit_callbacks
):
    sim = new_tournament(8, seed=4)
    client = phone(sim, 2)
    with django_capture_on_commit_callbacks(execute=True):
        page = ask(client, sim, 2, email="ana@example.net", consent="on")
    assert "Te hemos enviado un correo a ana@example.net" in page.content.decode()
    [asked] = inbox.to("ana@example.net")
    assert "pareja 2" in body(asked) and EmailSubscription.objects.get().consented_at is None
    # Nothing is sent to an address not confirmed yet.
    with django_capture_on_commit_callbacks(execute=True):
        round_ = publish_next_round(sim)
    assert len(inbox.to("ana@example.net")) == 1
    # The link's page asks first (a mail scanner opening it confirms nothing); the button does.
    confirm = link(asked, "confirmar")
    assert "Sí, quiero recibirlos" in Client().get(confirm).content.decode()
    assert EmailSubscription.objects.get().consented_at is None
    done = Client().post(confirm)
    assert done.status_code == 200 and done["Cache-Control"] == "no-store"
    assert EmailSubscription.objects.get().consented_at is not None

    # The rival reports a result: the pair's address hears it, with the one-click link.
    match = next(m for m in playing(round_) if 2 in (m.pair_a.number, m.pair_b.number))
    rival = match.pair_a if match.pair_b.number == 2 else match.pair_b
    rival_phone = phone(sim, rival.number)
    with django_capture_on_commit_callbacks(execute=True):
        sent = rival_phone.post(
            f"/api/v1/tournaments/{sim.tournament.slug}/submissions/report/",
            {"match": match.pk, "games_a": 3, "games_b": 1},
            content_type="application/json",
        )
    assert sent.status_code == 201, sent.content
    notice = inbox.to("ana@example.net")[-1]
    assert notice["Subject"] == f"Mesa {match.table_number}: confirmad el resultado"
    assert f"https://mus.example.org/torneos/{sim.tournament.slug}/parejas/2/ficha/" in body(notice)
    assert notice["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = "".join(notice["List-Unsubscribe"].split()).strip("<>").removeprefix("https://mus.example.org")
    assert unsubscribe == link(notice, "baja")
    # The mail program's own one-click POST (RFC 8058: no page, no CSRF token).
    csrf_checked = Client(enforce_csrf_checks=True)
    form = "application/x-www-form-urlencoded"
    gone = csrf_checked.post(unsubscribe, "List-Unsubscribe=One-Click", content_type=form)
    assert gone.status_code == 200 and "no recibirás más avisos" in gone.content.decode()
    assert not EmailSubscription.objects.exists()
    again = csrf_checked.post(unsubscribe)  # answered alike: nothing left to delete
    assert again.status_code == 200


def test_no_consent_no_address_and_strangers_are_refused_with_the_field_named(inbox: Inbox):
    sim = new_tournament(8, seed=4)
    client = phone(sim, 3)
    page = ask(client, sim, 3, email="luis@example.net").content.decode()
    assert "Marca la casilla" in page or "obligatorio" in page
    page = ask(client, sim, 3, email="no-es-un-correo", consent="on").content.decode()
    assert "Correo electrónico:" in page
    assert not EmailSubscription.objects.exists() and inbox.messages == []
    # Another pair's phone, or nobody signed in, cannot ask for this pair's notices.
    assert ask(phone(sim, 4), sim, 3, email="x@example.net", consent="on").status_code == 403
    assert Client().post(f"/torneos/{sim.tournament.slug}/parejas/3/avisos-correo/").status_code == 302
    assert not EmailSubscription.objects.exists()


def test_a_forged_or_expired_link_confirms_nothing(inbox: Inbox, django_capture_on_commit_callbacks):
    sim = new_tournament(8, seed=4)
    with django_capture_on_commit_callbacks(execute=True):
        ask(phone(sim, 5), sim, 5, email="eva@example.net", consent="on")
    confirm = link(inbox.to("eva@example.net")[0], "confirmar")
    forged = confirm.replace("/confirmar/", "/confirmar/x")
    assert Client().post(forged).status_code == 400
    import time_machine
    from django.utils import timezone

    with time_machine.travel(timezone.now() + timezone.timedelta(days=8)):
        assert Client().post(confirm).status_code == 400
    assert EmailSubscription.objects.get().consented_at is None


def test_erasing_a_players_personal_data_deletes_their_address_for_the_notices(inbox: Inbox):
    from torneo.services.personal_data import player_erase_personal_data

    sim = new_tournament(8, seed=4)
    pair = sim.tournament.pairs.get(number=6)
    member = pair.members.select_related("player").first()
    member.player.email = "pepe@example.net"
    member.player.save()
    EmailSubscription.objects.create(pair=pair, email="Pepe@example.net")
    EmailSubscription.objects.create(pair=pair, email="otra@example.net")
    player_erase_personal_data(player=member.player)
    assert list(EmailSubscription.objects.values_list("email", flat=True)) == ["otra@example.net"]


def test_the_addresses_go_when_the_tournament_is_over_or_never_confirmed():
    """Given for one tournament's notices, an address is deleted a day after its last day (or once
    it is finished); one never confirmed, when its link has expired (torneo.email_notices_purge)."""
    from datetime import timedelta

    from django.utils import timezone

    from torneo.models import Tournament
    from torneo.services.email_notices import email_notices_purge

    sim = new_tournament(8, seed=4)
    t = sim.tournament
    pairs = list(t.pairs.order_by("number")[:2])
    now = timezone.now()
    kept = EmailSubscription.objects.create(pair=pairs[0], email="sigue@example.net", consented_at=now)
    waiting = EmailSubscription.objects.create(pair=pairs[1], email="espera@example.net")
    assert email_notices_purge(now=now) == 0
    EmailSubscription.objects.filter(pk=waiting.pk).update(asked_at=now - timedelta(days=8))
    assert email_notices_purge(now=now) == 1 and EmailSubscription.objects.get() == kept
    assert email_notices_purge(now=now + timedelta(days=(t.end_date - timezone.localdate(now)).days + 1)) == 0
    assert email_notices_purge(now=now + timedelta(days=(t.end_date - timezone.localdate(now)).days + 3)) == 1
    again = EmailSubscription.objects.create(pair=pairs[0], email="otra@example.net", consented_at=now)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    assert email_notices_purge(now=now) == 1 and not EmailSubscription.objects.filter(pk=again.pk).exists()

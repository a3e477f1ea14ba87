"""Web Push, the server side (issue 33, item 3): the site's VAPID keys, the subscriptions' API and
the sending, end to end against a push receiver on this machine (127.0.0.1): each test makes a
browser-like subscription (its own P-256 key pair and auth secret), subscribes through the API,
sends with ``push_send`` (Celery eager), and the receiver checks what a push service would: the
VAPID signature (ES256, ``aud`` its own origin, the site's public key) and the body, which it
decrypts (aes128gcm, RFC 8291) with the subscription's private key."""

from __future__ import annotations

import base64
import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory
from torneo.celery import app as celery_app
from torneo.models import PushSubscription
from torneo.push import keys
from torneo.push.send import MAX_PAYLOAD_BYTES, push_payload, push_send

pytestmark = pytest.mark.django_db

PAYLOAD = {"title": "Ronda 2 publicada", "body": "Mesa 4: Pareja 12 – Pareja 3", "url": "/t/open/", "tag": "ronda-2"}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --- The push receiver ----------------------------------------------------------------------------


class Receiver:
    """A push service on 127.0.0.1: records every request; answers with the codes queued for its
    path (``answers[path] = [500, 201]``), 201 once they are used up."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.answers: dict[str, list[int]] = {}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    queued = receiver.answers.get(self.path) or []
                    code = queued.pop(0) if queued else 201
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def to(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"] == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(autouse=True)
def _own_keys(settings: Any, tmp_path: Path) -> Iterator[None]:
    """Every test's VAPID key under its own var/ (never the site's), and Celery tasks run eagerly."""
    settings.VAR_DIR = tmp_path / "var"
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_SUBJECT = ""
    keys._private_key.cache_clear()
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    # Not propagated: an eager retry is raised as an exception when it propagates, and Celery runs
    # the retry at once only when it does not (the countdown is not waited for).
    celery_app.conf.task_eager_propagates = False
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous
    keys._private_key.cache_clear()


class Browser:
    """A browser's push subscription: its own key pair and auth secret, as PushManager makes them."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.json: dict[str, Any] = {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def subscribe(user: Any, browser: Browser, **extra: Any) -> Any:
    return api(user).post("/api/v1/push/subscriptions/", {**browser.json, **extra}, format="json")


def send(django_capture_on_commit_callbacks: Any, **kwargs: Any) -> int:
    with django_capture_on_commit_callbacks(execute=True):
        return push_send(**kwargs)


def verify_vapid(authorization: str, audience: str) -> dict[str, Any]:
    """The VAPID header (RFC 8292) as a push service checks it: ``vapid t=<JWT>, k=<public key>``,
    k the site's key, the JWT signed by it (ES256), for this origin, not expired."""
    scheme, _, params = authorization.partition(" ")
    assert scheme.lower() == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == keys.public_key_b64url()
    head, claims_b64, signature = fields["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64(claims_b64))
    assert claims["aud"] == audience
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"].startswith(("mailto:", "https://"))
    return claims


# --- Keys -------------------------------------------------------------------------------------------


def test_the_key_pair_is_made_once_under_var_private_and_reused(settings: Any):
    first = keys.public_key_b64url()
    assert len(unb64(first)) == 65 and unb64(first)[0] == 4
    folder = Path(settings.VAR_DIR) / "vapid"
    key_file = folder / keys.KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert [p.name for p in folder.iterdir()] == [keys.KEY_FILE]  # no temporary file left
    pem = key_file.read_bytes()
    keys._private_key.cache_clear()  # a new process reads the same file
    assert keys.public_key_b64url() == first
    assert key_file.read_bytes() == pem
    assert api().get("/api/v1/push/key/").json() == {"public_key": first}


def test_keys_from_the_settings_pem_or_raw_and_a_wrong_public_half_is_refused(settings: Any):
    from django.core.exceptions import ImproperlyConfigured

    key = ec.generate_private_key(ec.SECP256R1())
    public = b64(
        key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    settings.VAPID_PRIVATE_KEY = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    assert keys.public_key_b64url() == public
    settings.VAPID_PRIVATE_KEY = b64(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = public
    assert keys.public_key_b64url() == public
    assert not (Path(settings.VAR_DIR) / "vapid").exists()  # nothing written when configured
    settings.VAPID_PUBLIC_KEY = b64(b"\x04" + bytes(64))
    with pytest.raises(ImproperlyConfigured):
        keys.public_key_b64url()


# --- Sending, end to end ---------------------------------------------------------------------------


def test_a_push_arrives_signed_by_the_site_and_decrypts_to_the_payload(
    receiver: Receiver, django_capture_on_commit_callbacks
):
    player = UserFactory()
    tournament = TournamentFactory()
    browser = Browser(f"{receiver.origin}/push/one")
    answer = subscribe(player, browser, tournament=tournament.slug)
    assert answer.status_code == 201, answer.content
    row = PushSubscription.objects.get()
    assert (row.user, row.tournament, row.endpoint) == (player, tournament, browser.endpoint)

    assert send(django_capture_on_commit_callbacks, user_ids=[player.pk], payload=PAYLOAD) == 1
    [request] = receiver.to("/push/one")
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0
    verify_vapid(headers["authorization"], receiver.origin)
    assert browser.decrypt(request["body"]) == PAYLOAD
    row.refresh_from_db()
    assert row.last_ok_at is not None and row.failures == 0


def test_a_forged_signature_does_not_verify(receiver: Receiver, django_capture_on_commit_callbacks):
    user = UserFactory()
    subscribe(user, Browser(f"{receiver.origin}/push/x"))
    send(django_capture_on_commit_callbacks, user_ids=[user.pk], payload=PAYLOAD)
    auth = {k.lower(): v for k, v in receiver.requests[0]["headers"].items()}["authorization"]
    verify_vapid(auth, receiver.origin)
    claims = auth.split("t=", 1)[1].split(",")[0].split(".")[1]  # the JWT's claims, for another site
    other_claims = b64(json.dumps({**json.loads(unb64(claims)), "aud": "https://evil.example"}).encode())
    with pytest.raises(InvalidSignature):
        verify_vapid(auth.replace(claims, other_claims), "https://evil.example")


def test_every_subscription_of_each_user_in_batches_and_nobody_elses(
    receiver: Receiver, django_capture_on_commit_callbacks, monkeypatch
):
    from torneo.push import send as send_module

    monkeypatch.setattr(send_module, "BATCH_SIZE", 2)
    ana, luis, other = UserFactory(), UserFactory(), UserFactory()
    browsers = {f"/p/{i}": Browser(f"{receiver.origin}/p/{i}") for i in range(5)}
    owners = [ana, ana, luis, luis, luis]
    for (_path, browser), owner in zip(browsers.items(), owners, strict=True):
        assert subscribe(owner, browser).status_code == 201
    subscribe(other, Browser(f"{receiver.origin}/other"))
    assert send(django_capture_on_commit_callbacks, user_ids=[ana.pk, luis.pk], payload=PAYLOAD) == 5
    assert sorted(r["path"] for r in receiver.requests) == sorted(browsers)
    for path, browser in browsers.items():
        assert browser.decrypt(receiver.to(path)[0]["body"]) == PAYLOAD


def test_410_or_404_deletes_the_subscription(receiver: Receiver, django_capture_on_commit_callbacks):
    user = UserFactory()
    subscribe(user, Browser(f"{receiver.origin}/gone"))
    subscribe(user, Browser(f"{receiver.origin}/missing"))
    subscribe(user, Browser(f"{receiver.origin}/fine"))
    receiver.answers = {"/gone": [410], "/missing": [404]}
    send(django_capture_on_commit_callbacks, user_ids=[user.pk], payload=PAYLOAD)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [f"{receiver.origin}/fine"]


def test_a_500_is_retried_for_that_subscription_only_and_delivered(
    receiver: Receiver, django_capture_on_commit_callbacks
):
    user = UserFactory()
    flaky, fine = Browser(f"{receiver.origin}/flaky"), Browser(f"{receiver.origin}/fine")
    subscribe(user, flaky)
    subscribe(user, fine)
    receiver.answers = {"/flaky": [500, 503]}
    send(django_capture_on_commit_callbacks, user_ids=[user.pk], payload=PAYLOAD)
    assert len(receiver.to("/flaky")) == 3  # 500, 503, then 201
    assert len(receiver.to("/fine")) == 1  # delivered the first time: not sent again
    assert flaky.decrypt(receiver.to("/flaky")[-1]["body"]) == PAYLOAD
    row = PushSubscription.objects.get(endpoint=flaky.endpoint)
    assert row.failures == 0 and row.last_ok_at is not None


def test_retries_wait_longer_each_time_and_stop_after_five(receiver: Receiver, monkeypatch):
    """The task itself, outside the eager chain: the countdown doubles, five retries at most."""
    from celery.exceptions import Retry

    from torneo.tasks import push_batch_task

    user = UserFactory()
    subscribe(user, Browser(f"{receiver.origin}/down"))
    receiver.answers = {"/down": [500] * 10}
    pk = PushSubscription.objects.get().pk
    data = push_payload(PAYLOAD)
    countdowns: list[int] = []

    def fake_retry(*, args: Any, countdown: int, max_retries: int) -> Retry:
        countdowns.append(countdown)
        assert [list(push) for push in args[0]] == [[pk, data]] and max_retries == 5
        return Retry()

    monkeypatch.setattr(push_batch_task, "retry", fake_retry)
    for retries in range(6):
        push_batch_task.push_request(retries=retries)
        try:
            if retries < 5:
                with pytest.raises(Retry):
                    push_batch_task.run([[pk, data]], 60)
            else:
                assert push_batch_task.run([[pk, data]], 60) == 0  # given up
        finally:
            push_batch_task.pop_request()
    assert countdowns == [1, 2, 4, 8, 16]
    assert PushSubscription.objects.get().failures == 6


def test_a_refused_push_is_not_retried(receiver: Receiver, django_capture_on_commit_callbacks):
    user = UserFactory()
    subscribe(user, Browser(f"{receiver.origin}/refuses"))
    receiver.answers = {"/refuses": [413]}
    send(django_capture_on_commit_callbacks, user_ids=[user.pk], payload=PAYLOAD)
    assert len(receiver.to("/refuses")) == 1
    assert PushSubscription.objects.get().failures == 1


def test_the_payload_is_small_and_only_the_known_fields():
    assert json.loads(push_payload(PAYLOAD)) == PAYLOAD
    for bad in (
        {"body": "sin título"},
        {"title": "x", "player_phone": "600000000"},
        {"title": "x", "url": "https://elsewhere.example/"},
        {"title": "x", "url": "//elsewhere.example/"},
        {"title": 3},
        {"title": "x", "body": "ñ" * MAX_PAYLOAD_BYTES},
    ):
        with pytest.raises(ValueError, match="notificación"):
            push_payload(bad)


def test_nobody_subscribed_queues_nothing(django_capture_on_commit_callbacks):
    assert send(django_capture_on_commit_callbacks, user_ids=[UserFactory().pk], payload=PAYLOAD) == 0


# --- The API ------------------------------------------------------------------------------------------


def test_subscribing_needs_an_account_and_the_same_endpoint_updates_its_row(receiver: Receiver):
    browser = Browser(f"{receiver.origin}/same")
    assert api().post("/api/v1/push/subscriptions/", browser.json, format="json").status_code in (401, 403)
    ana, luis = UserFactory(), UserFactory()
    assert subscribe(ana, browser).status_code == 201
    again = Browser(browser.endpoint)  # the browser renewed its keys
    answer = subscribe(luis, again)  # and now luis is signed in on that device
    assert answer.status_code == 200, answer.content
    row = PushSubscription.objects.get()
    assert (row.user, row.p256dh, row.auth) == (luis, again.json["keys"]["p256dh"], again.json["keys"]["auth"])


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"endpoint": "http://push.example.net/x"}, "endpoint", "https"),
        ({"endpoint": "no es una dirección"}, "endpoint", "URL"),
        ({"keys": {"p256dh": "!!!", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys", "base64url"),
        ({"keys": {"p256dh": b64(b"\x04" + bytes(10)), "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys", "65 bytes"),
        ({"keys": {"p256dh": b64(b"\x04" + bytes(64)), "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys", "P-256"),
        ({"keys": "auth"}, "keys", ""),
        ({"tournament": "no-existe"}, "tournament", "torneo"),
    ],
)
def test_bad_subscriptions_are_refused_in_spanish_naming_the_field(change, field, words):
    browser = Browser("https://push.example.net/v2/abc")
    good = browser.json
    answer = api(UserFactory()).post("/api/v1/push/subscriptions/", {**good, **change}, format="json")
    assert answer.status_code == 400
    errors = answer.json()
    assert field in errors, errors
    assert words in json.dumps(errors, ensure_ascii=False)
    assert not PushSubscription.objects.exists()


def test_a_bad_auth_secret_is_refused_with_its_length():
    browser = Browser("https://push.example.net/v2/abc")
    body = {**browser.json, "keys": {**browser.json["keys"], "auth": b64(bytes(8))}}
    answer = api(UserFactory()).post("/api/v1/push/subscriptions/", body, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"keys": {"auth": ["El campo «keys.auth» debe medir 16 bytes (tiene 8)."]}}


def test_http_endpoints_elsewhere_are_accepted_only_with_debug(settings: Any):
    settings.DEBUG = True
    browser = Browser("http://push.example.net/dev")
    assert subscribe(UserFactory(), browser).status_code == 201


def test_delete_removes_only_ones_own(receiver: Receiver):
    ana, luis = UserFactory(), UserFactory()
    mine, theirs = Browser("https://push.example.net/ana"), Browser("https://push.example.net/luis")
    subscribe(ana, mine)
    subscribe(luis, theirs)
    url = "/api/v1/push/subscriptions/"
    answer = api(ana).delete(url, {"endpoint": theirs.endpoint}, format="json")
    assert answer.status_code == 404
    assert "suscripción" in answer.json()["detail"]
    assert api().delete(url, {"endpoint": mine.endpoint}, format="json").status_code in (401, 403)
    assert api(ana).delete(url, {"endpoint": mine.endpoint}, format="json").status_code == 204
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [theirs.endpoint]


def test_the_push_endpoints_are_in_the_schema():
    schema = api().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    assert {"get"} <= set(schema["paths"]["/api/v1/push/key/"])
    assert {"post", "delete"} <= set(schema["paths"]["/api/v1/push/subscriptions/"])

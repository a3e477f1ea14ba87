"""The production broker's transport (torneo/broker.py ``RedisTransport``): a worker whose Redis
went away closes its broken connection as celery's consumer does (collect, then close) and goes on
to reconnect. With kombu's own transport the second close raised ``AttributeError`` (the channel put
its unacknowledged message back through a transport with no address), an error celery does not
count as a lost connection: the worker stopped and the clocks' tick with it."""

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kombu import Connection, Exchange, Queue
from kombu.common import ignore_errors

from tests.test_production_stack import RedisServer
from torneo import broker


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def test_a_worker_whose_redis_restarted_closes_its_connection_as_a_connection_error_and_reconnects(
    redis_server: RedisServer,
) -> None:
    url = f"{redis_server.url}/0"
    connection = Connection(url, transport=broker.RedisTransport)
    queue = connection.SimpleQueue("tick")
    queue.put({"tick": 1})
    taken = queue.get(timeout=5)  # taken, not acknowledged (CELERY_TASK_ACKS_LATE)
    assert taken.payload == {"tick": 1} and not taken.acknowledged
    # A second channel with a broadcast queue, as the worker's remote control (pidbox) has: closing
    # it once Redis is gone fails, which leaves the tasks' channel open when the transport closes.
    control = connection.channel()
    Queue("control", Exchange("control", type="fanout"), auto_delete=True)(control).declare()
    assert control.client.ping()
    # Waiting for the next message, as a worker's event loop does (a BRPOP sent, not yet read).
    with pytest.raises(socket.timeout):
        connection.drain_events(timeout=0.2)
    redis_server.stop()  # killed: every connection cut

    # celery.worker.consumer.Consumer.on_connection_error_after_connected, in this order.
    with contextlib.suppress(Exception):  # celery ignores whatever collecting raises
        connection.collect(socket_timeout=1)
    ignore_errors(connection, connection.close)  # raised AttributeError with kombu's transport

    redis_server.start()
    again = Connection(url, transport=broker.RedisTransport)
    try:
        fresh = again.SimpleQueue("tick")
        fresh.put({"tick": 2})
        assert fresh.get(timeout=5).payload == {"tick": 2}
    finally:
        again.close()


def test_production_settings_use_this_transport_for_redis() -> None:
    code = "from django.conf import settings; print(settings.CELERY_BROKER_TRANSPORT)"
    env = {"DJANGO_SETTINGS_MODULE": "torneo.settings", "CELERY_BROKER_URL": "redis://127.0.0.1:1/0"}
    printed = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout.strip()
    assert printed == "torneo.broker:RedisTransport"

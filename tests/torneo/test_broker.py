"""The embedded default's broker (torneo/broker.py): a worker reading the queue while messages are
being written gets each one whole, never an empty or half-written file (kombu's own file-system
transport let the worker take a file it had just created, fail to decode it and stop)."""

import os
import sys
import threading
from pathlib import Path
from queue import Empty

import pytest
from django.conf import settings
from kombu import Connection
from kombu.transport.virtual import BrokerState

from torneo import broker

TRANSPORT = broker.Transport


@pytest.fixture(autouse=True)
def transport(monkeypatch: pytest.MonkeyPatch) -> None:
    """kombu keeps the bindings it has made in one state per process (its class's): each test is a
    process of its own, with its own folders."""
    monkeypatch.setattr(TRANSPORT, "global_state", BrokerState())


def connection_on(folder: Path) -> Connection:
    return Connection(
        "filesystem://",
        transport=TRANSPORT,
        transport_options={
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "control_folder": str(folder / "control"),
            "store_processed": False,
        },
    )


def test_the_site_uses_the_whole_message_transport_by_default() -> None:
    assert settings.CELERY_BROKER_URL == "filesystem://"
    assert settings.CELERY_BROKER_TRANSPORT == "torneo.broker:Transport"


def test_a_worker_reading_the_queue_while_a_message_is_written_finds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[TRANSPORT.Channel.__module__]
    real_dumps, seen = module.dumps, []

    def dumps(payload: object) -> str:
        # The message is being written (kombu's own transport has already created its file): a
        # worker reads the queue right now.
        if isinstance(payload, dict) and "body" in payload:
            with connection_on(tmp_path) as worker:
                reader = worker.SimpleQueue("celery")
                try:
                    seen.append(reader.get(block=False).payload)
                except Empty:
                    seen.append("nada")
                finally:
                    reader.close()
        return real_dumps(payload)

    monkeypatch.setattr(module, "dumps", dumps)
    with connection_on(tmp_path) as conn:
        queue = conn.SimpleQueue("celery")
        queue.put({"tick": 1})
        assert seen == ["nada"]
        message = queue.get(timeout=1)
        assert message.payload == {"tick": 1}
        message.ack()
        queue.close()
    assert sorted(os.listdir(tmp_path)) == ["control"]


def test_a_worker_reading_while_messages_are_written_gets_every_one_whole(tmp_path: Path) -> None:
    count, got, errors = 1500, [], []

    def consume() -> None:
        with connection_on(tmp_path) as conn:
            queue = conn.SimpleQueue("celery")
            try:
                while len(got) < count:
                    message = queue.get(timeout=10)
                    got.append(message.payload["n"])
                    message.ack()
            except Exception as exc:
                errors.append(exc)
            finally:
                queue.close()

    reader = threading.Thread(target=consume)
    with connection_on(tmp_path) as conn:
        # Bound before the reader starts: two threads of one process share kombu's record of the
        # bindings made, and the second would not wait for the first to have written it.
        queue = conn.SimpleQueue("celery")
        reader.start()
        for n in range(count):
            queue.put({"n": n, "padding": "x" * 2000})
        queue.close()
    reader.join(timeout=60)
    assert errors == []
    assert sorted(got) == list(range(count))

"""The embedded default's Celery broker: kombu's file-system transport, with whole messages only.

kombu's transport creates a message's file and then writes into it. A worker that lists the folder
in between takes the still empty file, cannot decode it and stops ("Unrecoverable error:
JSONDecodeError"): no clock ticks any more, no page is rendered ahead. It happened under
benchmarks/load.py (500 phones, beat ticking 573 clocks, results sending pages to render) about a
minute into the run. Here a message is written under a name no worker reads (a dot file) and then
renamed into the queue: a rename within one folder is atomic, so a worker sees a message whole or
not at all. The same for the file that lists an exchange's queues: kombu creates it empty and
then writes it, and a process sending a task meanwhile failed to decode it; here it is created
whole. Redis, the production broker (docs/production.md), has no such windows.

Redis has another: a worker whose broker went away (Redis restarted) tears its connection down
twice (celery's consumer collects the transport, then closes the connection), and the second close
of the channel tries to put back a message it had not acknowledged through a transport that no
longer has its connection's address. kombu raises ``AttributeError`` there, which is no connection
error: the worker stopped ("Unrecoverable error") instead of reconnecting, and the clocks' tick
stopped with it (tests/test_production_stack.py, once in three runs on a busy machine). Here that
case is the connection error it is, which the consumer ignores while it reconnects; the message
comes back from Redis's own unacknowledged index (``visibility_timeout``).
"""

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, redis
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        """Put a message on ``queue``: written aside, then renamed to the name kombu reads."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # kombu reads the files whose name, after its first dot, is "<queue>.msg": not this one.
        partial = os.path.join(self.data_folder_out, f".{name}.part")
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str, queue: str) -> None:
        """Bind as kombu does, once the exchange's file exists: created whole (an empty list,
        linked into place: two processes creating it at once leave one of them), never empty."""
        table = self._exchange_file(exchange)
        if not table.exists():
            self.control_folder.mkdir(exist_ok=True)
            partial = table.with_name(f".{table.name}.{uuid.uuid4()}.part")
            partial.write_bytes(str_to_bytes(dumps([])))
            try:
                os.link(partial, table)
            except FileExistsError:
                pass
            finally:
                partial.unlink()
        super()._queue_bind(exchange, routing_key, pattern, queue)


class Transport(filesystem.Transport):
    Channel = Channel


class RedisChannel(redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        """kombu's parameters, or a connection error once the transport is closed (no client)."""
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed: it will be opened again")
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)
        return params


class RedisTransport(redis.Transport):
    Channel = RedisChannel

"""A small Server-Sent Events reader over httpx streaming: the parser of the
HTML standard's event stream interpretation (``event``, ``data``, ``id``,
``retry``, comments), and a follower that reconnects with backoff and resumes
from the last ``id:`` received (``Last-Event-ID``), so a consumer sees every
event once across dropped connections and server restarts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

import httpx

from .problem import ProblemError, retry_after_secs
from .retry import RetryPolicy

F = TypeVar("F")


@dataclass(frozen=True)
class RawEvent:
    event: str
    """``event:``; "message" when the frame named none."""
    id: str | None
    """The last ``id:`` seen on this connection (SSE's last event ID buffer)."""
    has_id: bool
    """Whether this frame itself carried an ``id:``."""
    data: str


def parse_event_stream(lines: Iterable[str], on_retry: Callable[[int], None] = lambda _ms: None) -> Iterator[RawEvent]:
    """Frames with data, and id-only frames (data ""), from the stream's lines."""
    event = ""
    data_lines: list[str] = []
    last_id: str | None = None
    has_id = False
    for line in lines:
        if line == "":
            if data_lines or has_id:
                yield RawEvent(event or "message", last_id, has_id, "\n".join(data_lines))
            event, data_lines, has_id = "", [], False
            continue
        if line.startswith(":"):
            continue  # a comment: a heartbeat
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            event = value
        elif field == "data":
            data_lines.append(value)
        elif field == "id" and "\0" not in value:
            last_id, has_id = value, True
        elif field == "retry" and value.isdigit():
            on_retry(int(value))
    # An event not ended by a blank line is dropped, as the standard says.


Connect = Callable[[str | None], httpx.Request]
"""Builds one connection's request, resuming after the given id when there is one."""


class EventStream(Generic[F]):
    """An endless, resumable stream of typed frames: iterate it; it reconnects
    by itself and ends when the server says the stream is over (204, or a
    frame ``is_final`` accepts) or on ``close()``. A refusal other than 429 or
    5xx (a 401 after revocation, a 404) raises ProblemError."""

    def __init__(
        self,
        http: httpx.Client,
        connect: Connect,
        decode: Callable[[RawEvent], F | None],
        is_final: Callable[[F], bool],
        last_event_id: str | None = None,
        backoff: RetryPolicy | None = None,
        on_reconnect: Callable[[int, str], None] | None = None,
        read_timeout: float = 45.0,
    ) -> None:
        self.last_event_id = last_event_id
        """The id to resume from: the last ``id:`` received."""
        self.reconnects = 0
        """Connections made after the first."""
        self._http = http
        self._connect = connect
        self._decode = decode
        self._is_final = is_final
        self._backoff = backoff or RetryPolicy(base_delay=0.25, max_delay=15.0)
        self._on_reconnect = on_reconnect
        # Heartbeats come every 15 s: a read quiet for longer means a dead connection.
        self._timeout = httpx.Timeout(10.0, read=read_timeout)
        self._closed = threading.Event()
        self._server_retry_ms = 0

    def close(self) -> None:
        self._closed.set()

    def __iter__(self) -> Iterator[F]:
        failures = 0
        first = True
        while not self._closed.is_set():
            if not first:
                wait = max(self._server_retry_ms / 4000, self._backoff.backoff(failures))
                if self._closed.wait(wait):
                    return
            first = False
            reason = "the server closed the stream"
            try:
                request = self._connect(self.last_event_id)
                request.extensions["timeout"] = self._timeout.as_dict()
                response = self._http.send(request, stream=True)
            except httpx.TransportError as error:
                failures += 1
                self._reconnected(f"connect failed: {error!r}")
                continue
            try:
                if response.status_code == 204:
                    return  # over, and the cursor is at its end
                if response.status_code != 200:
                    response.read()
                    problem = ProblemError.from_answer(response.status_code, response.headers, response.content)
                    if response.status_code not in (429, 502, 503, 504):
                        raise problem
                    failures += 1
                    asked = retry_after_secs(response.headers)
                    if asked is not None and self._closed.wait(asked):
                        return
                    self._reconnected(f"{problem.status} {problem.code}")
                    continue
                for raw in parse_event_stream(response.iter_lines(), self._remember_retry):
                    failures = 0
                    if raw.has_id and raw.id is not None:
                        self.last_event_id = raw.id
                    if raw.data == "":
                        continue  # an id alone: the position moved
                    frame = self._decode(raw)
                    if frame is None:
                        continue
                    yield frame
                    if self._is_final(frame) or self._closed.is_set():
                        return
            except (httpx.TransportError, httpx.StreamError) as error:
                failures += 1
                reason = f"connection lost: {error!r}"
            finally:
                response.close()
            self._reconnected(reason)

    def _remember_retry(self, ms: int) -> None:
        self._server_retry_ms = ms

    def _reconnected(self, reason: str) -> None:
        if self._closed.is_set():
            return
        self.reconnects += 1
        if self._on_reconnect is not None:
            self._on_reconnect(self.reconnects, reason)

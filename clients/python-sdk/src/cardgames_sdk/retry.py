"""An httpx transport that retries what is safe to retry. Every request that
changes something gets an ``Idempotency-Key`` (kept across its retries), so a
retry after a lost answer returns the first answer instead of acting twice.
Retried: connection failures, 429, 502/503/504, and 409
``idempotency_key_in_flight``; each after ``Retry-After`` when the server sent
one, else an exponential backoff with jitter."""

from __future__ import annotations

import json
import random
import time
import uuid
from dataclasses import dataclass

import httpx

from .problem import retry_after_secs

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
RETRIED_STATUS = frozenset({429, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 5
    """Attempts after the first."""
    base_delay: float = 0.2
    """First backoff in seconds, doubled on each retry."""
    max_delay: float = 10.0
    """Longest wait between two attempts, seconds."""

    def backoff(self, attempt: int) -> float:
        """Full jitter: a random wait up to the doubled delay, capped."""
        ceiling = min(self.max_delay, self.base_delay * 2**attempt)
        return max(self.base_delay / 2, random.uniform(0, ceiling))


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


class RetryTransport(httpx.BaseTransport):
    def __init__(self, inner: httpx.BaseTransport | None = None, policy: RetryPolicy | None = None) -> None:
        self.inner = inner or httpx.HTTPTransport()
        self.policy = policy or RetryPolicy()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method not in SAFE_METHODS and "Idempotency-Key" not in request.headers:
            request.headers["Idempotency-Key"] = new_idempotency_key()
        request.read()  # the body, sent again on each attempt
        attempt = 0
        while True:
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                if attempt >= self.policy.retries:
                    raise
                time.sleep(self.policy.backoff(attempt))
                attempt += 1
                continue
            if attempt >= self.policy.retries or not _is_retried(response):
                return response
            asked = retry_after_secs(response.headers)
            response.close()
            time.sleep(min(self.policy.max_delay, asked if asked is not None else self.policy.backoff(attempt)))
            attempt += 1

    def close(self) -> None:
        self.inner.close()


def _is_retried(response: httpx.Response) -> bool:
    if response.status_code in RETRIED_STATUS:
        return True
    if response.status_code != 409:
        return False
    # A copy of this very request still in flight elsewhere: retry with the same key.
    response.read()
    try:
        body = json.loads(response.content)
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("code") == "idempotency_key_in_flight"

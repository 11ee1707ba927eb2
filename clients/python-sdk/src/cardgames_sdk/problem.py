"""Problems (RFC 9457) as typed errors: every refusal of the server becomes a
ProblemError with its stable ``code`` and, when a ruling refused it, the
ruling's id in ``rule`` (LH-9, CH-6, G-3 ...)."""

from __future__ import annotations

import json

import httpx


class ProblemError(Exception):
    """A refused request: ``status``, ``code``, ``rule`` (or None), ``detail``."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        rule: str | None = None,
        request_id: str | None = None,
        retry_after_secs: int | None = None,
    ) -> None:
        ruling = f" ({rule})" if rule else ""
        super().__init__(f"{status} {code}{ruling}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.rule = rule
        self.request_id = request_id
        self.retry_after_secs = retry_after_secs

    @classmethod
    def from_answer(cls, status: int, headers: httpx.Headers, content: bytes) -> ProblemError:
        """Reads a refused answer's body: a problem document, or anything else as text."""
        text = content.decode("utf-8", "replace")
        body: object = None
        try:
            body = json.loads(text)
        except ValueError:
            pass  # not JSON (a proxy's page, say): kept as text in `detail`
        retry_after = retry_after_secs(headers)
        if isinstance(body, dict) and isinstance(body.get("code"), str):
            rule = body.get("rule")
            request_id = body.get("request_id")
            return cls(
                status,
                str(body["code"]),
                str(body.get("detail", "")),
                rule if isinstance(rule, str) else None,
                request_id if isinstance(request_id, str) else None,
                retry_after,
            )
        return cls(status, "http_error", text or f"HTTP {status}", retry_after_secs=retry_after)


def retry_after_secs(headers: httpx.Headers) -> int | None:
    """``Retry-After`` in seconds, when present and numeric."""
    value = headers.get("Retry-After", "").strip()
    return int(value) if value.isdigit() else None

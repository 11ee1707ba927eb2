"""Hooks for the schemathesis run of .ci/run (loaded by SCHEMATHESIS_HOOKS).

They correct what the run itself would get wrong about this api, and
nothing else; schemathesis re-labels a case after a hook (positive or
negative) from what is actually sent.

- An Idempotency-Key names one request: a key reused for a different
  request is refused by design (422 idempotency_key_reused). Schemathesis
  draws keys from a small space, so unrelated generated requests share
  them; each valid key gets a unique suffix, so the server sees one key
  per request, as a client must send.
- The run authenticates as its player (the `bearer` scheme); a stream
  operation refuses a ticket sent along with a bearer token (400
  two_credentials: a request says who it is once), which a document
  cannot say between a security scheme and a parameter, and a made-up
  ticket is 401 by design. `ticket` is left out of the query.
- Cursors are values only the server makes (the `next` of a page, an `id:`
  of the player stream): a made-up one is refused (400 bad_cursor,
  bad_query, bad_last_event_id) by design. They are left out.
"""

import re
import uuid

import schemathesis

KEY = re.compile(r"[!-~]{1,255}")
# The suffix this hook adds, replaced (never stacked) when schemathesis
# sends a case again, mutated or not.
SUFFIX = re.compile(r"-sthk[0-9a-f]{32}$")

# operation path -> query parameters that are server-made cursors
CURSORS = {
    "/v1/games": ["cursor"],
    "/v1/leaderboards/{kind}": ["after"],
    "/v1/players/me/stream": ["after"],
    "/v1/players/me/webhooks/{webhook_id}/deliveries": ["cursor"],
}
CURSOR_HEADERS = {"/v1/players/me/stream": ["Last-Event-ID"]}


def _drop(container, names):
    if not container:
        return
    for name in names:
        for key in [k for k in container if k.lower() == name.lower()]:
            del container[key]


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers
    if headers:
        for name in [k for k in headers if k.lower() == "idempotency-key"]:
            value = headers[name]
            if isinstance(value, str) and KEY.fullmatch(value):
                base = SUFFIX.sub("", value)[: 255 - 37]
                headers[name] = f"{base}-sthk{uuid.uuid4().hex}"
    path = case.operation.path
    _drop(case.query, ["ticket"] + CURSORS.get(path, []))
    _drop(headers, CURSOR_HEADERS.get(path, []))

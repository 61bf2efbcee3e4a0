"""Webhook verification: the X-Voice-* headers or the Standard Webhooks headers (pkg/webhooks/sign.ts)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ._generated.webhook_events import WEBHOOK_EVENTS, WebhookPayload
from .errors import WebhookVerificationError

SECRET_PREFIX = "whsec_"


@dataclass(frozen=True)
class WebhookEvent:
    """An event the documents name no payload for: the envelope as sent."""

    id: str
    #: Spelled as the generated event models spell it.
    type_: str
    created_at: str
    tenant_id: str
    data: dict[str, Any]


def _timestamp(value: str, tolerance: int, now: float) -> str:
    if re.fullmatch(r"\d{1,12}", value, re.ASCII) is None:
        raise WebhookVerificationError("missing or malformed timestamp")
    if abs(now - int(value)) > tolerance:
        raise WebhookVerificationError("timestamp outside the tolerance")
    return value


def _check_voice(headers: Mapping[str, str], body: bytes, secret: str, tolerance: int, now: float) -> None:
    timestamp = _timestamp(headers.get("x-voice-timestamp", ""), tolerance, now)
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(headers["x-voice-signature"].encode(), f"sha256={digest}".encode()):
        raise WebhookVerificationError("X-Voice-Signature does not match")


def _check_standard(headers: Mapping[str, str], body: bytes, secret: str, tolerance: int, now: float) -> None:
    timestamp = _timestamp(headers.get("webhook-timestamp", ""), tolerance, now)
    try:
        key = base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except binascii.Error as err:
        raise WebhookVerificationError("the secret is not a whsec_ secret") from err
    signed = f"{headers.get('webhook-id', '')}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    # A space-separated list during a key change; any v1 entry may match.
    entries = headers["webhook-signature"].split(" ")
    if not any(hmac.compare_digest(e.removeprefix("v1,").encode(), expected) for e in entries if e.startswith("v1,")):
        raise WebhookVerificationError("webhook-signature does not match")


def verify_signature(
    headers: Mapping[str, str],
    raw_body: bytes | str,
    secret: str,
    tolerance: int = 300,
    now: datetime | float | None = None,
) -> None:
    """
    Checks the signature of anything Switchboard signs (an event, an agent tool's call, a campaign
    request) over the raw body (empty for a GET or DELETE) and its timestamp against `now` (default:
    this machine's clock), by the X-Voice-* headers and the Standard Webhooks headers, each set that is
    present; raises WebhookVerificationError when they do not check out.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    body = raw_body.encode() if isinstance(raw_body, str) else raw_body
    clock = time.time() if now is None else now.timestamp() if isinstance(now, datetime) else now
    checks = [
        check
        for name, check in (("x-voice-signature", _check_voice), ("webhook-signature", _check_standard))
        if name in lowered
    ]
    if not checks:
        raise WebhookVerificationError("no X-Voice-Signature or webhook-signature header")
    for check in checks:
        check(lowered, body, secret, tolerance, clock)


def verify_webhook(
    headers: Mapping[str, str],
    raw_body: bytes | str,
    secret: str,
    tolerance: int = 300,
    now: datetime | float | None = None,
) -> WebhookPayload | WebhookEvent:
    """
    An event delivery checked as verify_signature checks it, parsed into its model; raises
    WebhookVerificationError also for a signed body that is not an event (use verify_signature for
    tool calls and campaign requests).
    """
    verify_signature(headers, raw_body, secret, tolerance, now)
    try:
        envelope = json.loads(raw_body)
    except ValueError:
        envelope = None
    if not isinstance(envelope, dict) or not isinstance(envelope.get("type"), str):
        raise WebhookVerificationError(
            "the body is not an event (a JSON object with a string type): verify tool calls and"
            " campaign requests with verify_signature"
        )
    parse = WEBHOOK_EVENTS.get(envelope["type"])
    if parse is not None:
        return parse(envelope)
    return WebhookEvent(
        id=str(envelope.get("id")),
        type_=envelope["type"],
        created_at=str(envelope.get("created_at")),
        tenant_id=str(envelope.get("tenant_id")),
        data=dict(envelope.get("data") or {}),
    )

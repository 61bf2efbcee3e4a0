"""A webhook the server really delivers to an HTTPS receiver of the test's own, verified by both header schemes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import queue
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import Server

from switchboard import (
    Switchboard,
    WebhookEvent,
    WebhookPayload,
    WebhookVerificationError,
    verify_signature,
    verify_webhook,
)
from switchboard._generated.voice_api.api.account import update_settings
from switchboard._generated.voice_api.models import AccountSettingsRequest, CallInitiatedEvent, CallResultEvent


@dataclass(frozen=True)
class Delivery:
    headers: dict[str, str]
    body: bytes


@pytest.fixture
def receiver(server: Server) -> Iterator[tuple[str, queue.Queue[Delivery]]]:
    arrived: queue.Queue[Delivery] = queue.Queue()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            arrived.put(Delivery({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            return None

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(server.tls_cert, server.tls_key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{httpd.server_address[1]}/events", arrived
    finally:
        httpd.shutdown()
        httpd.server_close()


def only(headers: dict[str, str], prefix: str) -> dict[str, str]:
    """The headers without the other scheme's signature headers."""
    other = ("webhook-",) if prefix == "x-voice-" else ("x-voice-",)
    return {k: v for k, v in headers.items() if not k.lower().startswith(other)}


def test_delivered_webhooks_verified_by_both_schemes(
    sb: Switchboard, server: Server, receiver: tuple[str, queue.Queue[Delivery]]
) -> None:
    url, arrived = receiver
    answer = update_settings.sync_detailed(
        server.account_id, client=sb.voice, body=AccountSettingsRequest(events_url=url)
    )
    assert answer.status_code == 200
    secret = server.webhook_secret
    try:
        call = sb.calls.create(to=server.callee, task="Announce me", callback_url=url)
        # The call's events in order (another call's may arrive too), the last its call.result.
        events: list[tuple[Delivery, WebhookPayload | WebhookEvent]] = []
        while not events or events[-1][1].type_ != "call.result":
            delivery = arrived.get(timeout=60)
            event = verify_webhook(delivery.headers, delivery.body, secret)
            if call.id.encode() in delivery.body:
                events.append((delivery, event))
    finally:
        update_settings.sync_detailed(server.account_id, client=sb.voice, body=AccountSettingsRequest(events_url=""))

    initiated, result = events[0][1], events[-1][1]
    assert isinstance(initiated, CallInitiatedEvent)
    assert (initiated.data.id, initiated.tenant_id) == (call.id, server.account_id)
    assert isinstance(result, CallResultEvent)
    assert (result.data.call_id, result.data.final) == (call.id, True)

    delivery = events[-1][0]
    timestamp = int(delivery.headers["x-voice-timestamp"])
    for headers in (only(delivery.headers, "x-voice-"), only(delivery.headers, "webhook-")):
        assert isinstance(verify_webhook(headers, delivery.body, secret, now=timestamp + 299), CallResultEvent)
        tampered = delivery.body.replace(b'"final":true', b'"final":false')
        assert tampered != delivery.body
        with pytest.raises(WebhookVerificationError):
            verify_webhook(headers, tampered, secret)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(headers, delivery.body, secret, now=timestamp + 301)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(headers, delivery.body, "whsec_" + "A" * 44)
    with pytest.raises(WebhookVerificationError):
        verify_webhook({"content-type": "application/json"}, delivery.body, secret)


SECRET = "whsec_" + base64.b64encode(b"a webhook secret of 32 bytes....").decode()


def signed(body: bytes, timestamp: str = "1765000000") -> dict[str, str]:
    """Both header sets pkg/webhooks/sign.ts sends, computed here by the documented scheme."""
    voice = hmac.new(SECRET.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    key = base64.b64decode(SECRET.removeprefix("whsec_"))
    standard = base64.b64encode(hmac.new(key, f"msg_1.{timestamp}.".encode() + body, hashlib.sha256).digest())
    return {
        "X-Voice-Timestamp": timestamp,
        "X-Voice-Signature": f"sha256={voice}",
        "webhook-id": "msg_1",
        "webhook-timestamp": timestamp,
        "webhook-signature": f"v1,{standard.decode()}",
    }


@pytest.mark.parametrize(
    "body",
    [b"", b'{"city":"Paris"}', b'{"event":"campaign.result","campaign_id":"cmp_1","results":[]}'],
    ids=["tool GET/DELETE", "tool POST", "campaign request"],
)
def test_tool_calls_and_campaign_requests_verified_by_verify_signature(body: bytes) -> None:
    for headers in (only(signed(body), "x-voice-"), only(signed(body), "webhook-")):
        verify_signature(headers, body, SECRET, now=1765000000)
        with pytest.raises(WebhookVerificationError):
            verify_signature(headers, body + b" ", SECRET, now=1765000000)
    with pytest.raises(WebhookVerificationError, match="verify_signature"):
        verify_webhook(signed(body), body, SECRET, now=1765000000)


def test_an_unknown_event_type_is_an_event_with_its_fields() -> None:
    body = b'{"id":"evt_1","type":"call.new_kind","created_at":"2026-12-07T00:00:00Z","tenant_id":"acc_1","data":{"a":1}}'
    event = verify_webhook(signed(body), body, SECRET, now=1765000000)
    assert event == WebhookEvent(
        id="evt_1", type_="call.new_kind", created_at="2026-12-07T00:00:00Z", tenant_id="acc_1", data={"a": 1}
    )


def test_a_timestamp_of_non_ascii_digits_is_malformed() -> None:
    body = b'{"city":"Paris"}'
    with pytest.raises(WebhookVerificationError, match="malformed timestamp"):
        verify_signature(signed(body, timestamp="\u00b2"), body, SECRET, now=2)

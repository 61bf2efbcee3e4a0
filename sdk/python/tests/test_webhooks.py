"""A webhook the server really delivers to an HTTPS receiver of the test's own, verified by both header schemes."""

from __future__ import annotations

import queue
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import Server

from switchboard import Switchboard, WebhookEvent, WebhookVerificationError, verify_webhook
from switchboard._generated.voice_api.api.account import update_settings
from switchboard._generated.voice_api.models import AccountSettingsRequest


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


def test_a_delivered_webhook_verified_by_both_schemes(
    sb: Switchboard, server: Server, receiver: tuple[str, queue.Queue[Delivery]]
) -> None:
    url, arrived = receiver
    answer = update_settings.sync_detailed(
        server.account_id, client=sb.voice, body=AccountSettingsRequest(events_url=url)
    )
    assert answer.status_code == 200
    try:
        call = sb.calls.create(to=server.callee, task="Announce me")
        delivery = arrived.get(timeout=60)
    finally:
        update_settings.sync_detailed(server.account_id, client=sb.voice, body=AccountSettingsRequest(events_url=""))
    secret = server.webhook_secret

    for headers in (delivery.headers, only(delivery.headers, "x-voice-"), only(delivery.headers, "webhook-")):
        event = verify_webhook(headers, delivery.body, secret)
        assert isinstance(event, WebhookEvent)
        assert event.type.startswith("call.")
        assert event.tenant_id == server.account_id
        assert event.data["id"] == call.id

    timestamp = int(delivery.headers["x-voice-timestamp"])
    for headers in (only(delivery.headers, "x-voice-"), only(delivery.headers, "webhook-")):
        with pytest.raises(WebhookVerificationError):
            verify_webhook(headers, delivery.body.replace(b"call.", b"cell."), secret)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(headers, delivery.body, secret, now=timestamp + 301)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(headers, delivery.body, "whsec_" + "A" * 44)
        assert isinstance(verify_webhook(headers, delivery.body, secret, now=timestamp + 299), WebhookEvent)
    with pytest.raises(WebhookVerificationError):
        verify_webhook({"content-type": "application/json"}, delivery.body, secret)

"""Switchboard's Python SDK: the Agent API and the Voice API, sync and async, and webhook verification."""

from ._generated.webhook_events import WebhookPayload
from ._retry import RetryPolicy
from .client import AsyncSwitchboard, Switchboard
from .errors import AgentApiError, SwitchboardError, VoiceApiError, WebhookVerificationError
from ._generated.agent_api.models import StreamContent, StreamDone, StreamError, StreamHandoff, StreamNewMessage, StreamTool
from .streaming import AsyncEventStream, EventStream, StreamEvent
from .webhooks import WebhookEvent, verify_signature, verify_webhook

__all__ = [
    "AgentApiError",
    "AsyncEventStream",
    "AsyncSwitchboard",
    "EventStream",
    "RetryPolicy",
    "StreamContent",
    "StreamDone",
    "StreamError",
    "StreamEvent",
    "StreamHandoff",
    "StreamNewMessage",
    "StreamTool",
    "Switchboard",
    "SwitchboardError",
    "VoiceApiError",
    "WebhookEvent",
    "WebhookPayload",
    "WebhookVerificationError",
    "verify_signature",
    "verify_webhook",
]

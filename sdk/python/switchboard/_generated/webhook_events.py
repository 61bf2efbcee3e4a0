"""The webhooks of openapi/*.json and their payload models (test/support/sdk-python.ts writes this file)."""

from collections.abc import Callable, Mapping
from typing import Any

from .agent_api.models import VerificationRequestedEvent
from .voice_api.models import (
    AiMessageEvent,
    AiSummaryEvent,
    AiTransferEvent,
    CallAnsweredEvent,
    CallEndedEvent,
    CallInitiatedEvent,
    CallResultEvent,
    CallRoutingEvent,
    CallUpdatedEvent,
    InvoiceFinalizedEvent,
    MessageCreatedEvent,
    MessageTestEvent,
    QueueEnteredEvent,
    QueueExitedEvent,
    QueueTimeoutEvent,
)

WebhookPayload = (
    VerificationRequestedEvent
    | CallInitiatedEvent
    | CallAnsweredEvent
    | CallUpdatedEvent
    | CallEndedEvent
    | QueueEnteredEvent
    | QueueExitedEvent
    | QueueTimeoutEvent
    | AiTransferEvent
    | AiMessageEvent
    | AiSummaryEvent
    | CallResultEvent
    | MessageCreatedEvent
    | MessageTestEvent
    | InvoiceFinalizedEvent
    | CallRoutingEvent
)

WEBHOOK_EVENTS: dict[str, Callable[[Mapping[str, Any]], WebhookPayload]] = {
    "contact.verification_requested": VerificationRequestedEvent.from_dict,
    "call.initiated": CallInitiatedEvent.from_dict,
    "call.answered": CallAnsweredEvent.from_dict,
    "call.updated": CallUpdatedEvent.from_dict,
    "call.ended": CallEndedEvent.from_dict,
    "queue.entered": QueueEnteredEvent.from_dict,
    "queue.exited": QueueExitedEvent.from_dict,
    "queue.timeout": QueueTimeoutEvent.from_dict,
    "ai.transfer": AiTransferEvent.from_dict,
    "ai.message": AiMessageEvent.from_dict,
    "ai.summary": AiSummaryEvent.from_dict,
    "call.result": CallResultEvent.from_dict,
    "message.created": MessageCreatedEvent.from_dict,
    "message.test": MessageTestEvent.from_dict,
    "invoice.finalized": InvoiceFinalizedEvent.from_dict,
    "call.routing": CallRoutingEvent.from_dict,
}

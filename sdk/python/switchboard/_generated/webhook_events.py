"""The webhooks of openapi/*.json and their payload models (test/support/sdk-python.ts writes this file)."""

from collections.abc import Callable, Mapping
from typing import Any

from .agent_api.models import VerificationRequestedEvent

WebhookPayload = VerificationRequestedEvent

WEBHOOK_EVENTS: dict[str, Callable[[Mapping[str, Any]], WebhookPayload]] = {
    "contact.verification_requested": VerificationRequestedEvent.from_dict,
}

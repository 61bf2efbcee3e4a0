"""Typed errors: every answer outside 2xx is raised as the error of the API that gave it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from typing import Any, Literal

Api = Literal["agent", "voice"]


class SwitchboardError(Exception):
    """An error answer of either API: its HTTP status, code, message and parsed JSON body."""

    def __init__(self, status: int, code: str, message: str, body: Any, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body
        #: Seconds the server asked to wait (Retry-After), when it said.
        self.retry_after = retry_after


class AgentApiError(SwitchboardError):
    """The Agent API's `{error, details?, ...}`; `code` is the status's name (`not_found`), the API sends none."""

    @property
    def details(self) -> list[dict[str, str]]:
        """The fields a 400 names: `[{path, message}]`."""
        found = self.body.get("details") if isinstance(self.body, dict) else None
        return found if isinstance(found, list) else []


class VoiceApiError(SwitchboardError):
    """The Voice API's `{error: {code, message}}`."""


class WebhookVerificationError(Exception):
    """A webhook whose signature, timestamp or headers do not check out: answer it 400 and drop it."""


def retry_after_of(headers: Mapping[str, str]) -> float | None:
    """Retry-After in seconds (delta-seconds or an HTTP date), or None."""
    value = headers.get("retry-after")
    if value is None:
        return None
    if value.strip().isdigit():
        return float(value)
    try:
        return max(0.0, (parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None


def _status_name(status: int) -> str:
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return f"http_{status}"


def error_of(api: Api, status: int, content: bytes, headers: Mapping[str, str]) -> SwitchboardError:
    """The typed error for an answer of `api` outside 2xx."""
    try:
        body: Any = json.loads(content) if content else None
    except ValueError:
        body = content.decode("utf-8", "replace")
    retry_after = retry_after_of(headers)
    if api == "voice":
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            return VoiceApiError(status, str(error.get("code")), str(error.get("message")), body, retry_after)
        return VoiceApiError(status, _status_name(status), str(body), body, retry_after)
    message = body.get("error") if isinstance(body, dict) else body
    return AgentApiError(status, _status_name(status), str(message), body, retry_after)

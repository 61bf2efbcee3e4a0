from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.trigger_status import TriggerStatus, check_trigger_status

if TYPE_CHECKING:
    from ..models.trigger_business_keys import TriggerBusinessKeys
    from ..models.trigger_metadata import TriggerMetadata
    from ..models.trigger_wait_payload_type_0 import TriggerWaitPayloadType0


T = TypeVar("T", bound="Trigger")


@_attrs_define
class Trigger:
    trigger_id: UUID
    conversation_id: UUID
    agent_id: UUID
    status: TriggerStatus
    task: str
    success_criteria: None | str
    business_keys: TriggerBusinessKeys
    metadata: TriggerMetadata
    approval_id: None | str
    approval_url: None | str
    wait_payload: None | TriggerWaitPayloadType0
    result_summary: None | str
    error_message: None | str
    attempt_count: int
    max_attempts: int
    next_run_at: datetime.datetime | None
    waiting_reason: None | str
    waiting_since: datetime.datetime | None
    expires_at: datetime.datetime
    last_run_at: datetime.datetime | None
    started_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.trigger_wait_payload_type_0 import TriggerWaitPayloadType0

        trigger_id = str(self.trigger_id)

        conversation_id = str(self.conversation_id)

        agent_id = str(self.agent_id)

        status: str = self.status

        task = self.task

        success_criteria: None | str
        success_criteria = self.success_criteria

        business_keys = self.business_keys.to_dict()

        metadata = self.metadata.to_dict()

        approval_id: None | str
        approval_id = self.approval_id

        approval_url: None | str
        approval_url = self.approval_url

        wait_payload: dict[str, Any] | None
        if isinstance(self.wait_payload, TriggerWaitPayloadType0):
            wait_payload = self.wait_payload.to_dict()
        else:
            wait_payload = self.wait_payload

        result_summary: None | str
        result_summary = self.result_summary

        error_message: None | str
        error_message = self.error_message

        attempt_count = self.attempt_count

        max_attempts = self.max_attempts

        next_run_at: None | str
        if isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        waiting_reason: None | str
        waiting_reason = self.waiting_reason

        waiting_since: None | str
        if isinstance(self.waiting_since, datetime.datetime):
            waiting_since = self.waiting_since.isoformat()
        else:
            waiting_since = self.waiting_since

        expires_at = self.expires_at.isoformat()

        last_run_at: None | str
        if isinstance(self.last_run_at, datetime.datetime):
            last_run_at = self.last_run_at.isoformat()
        else:
            last_run_at = self.last_run_at

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "triggerId": trigger_id,
                "conversationId": conversation_id,
                "agentId": agent_id,
                "status": status,
                "task": task,
                "successCriteria": success_criteria,
                "businessKeys": business_keys,
                "metadata": metadata,
                "approvalId": approval_id,
                "approvalUrl": approval_url,
                "waitPayload": wait_payload,
                "resultSummary": result_summary,
                "errorMessage": error_message,
                "attemptCount": attempt_count,
                "maxAttempts": max_attempts,
                "nextRunAt": next_run_at,
                "waitingReason": waiting_reason,
                "waitingSince": waiting_since,
                "expiresAt": expires_at,
                "lastRunAt": last_run_at,
                "startedAt": started_at,
                "completedAt": completed_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.trigger_business_keys import TriggerBusinessKeys
        from ..models.trigger_metadata import TriggerMetadata
        from ..models.trigger_wait_payload_type_0 import TriggerWaitPayloadType0

        d = dict(src_dict)
        trigger_id = UUID(d.pop("triggerId"))

        conversation_id = UUID(d.pop("conversationId"))

        agent_id = UUID(d.pop("agentId"))

        status = check_trigger_status(d.pop("status"))

        task = d.pop("task")

        def _parse_success_criteria(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        success_criteria = _parse_success_criteria(d.pop("successCriteria"))

        business_keys = TriggerBusinessKeys.from_dict(d.pop("businessKeys"))

        metadata = TriggerMetadata.from_dict(d.pop("metadata"))

        def _parse_approval_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        approval_id = _parse_approval_id(d.pop("approvalId"))

        def _parse_approval_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        approval_url = _parse_approval_url(d.pop("approvalUrl"))

        def _parse_wait_payload(data: object) -> None | TriggerWaitPayloadType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wait_payload_type_0 = TriggerWaitPayloadType0.from_dict(data)

                return wait_payload_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TriggerWaitPayloadType0, data)

        wait_payload = _parse_wait_payload(d.pop("waitPayload"))

        def _parse_result_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result_summary = _parse_result_summary(d.pop("resultSummary"))

        def _parse_error_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_message = _parse_error_message(d.pop("errorMessage"))

        attempt_count = d.pop("attemptCount")

        max_attempts = d.pop("maxAttempts")

        def _parse_next_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_run_at = _parse_next_run_at(d.pop("nextRunAt"))

        def _parse_waiting_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        waiting_reason = _parse_waiting_reason(d.pop("waitingReason"))

        def _parse_waiting_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                waiting_since_type_0 = datetime.datetime.fromisoformat(data)

                return waiting_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        waiting_since = _parse_waiting_since(d.pop("waitingSince"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        def _parse_last_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_run_at = _parse_last_run_at(d.pop("lastRunAt"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        trigger = cls(
            trigger_id=trigger_id,
            conversation_id=conversation_id,
            agent_id=agent_id,
            status=status,
            task=task,
            success_criteria=success_criteria,
            business_keys=business_keys,
            metadata=metadata,
            approval_id=approval_id,
            approval_url=approval_url,
            wait_payload=wait_payload,
            result_summary=result_summary,
            error_message=error_message,
            attempt_count=attempt_count,
            max_attempts=max_attempts,
            next_run_at=next_run_at,
            waiting_reason=waiting_reason,
            waiting_since=waiting_since,
            expires_at=expires_at,
            last_run_at=last_run_at,
            started_at=started_at,
            completed_at=completed_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        return trigger

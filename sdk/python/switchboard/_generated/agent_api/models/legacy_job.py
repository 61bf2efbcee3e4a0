from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.legacy_job_status import LegacyJobStatus, check_legacy_job_status
from ..models.legacy_job_trigger_type import (
    LegacyJobTriggerType,
    check_legacy_job_trigger_type,
)

if TYPE_CHECKING:
    from ..models.legacy_job_business_keys import LegacyJobBusinessKeys
    from ..models.legacy_job_human_reply_type_0 import LegacyJobHumanReplyType0
    from ..models.legacy_job_metadata import LegacyJobMetadata
    from ..models.legacy_job_wait_payload_type_0 import LegacyJobWaitPayloadType0


T = TypeVar("T", bound="LegacyJob")


@_attrs_define
class LegacyJob:
    trigger_id: UUID
    conversation_id: UUID
    agent_id: UUID
    status: LegacyJobStatus
    task: str
    success_criteria: None | str
    business_keys: LegacyJobBusinessKeys
    metadata: LegacyJobMetadata
    approval_id: None | str
    approval_url: None | str
    wait_payload: LegacyJobWaitPayloadType0 | None
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
    job_id: UUID
    trigger_type: LegacyJobTriggerType
    input_message: str
    idempotency_key: None | str
    event_type: None | str
    human_reply: LegacyJobHumanReplyType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.legacy_job_human_reply_type_0 import LegacyJobHumanReplyType0
        from ..models.legacy_job_wait_payload_type_0 import LegacyJobWaitPayloadType0

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
        if isinstance(self.wait_payload, LegacyJobWaitPayloadType0):
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

        job_id = str(self.job_id)

        trigger_type: str = self.trigger_type

        input_message = self.input_message

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        event_type: None | str
        event_type = self.event_type

        human_reply: dict[str, Any] | None
        if isinstance(self.human_reply, LegacyJobHumanReplyType0):
            human_reply = self.human_reply.to_dict()
        else:
            human_reply = self.human_reply

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
                "jobId": job_id,
                "triggerType": trigger_type,
                "inputMessage": input_message,
                "idempotencyKey": idempotency_key,
                "eventType": event_type,
                "humanReply": human_reply,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.legacy_job_business_keys import LegacyJobBusinessKeys
        from ..models.legacy_job_human_reply_type_0 import LegacyJobHumanReplyType0
        from ..models.legacy_job_metadata import LegacyJobMetadata
        from ..models.legacy_job_wait_payload_type_0 import LegacyJobWaitPayloadType0

        d = dict(src_dict)
        trigger_id = UUID(d.pop("triggerId"))

        conversation_id = UUID(d.pop("conversationId"))

        agent_id = UUID(d.pop("agentId"))

        status = check_legacy_job_status(d.pop("status"))

        task = d.pop("task")

        def _parse_success_criteria(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        success_criteria = _parse_success_criteria(d.pop("successCriteria"))

        business_keys = LegacyJobBusinessKeys.from_dict(d.pop("businessKeys"))

        metadata = LegacyJobMetadata.from_dict(d.pop("metadata"))

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

        def _parse_wait_payload(data: object) -> LegacyJobWaitPayloadType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wait_payload_type_0 = LegacyJobWaitPayloadType0.from_dict(data)

                return wait_payload_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LegacyJobWaitPayloadType0 | None, data)

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

        job_id = UUID(d.pop("jobId"))

        trigger_type = check_legacy_job_trigger_type(d.pop("triggerType"))

        input_message = d.pop("inputMessage")

        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotencyKey"))

        def _parse_event_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        event_type = _parse_event_type(d.pop("eventType"))

        def _parse_human_reply(data: object) -> LegacyJobHumanReplyType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                human_reply_type_0 = LegacyJobHumanReplyType0.from_dict(data)

                return human_reply_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LegacyJobHumanReplyType0 | None, data)

        human_reply = _parse_human_reply(d.pop("humanReply"))

        legacy_job = cls(
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
            job_id=job_id,
            trigger_type=trigger_type,
            input_message=input_message,
            idempotency_key=idempotency_key,
            event_type=event_type,
            human_reply=human_reply,
        )

        return legacy_job

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.conversation_trigger_request_metadata import (
        ConversationTriggerRequestMetadata,
    )
    from ..models.custom_tool import CustomTool


T = TypeVar("T", bound="ConversationTriggerRequest")


@_attrs_define
class ConversationTriggerRequest:
    task: str | Unset = UNSET
    message: str | Unset = UNSET
    """ Legacy alias of task """
    event_type: str | Unset = UNSET
    success_criteria: str | Unset = UNSET
    idempotency_key: str | Unset = UNSET
    metadata: ConversationTriggerRequestMetadata | Unset = UNSET
    custom_tools: list[CustomTool] | Unset = UNSET
    delay_minutes: int | Unset = UNSET
    run_at: str | Unset = UNSET
    """ ISO 8601 with UTC or offset, or company-local YYYY-MM-DDTHH:mm; within 7 days """

    def to_dict(self) -> dict[str, Any]:
        task = self.task

        message = self.message

        event_type = self.event_type

        success_criteria = self.success_criteria

        idempotency_key = self.idempotency_key

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        custom_tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.custom_tools, Unset):
            custom_tools = []
            for custom_tools_item_data in self.custom_tools:
                custom_tools_item = custom_tools_item_data.to_dict()
                custom_tools.append(custom_tools_item)

        delay_minutes = self.delay_minutes

        run_at = self.run_at

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if task is not UNSET:
            field_dict["task"] = task
        if message is not UNSET:
            field_dict["message"] = message
        if event_type is not UNSET:
            field_dict["eventType"] = event_type
        if success_criteria is not UNSET:
            field_dict["successCriteria"] = success_criteria
        if idempotency_key is not UNSET:
            field_dict["idempotencyKey"] = idempotency_key
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if custom_tools is not UNSET:
            field_dict["customTools"] = custom_tools
        if delay_minutes is not UNSET:
            field_dict["delayMinutes"] = delay_minutes
        if run_at is not UNSET:
            field_dict["runAt"] = run_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.conversation_trigger_request_metadata import (
            ConversationTriggerRequestMetadata,
        )
        from ..models.custom_tool import CustomTool

        d = dict(src_dict)
        task = d.pop("task", UNSET)

        message = d.pop("message", UNSET)

        event_type = d.pop("eventType", UNSET)

        success_criteria = d.pop("successCriteria", UNSET)

        idempotency_key = d.pop("idempotencyKey", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: ConversationTriggerRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ConversationTriggerRequestMetadata.from_dict(_metadata)

        _custom_tools = d.pop("customTools", UNSET)
        custom_tools: list[CustomTool] | Unset = UNSET
        if _custom_tools is not UNSET:
            custom_tools = []
            for custom_tools_item_data in _custom_tools:
                custom_tools_item = CustomTool.from_dict(custom_tools_item_data)

                custom_tools.append(custom_tools_item)

        delay_minutes = d.pop("delayMinutes", UNSET)

        run_at = d.pop("runAt", UNSET)

        conversation_trigger_request = cls(
            task=task,
            message=message,
            event_type=event_type,
            success_criteria=success_criteria,
            idempotency_key=idempotency_key,
            metadata=metadata,
            custom_tools=custom_tools,
            delay_minutes=delay_minutes,
            run_at=run_at,
        )

        return conversation_trigger_request

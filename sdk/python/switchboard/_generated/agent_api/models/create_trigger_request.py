from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contact_hints import ContactHints
    from ..models.create_trigger_request_business_keys import (
        CreateTriggerRequestBusinessKeys,
    )
    from ..models.create_trigger_request_metadata import CreateTriggerRequestMetadata
    from ..models.custom_tool import CustomTool


T = TypeVar("T", bound="CreateTriggerRequest")


@_attrs_define
class CreateTriggerRequest:
    task: str
    agent_id: UUID | Unset = UNSET
    conversation_id: UUID | Unset = UNSET
    success_criteria: str | Unset = UNSET
    business_keys: CreateTriggerRequestBusinessKeys | Unset = UNSET
    idempotency_key: str | Unset = UNSET
    metadata: CreateTriggerRequestMetadata | Unset = UNSET
    contact_id: int | Unset = UNSET
    contact: ContactHints | Unset = UNSET
    custom_tools: list[CustomTool] | Unset = UNSET
    delay_minutes: int | Unset = UNSET
    run_at: str | Unset = UNSET
    """ ISO 8601 with UTC or offset, or company-local YYYY-MM-DDTHH:mm; within 7 days """

    def to_dict(self) -> dict[str, Any]:
        task = self.task

        agent_id: str | Unset = UNSET
        if not isinstance(self.agent_id, Unset):
            agent_id = str(self.agent_id)

        conversation_id: str | Unset = UNSET
        if not isinstance(self.conversation_id, Unset):
            conversation_id = str(self.conversation_id)

        success_criteria = self.success_criteria

        business_keys: dict[str, Any] | Unset = UNSET
        if not isinstance(self.business_keys, Unset):
            business_keys = self.business_keys.to_dict()

        idempotency_key = self.idempotency_key

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        contact_id = self.contact_id

        contact: dict[str, Any] | Unset = UNSET
        if not isinstance(self.contact, Unset):
            contact = self.contact.to_dict()

        custom_tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.custom_tools, Unset):
            custom_tools = []
            for custom_tools_item_data in self.custom_tools:
                custom_tools_item = custom_tools_item_data.to_dict()
                custom_tools.append(custom_tools_item)

        delay_minutes = self.delay_minutes

        run_at = self.run_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "task": task,
            }
        )
        if agent_id is not UNSET:
            field_dict["agentId"] = agent_id
        if conversation_id is not UNSET:
            field_dict["conversationId"] = conversation_id
        if success_criteria is not UNSET:
            field_dict["successCriteria"] = success_criteria
        if business_keys is not UNSET:
            field_dict["businessKeys"] = business_keys
        if idempotency_key is not UNSET:
            field_dict["idempotencyKey"] = idempotency_key
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if contact_id is not UNSET:
            field_dict["contactId"] = contact_id
        if contact is not UNSET:
            field_dict["contact"] = contact
        if custom_tools is not UNSET:
            field_dict["customTools"] = custom_tools
        if delay_minutes is not UNSET:
            field_dict["delayMinutes"] = delay_minutes
        if run_at is not UNSET:
            field_dict["runAt"] = run_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contact_hints import ContactHints
        from ..models.create_trigger_request_business_keys import (
            CreateTriggerRequestBusinessKeys,
        )
        from ..models.create_trigger_request_metadata import (
            CreateTriggerRequestMetadata,
        )
        from ..models.custom_tool import CustomTool

        d = dict(src_dict)
        task = d.pop("task")

        _agent_id = d.pop("agentId", UNSET)
        agent_id: UUID | Unset
        if isinstance(_agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = UUID(_agent_id)

        _conversation_id = d.pop("conversationId", UNSET)
        conversation_id: UUID | Unset
        if isinstance(_conversation_id, Unset):
            conversation_id = UNSET
        else:
            conversation_id = UUID(_conversation_id)

        success_criteria = d.pop("successCriteria", UNSET)

        _business_keys = d.pop("businessKeys", UNSET)
        business_keys: CreateTriggerRequestBusinessKeys | Unset
        if isinstance(_business_keys, Unset):
            business_keys = UNSET
        else:
            business_keys = CreateTriggerRequestBusinessKeys.from_dict(_business_keys)

        idempotency_key = d.pop("idempotencyKey", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: CreateTriggerRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = CreateTriggerRequestMetadata.from_dict(_metadata)

        contact_id = d.pop("contactId", UNSET)

        _contact = d.pop("contact", UNSET)
        contact: ContactHints | Unset
        if isinstance(_contact, Unset):
            contact = UNSET
        else:
            contact = ContactHints.from_dict(_contact)

        _custom_tools = d.pop("customTools", UNSET)
        custom_tools: list[CustomTool] | Unset = UNSET
        if _custom_tools is not UNSET:
            custom_tools = []
            for custom_tools_item_data in _custom_tools:
                custom_tools_item = CustomTool.from_dict(custom_tools_item_data)

                custom_tools.append(custom_tools_item)

        delay_minutes = d.pop("delayMinutes", UNSET)

        run_at = d.pop("runAt", UNSET)

        create_trigger_request = cls(
            task=task,
            agent_id=agent_id,
            conversation_id=conversation_id,
            success_criteria=success_criteria,
            business_keys=business_keys,
            idempotency_key=idempotency_key,
            metadata=metadata,
            contact_id=contact_id,
            contact=contact,
            custom_tools=custom_tools,
            delay_minutes=delay_minutes,
            run_at=run_at,
        )

        return create_trigger_request

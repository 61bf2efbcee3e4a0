from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.conversation_status import ConversationStatus, check_conversation_status

if TYPE_CHECKING:
    from ..models.conversation_metadata import ConversationMetadata
    from ..models.message_entry import MessageEntry


T = TypeVar("T", bound="Conversation")


@_attrs_define
class Conversation:
    conversation_id: UUID
    contact_id: int | None
    agent_id: None | UUID
    status: ConversationStatus
    created_at: datetime.datetime
    metadata: ConversationMetadata
    custom_system_message: None | str
    job_id: None | UUID
    job_status: None | str
    messages: list[MessageEntry]

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        contact_id: int | None
        contact_id = self.contact_id

        agent_id: None | str
        if isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        status: str = self.status

        created_at = self.created_at.isoformat()

        metadata = self.metadata.to_dict()

        custom_system_message: None | str
        custom_system_message = self.custom_system_message

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        job_status: None | str
        job_status = self.job_status

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "contactId": contact_id,
                "agentId": agent_id,
                "status": status,
                "createdAt": created_at,
                "metadata": metadata,
                "customSystemMessage": custom_system_message,
                "jobId": job_id,
                "jobStatus": job_status,
                "messages": messages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.conversation_metadata import ConversationMetadata
        from ..models.message_entry import MessageEntry

        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        def _parse_contact_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        contact_id = _parse_contact_id(d.pop("contactId"))

        def _parse_agent_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agent_id_type_0 = UUID(data)

                return agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        agent_id = _parse_agent_id(d.pop("agentId"))

        status = check_conversation_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        metadata = ConversationMetadata.from_dict(d.pop("metadata"))

        def _parse_custom_system_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        custom_system_message = _parse_custom_system_message(d.pop("customSystemMessage"))

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("jobId"))

        def _parse_job_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_status = _parse_job_status(d.pop("jobStatus"))

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = MessageEntry.from_dict(messages_item_data)

            messages.append(messages_item)

        conversation = cls(
            conversation_id=conversation_id,
            contact_id=contact_id,
            agent_id=agent_id,
            status=status,
            created_at=created_at,
            metadata=metadata,
            custom_system_message=custom_system_message,
            job_id=job_id,
            job_status=job_status,
            messages=messages,
        )

        return conversation

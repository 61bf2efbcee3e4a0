from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.create_conversation_request_memory_scope import (
    CreateConversationRequestMemoryScope,
    check_create_conversation_request_memory_scope,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contact_hints import ContactHints
    from ..models.create_conversation_request_metadata import (
        CreateConversationRequestMetadata,
    )


T = TypeVar("T", bound="CreateConversationRequest")


@_attrs_define
class CreateConversationRequest:
    agent_id: UUID | Unset = UNSET
    conversation_id: UUID | Unset = UNSET
    contact_id: int | Unset = UNSET
    contact: ContactHints | Unset = UNSET
    custom_system_message: str | Unset = UNSET
    metadata: CreateConversationRequestMetadata | Unset = UNSET
    memory_scope: CreateConversationRequestMemoryScope | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        agent_id: str | Unset = UNSET
        if not isinstance(self.agent_id, Unset):
            agent_id = str(self.agent_id)

        conversation_id: str | Unset = UNSET
        if not isinstance(self.conversation_id, Unset):
            conversation_id = str(self.conversation_id)

        contact_id = self.contact_id

        contact: dict[str, Any] | Unset = UNSET
        if not isinstance(self.contact, Unset):
            contact = self.contact.to_dict()

        custom_system_message = self.custom_system_message

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        memory_scope: str | Unset = UNSET
        if not isinstance(self.memory_scope, Unset):
            memory_scope = self.memory_scope

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if agent_id is not UNSET:
            field_dict["agentId"] = agent_id
        if conversation_id is not UNSET:
            field_dict["conversationId"] = conversation_id
        if contact_id is not UNSET:
            field_dict["contactId"] = contact_id
        if contact is not UNSET:
            field_dict["contact"] = contact
        if custom_system_message is not UNSET:
            field_dict["customSystemMessage"] = custom_system_message
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if memory_scope is not UNSET:
            field_dict["memoryScope"] = memory_scope

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contact_hints import ContactHints
        from ..models.create_conversation_request_metadata import (
            CreateConversationRequestMetadata,
        )

        d = dict(src_dict)
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

        contact_id = d.pop("contactId", UNSET)

        _contact = d.pop("contact", UNSET)
        contact: ContactHints | Unset
        if isinstance(_contact, Unset):
            contact = UNSET
        else:
            contact = ContactHints.from_dict(_contact)

        custom_system_message = d.pop("customSystemMessage", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: CreateConversationRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = CreateConversationRequestMetadata.from_dict(_metadata)

        _memory_scope = d.pop("memoryScope", UNSET)
        memory_scope: CreateConversationRequestMemoryScope | Unset
        if isinstance(_memory_scope, Unset):
            memory_scope = UNSET
        else:
            memory_scope = check_create_conversation_request_memory_scope(_memory_scope)

        create_conversation_request = cls(
            agent_id=agent_id,
            conversation_id=conversation_id,
            contact_id=contact_id,
            contact=contact,
            custom_system_message=custom_system_message,
            metadata=metadata,
            memory_scope=memory_scope,
        )

        return create_conversation_request

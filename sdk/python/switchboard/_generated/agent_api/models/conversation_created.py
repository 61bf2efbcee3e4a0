from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="ConversationCreated")


@_attrs_define
class ConversationCreated:
    conversation_id: UUID
    contact_id: int | None
    agent_id: None | UUID
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        contact_id: int | None
        contact_id = self.contact_id

        agent_id: None | str
        if isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "contactId": contact_id,
                "agentId": agent_id,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
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

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        conversation_created = cls(
            conversation_id=conversation_id,
            contact_id=contact_id,
            agent_id=agent_id,
            created_at=created_at,
        )

        return conversation_created

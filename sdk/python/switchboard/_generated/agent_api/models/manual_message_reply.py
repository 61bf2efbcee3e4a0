from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="ManualMessageReply")


@_attrs_define
class ManualMessageReply:
    conversation_id: UUID
    message_id: UUID
    added_by: str
    timestamp: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        message_id = str(self.message_id)

        added_by = self.added_by

        timestamp = self.timestamp.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "messageId": message_id,
                "addedBy": added_by,
                "timestamp": timestamp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        message_id = UUID(d.pop("messageId"))

        added_by = d.pop("addedBy")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        manual_message_reply = cls(
            conversation_id=conversation_id,
            message_id=message_id,
            added_by=added_by,
            timestamp=timestamp,
        )

        return manual_message_reply

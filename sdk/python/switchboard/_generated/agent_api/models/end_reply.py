from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="EndReply")


@_attrs_define
class EndReply:
    conversation_id: UUID
    status: Literal["ended"]

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        status = cast(Literal["ended"], d.pop("status"))
        if status != "ended":
            raise ValueError(f"status must match const 'ended', got '{status}'")

        end_reply = cls(
            conversation_id=conversation_id,
            status=status,
        )

        return end_reply

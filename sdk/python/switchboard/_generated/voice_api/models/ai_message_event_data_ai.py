from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ai_message_event_data_ai_message import AiMessageEventDataAiMessage


T = TypeVar("T", bound="AiMessageEventDataAi")


@_attrs_define
class AiMessageEventDataAi:
    agent_id: str
    message: AiMessageEventDataAiMessage

    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        message = self.message.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent_id": agent_id,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_message_event_data_ai_message import (
            AiMessageEventDataAiMessage,
        )

        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        message = AiMessageEventDataAiMessage.from_dict(d.pop("message"))

        ai_message_event_data_ai = cls(
            agent_id=agent_id,
            message=message,
        )

        return ai_message_event_data_ai

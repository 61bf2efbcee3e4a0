from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ai_message_event_data_ai_message_details import (
        AiMessageEventDataAiMessageDetails,
    )


T = TypeVar("T", bound="AiMessageEventDataAiMessage")


@_attrs_define
class AiMessageEventDataAiMessage:
    summary: str
    details: AiMessageEventDataAiMessageDetails

    def to_dict(self) -> dict[str, Any]:
        summary = self.summary

        details = self.details.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "summary": summary,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_message_event_data_ai_message_details import (
            AiMessageEventDataAiMessageDetails,
        )

        d = dict(src_dict)
        summary = d.pop("summary")

        details = AiMessageEventDataAiMessageDetails.from_dict(d.pop("details"))

        ai_message_event_data_ai_message = cls(
            summary=summary,
            details=details,
        )

        return ai_message_event_data_ai_message

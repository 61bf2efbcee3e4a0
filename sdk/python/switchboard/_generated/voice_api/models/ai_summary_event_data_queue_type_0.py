from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AiSummaryEventDataQueueType0")


@_attrs_define
class AiSummaryEventDataQueueType0:
    id: str
    name: str
    position: int
    entered_at: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        position = self.position

        entered_at = self.entered_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "position": position,
                "entered_at": entered_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        position = d.pop("position")

        entered_at = d.pop("entered_at")

        ai_summary_event_data_queue_type_0 = cls(
            id=id,
            name=name,
            position=position,
            entered_at=entered_at,
        )

        return ai_summary_event_data_queue_type_0

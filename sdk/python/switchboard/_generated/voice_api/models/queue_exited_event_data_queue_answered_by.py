from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="QueueExitedEventDataQueueAnsweredBy")


@_attrs_define
class QueueExitedEventDataQueueAnsweredBy:
    """With reason answered"""

    member_id: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        member_id = self.member_id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "member_id": member_id,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        member_id = d.pop("member_id")

        name = d.pop("name")

        queue_exited_event_data_queue_answered_by = cls(
            member_id=member_id,
            name=name,
        )

        return queue_exited_event_data_queue_answered_by

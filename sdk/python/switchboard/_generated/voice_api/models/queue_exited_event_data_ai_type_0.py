from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="QueueExitedEventDataAiType0")


@_attrs_define
class QueueExitedEventDataAiType0:
    agent_id: str

    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent_id": agent_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        queue_exited_event_data_ai_type_0 = cls(
            agent_id=agent_id,
        )

        return queue_exited_event_data_ai_type_0

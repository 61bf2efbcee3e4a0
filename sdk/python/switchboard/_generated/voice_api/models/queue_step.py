from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="QueueStep")


@_attrs_define
class QueueStep:
    type_: Literal["queue"]
    queue_id: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        queue_id = self.queue_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "queue_id": queue_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["queue"], d.pop("type"))
        if type_ != "queue":
            raise ValueError(f"type must match const 'queue', got '{type_}'")

        queue_id = d.pop("queue_id")

        queue_step = cls(
            type_=type_,
            queue_id=queue_id,
        )

        return queue_step

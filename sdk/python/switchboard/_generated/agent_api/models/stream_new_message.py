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

T = TypeVar("T", bound="StreamNewMessage")


@_attrs_define
class StreamNewMessage:
    type_: Literal["new_message"]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["new_message"], d.pop("type"))
        if type_ != "new_message":
            raise ValueError(f"type must match const 'new_message', got '{type_}'")

        stream_new_message = cls(
            type_=type_,
        )

        return stream_new_message

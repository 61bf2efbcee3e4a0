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

T = TypeVar("T", bound="StreamTool")


@_attrs_define
class StreamTool:
    type_: Literal["tool"]
    name: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["tool"], d.pop("type"))
        if type_ != "tool":
            raise ValueError(f"type must match const 'tool', got '{type_}'")

        name = d.pop("name")

        stream_tool = cls(
            type_=type_,
            name=name,
        )

        return stream_tool

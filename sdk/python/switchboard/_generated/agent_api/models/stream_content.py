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

T = TypeVar("T", bound="StreamContent")


@_attrs_define
class StreamContent:
    type_: Literal["content"]
    content: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        content = self.content

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "content": content,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["content"], d.pop("type"))
        if type_ != "content":
            raise ValueError(f"type must match const 'content', got '{type_}'")

        content = d.pop("content")

        stream_content = cls(
            type_=type_,
            content=content,
        )

        return stream_content

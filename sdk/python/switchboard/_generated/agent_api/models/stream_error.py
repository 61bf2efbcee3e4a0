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

T = TypeVar("T", bound="StreamError")


@_attrs_define
class StreamError:
    type_: Literal["error"]
    error: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["error"], d.pop("type"))
        if type_ != "error":
            raise ValueError(f"type must match const 'error', got '{type_}'")

        error = d.pop("error")

        stream_error = cls(
            type_=type_,
            error=error,
        )

        return stream_error

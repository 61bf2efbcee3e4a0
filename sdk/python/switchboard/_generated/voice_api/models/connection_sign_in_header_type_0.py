from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ConnectionSignInHeaderType0")


@_attrs_define
class ConnectionSignInHeaderType0:
    name: str
    value_set: bool

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value_set = self.value_set

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "value_set": value_set,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        value_set = d.pop("value_set")

        connection_sign_in_header_type_0 = cls(
            name=name,
            value_set=value_set,
        )

        return connection_sign_in_header_type_0

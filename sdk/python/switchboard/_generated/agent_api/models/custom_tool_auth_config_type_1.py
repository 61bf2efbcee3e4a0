from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CustomToolAuthConfigType1")


@_attrs_define
class CustomToolAuthConfigType1:
    header_name: str
    api_key: str

    def to_dict(self) -> dict[str, Any]:
        header_name = self.header_name

        api_key = self.api_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "headerName": header_name,
                "apiKey": api_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        header_name = d.pop("headerName")

        api_key = d.pop("apiKey")

        custom_tool_auth_config_type_1 = cls(
            header_name=header_name,
            api_key=api_key,
        )

        return custom_tool_auth_config_type_1

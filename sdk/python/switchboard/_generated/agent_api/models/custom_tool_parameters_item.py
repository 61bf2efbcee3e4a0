from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.custom_tool_parameters_item_type import (
    CustomToolParametersItemType,
    check_custom_tool_parameters_item_type,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomToolParametersItem")


@_attrs_define
class CustomToolParametersItem:
    name: str
    type_: CustomToolParametersItemType | Unset = "string"
    required: bool | Unset = False
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_

        required = self.required

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_
        if required is not UNSET:
            field_dict["required"] = required
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        _type_ = d.pop("type", UNSET)
        type_: CustomToolParametersItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = check_custom_tool_parameters_item_type(_type_)

        required = d.pop("required", UNSET)

        description = d.pop("description", UNSET)

        custom_tool_parameters_item = cls(
            name=name,
            type_=type_,
            required=required,
            description=description,
        )

        return custom_tool_parameters_item

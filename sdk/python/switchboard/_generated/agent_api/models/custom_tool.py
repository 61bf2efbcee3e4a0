from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.custom_tool_auth_type import (
    CustomToolAuthType,
    check_custom_tool_auth_type,
)
from ..models.custom_tool_method import CustomToolMethod, check_custom_tool_method
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_tool_auth_config_type_0 import CustomToolAuthConfigType0
    from ..models.custom_tool_auth_config_type_1 import CustomToolAuthConfigType1
    from ..models.custom_tool_auth_config_type_2 import CustomToolAuthConfigType2
    from ..models.custom_tool_parameters_item import CustomToolParametersItem


T = TypeVar("T", bound="CustomTool")


@_attrs_define
class CustomTool:
    name: str
    description: str
    url: str
    method: CustomToolMethod
    auth_type: CustomToolAuthType | Unset = "none"
    auth_config: CustomToolAuthConfigType0 | CustomToolAuthConfigType1 | CustomToolAuthConfigType2 | Unset = UNSET
    parameters: list[CustomToolParametersItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.custom_tool_auth_config_type_0 import CustomToolAuthConfigType0
        from ..models.custom_tool_auth_config_type_1 import CustomToolAuthConfigType1

        name = self.name

        description = self.description

        url = self.url

        method: str = self.method

        auth_type: str | Unset = UNSET
        if not isinstance(self.auth_type, Unset):
            auth_type = self.auth_type

        auth_config: dict[str, Any] | Unset
        if isinstance(self.auth_config, Unset):
            auth_config = UNSET
        elif isinstance(self.auth_config, CustomToolAuthConfigType0) or isinstance(
            self.auth_config, CustomToolAuthConfigType1
        ):
            auth_config = self.auth_config.to_dict()
        else:
            auth_config = self.auth_config.to_dict()

        parameters: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = []
            for parameters_item_data in self.parameters:
                parameters_item = parameters_item_data.to_dict()
                parameters.append(parameters_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "description": description,
                "url": url,
                "method": method,
            }
        )
        if auth_type is not UNSET:
            field_dict["authType"] = auth_type
        if auth_config is not UNSET:
            field_dict["authConfig"] = auth_config
        if parameters is not UNSET:
            field_dict["parameters"] = parameters

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_tool_auth_config_type_0 import CustomToolAuthConfigType0
        from ..models.custom_tool_auth_config_type_1 import CustomToolAuthConfigType1
        from ..models.custom_tool_auth_config_type_2 import CustomToolAuthConfigType2
        from ..models.custom_tool_parameters_item import CustomToolParametersItem

        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description")

        url = d.pop("url")

        method = check_custom_tool_method(d.pop("method"))

        _auth_type = d.pop("authType", UNSET)
        auth_type: CustomToolAuthType | Unset
        if isinstance(_auth_type, Unset):
            auth_type = UNSET
        else:
            auth_type = check_custom_tool_auth_type(_auth_type)

        def _parse_auth_config(
            data: object,
        ) -> CustomToolAuthConfigType0 | CustomToolAuthConfigType1 | CustomToolAuthConfigType2 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                auth_config_type_0 = CustomToolAuthConfigType0.from_dict(data)

                return auth_config_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                auth_config_type_1 = CustomToolAuthConfigType1.from_dict(data)

                return auth_config_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            auth_config_type_2 = CustomToolAuthConfigType2.from_dict(data)

            return auth_config_type_2

        auth_config = _parse_auth_config(d.pop("authConfig", UNSET))

        _parameters = d.pop("parameters", UNSET)
        parameters: list[CustomToolParametersItem] | Unset = UNSET
        if _parameters is not UNSET:
            parameters = []
            for parameters_item_data in _parameters:
                parameters_item = CustomToolParametersItem.from_dict(parameters_item_data)

                parameters.append(parameters_item)

        custom_tool = cls(
            name=name,
            description=description,
            url=url,
            method=method,
            auth_type=auth_type,
            auth_config=auth_config,
            parameters=parameters,
        )

        return custom_tool

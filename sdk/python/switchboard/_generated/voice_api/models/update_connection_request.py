from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.update_connection_request_sign_in_header_type_0 import (
        UpdateConnectionRequestSignInHeaderType0,
    )


T = TypeVar("T", bound="UpdateConnectionRequest")


@_attrs_define
class UpdateConnectionRequest:
    name: str | Unset = UNSET
    base_url: str | Unset = UNSET
    """ https address of the customer system, on the public internet; no credentials (use sign_in_header), query or
    fragment """
    list_path: str | Unset = UNSET
    """ Default /campaign/list """
    results_path: str | Unset = UNSET
    """ Default /campaign/results """
    sign_in_header: None | Unset | UpdateConnectionRequestSignInHeaderType0 = UNSET
    """ Sent with every request to the customer system; the value is encrypted at rest and never returned. null
    removes it """

    def to_dict(self) -> dict[str, Any]:
        from ..models.update_connection_request_sign_in_header_type_0 import (
            UpdateConnectionRequestSignInHeaderType0,
        )

        name = self.name

        base_url = self.base_url

        list_path = self.list_path

        results_path = self.results_path

        sign_in_header: dict[str, Any] | None | Unset
        if isinstance(self.sign_in_header, Unset):
            sign_in_header = UNSET
        elif isinstance(self.sign_in_header, UpdateConnectionRequestSignInHeaderType0):
            sign_in_header = self.sign_in_header.to_dict()
        else:
            sign_in_header = self.sign_in_header

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if base_url is not UNSET:
            field_dict["base_url"] = base_url
        if list_path is not UNSET:
            field_dict["list_path"] = list_path
        if results_path is not UNSET:
            field_dict["results_path"] = results_path
        if sign_in_header is not UNSET:
            field_dict["sign_in_header"] = sign_in_header

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.update_connection_request_sign_in_header_type_0 import (
            UpdateConnectionRequestSignInHeaderType0,
        )

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        base_url = d.pop("base_url", UNSET)

        list_path = d.pop("list_path", UNSET)

        results_path = d.pop("results_path", UNSET)

        def _parse_sign_in_header(data: object) -> None | Unset | UpdateConnectionRequestSignInHeaderType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sign_in_header_type_0 = UpdateConnectionRequestSignInHeaderType0.from_dict(data)

                return sign_in_header_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateConnectionRequestSignInHeaderType0, data)

        sign_in_header = _parse_sign_in_header(d.pop("sign_in_header", UNSET))

        update_connection_request = cls(
            name=name,
            base_url=base_url,
            list_path=list_path,
            results_path=results_path,
            sign_in_header=sign_in_header,
        )

        return update_connection_request

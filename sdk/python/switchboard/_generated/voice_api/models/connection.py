from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.connection_sign_in_header_type_0 import ConnectionSignInHeaderType0


T = TypeVar("T", bound="Connection")


@_attrs_define
class Connection:
    id: str
    name: str
    base_url: str
    list_path: str
    results_path: str
    sign_in_header: ConnectionSignInHeaderType0 | None
    created_at: str
    """ RFC 3339 """
    updated_at: str
    """ RFC 3339 """

    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_sign_in_header_type_0 import (
            ConnectionSignInHeaderType0,
        )

        id = self.id

        name = self.name

        base_url = self.base_url

        list_path = self.list_path

        results_path = self.results_path

        sign_in_header: dict[str, Any] | None
        if isinstance(self.sign_in_header, ConnectionSignInHeaderType0):
            sign_in_header = self.sign_in_header.to_dict()
        else:
            sign_in_header = self.sign_in_header

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "base_url": base_url,
                "list_path": list_path,
                "results_path": results_path,
                "sign_in_header": sign_in_header,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connection_sign_in_header_type_0 import (
            ConnectionSignInHeaderType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        base_url = d.pop("base_url")

        list_path = d.pop("list_path")

        results_path = d.pop("results_path")

        def _parse_sign_in_header(data: object) -> ConnectionSignInHeaderType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sign_in_header_type_0 = ConnectionSignInHeaderType0.from_dict(data)

                return sign_in_header_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConnectionSignInHeaderType0 | None, data)

        sign_in_header = _parse_sign_in_header(d.pop("sign_in_header"))

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        connection = cls(
            id=id,
            name=name,
            base_url=base_url,
            list_path=list_path,
            results_path=results_path,
            sign_in_header=sign_in_header,
            created_at=created_at,
            updated_at=updated_at,
        )

        return connection

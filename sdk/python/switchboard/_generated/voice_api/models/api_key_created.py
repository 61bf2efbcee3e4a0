from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ApiKeyCreated")


@_attrs_define
class ApiKeyCreated:
    id: str
    name: str
    prefix: str
    key: str
    """ The key itself, shown only in this reply """
    created_at: str
    """ RFC 3339 """

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        prefix = self.prefix

        key = self.key

        created_at = self.created_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "prefix": prefix,
                "key": key,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        prefix = d.pop("prefix")

        key = d.pop("key")

        created_at = d.pop("created_at")

        api_key_created = cls(
            id=id,
            name=name,
            prefix=prefix,
            key=key,
            created_at=created_at,
        )

        return api_key_created

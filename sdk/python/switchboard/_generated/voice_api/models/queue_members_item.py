from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="QueueMembersItem")


@_attrs_define
class QueueMembersItem:
    id: str
    name: str
    phone: str
    available: bool

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        phone = self.phone

        available = self.available

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "phone": phone,
                "available": available,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        phone = d.pop("phone")

        available = d.pop("available")

        queue_members_item = cls(
            id=id,
            name=name,
            phone=phone,
            available=available,
        )

        return queue_members_item

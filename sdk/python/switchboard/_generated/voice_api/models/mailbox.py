from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Mailbox")


@_attrs_define
class Mailbox:
    id: str
    name: str
    greeting: str
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        greeting = self.greeting

        created_at = self.created_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "greeting": greeting,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        greeting = d.pop("greeting")

        created_at = d.pop("created_at")

        mailbox = cls(
            id=id,
            name=name,
            greeting=greeting,
            created_at=created_at,
        )

        return mailbox

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateMailboxRequest")


@_attrs_define
class CreateMailboxRequest:
    name: str
    greeting: str
    """ Said to the caller before the beep """

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        greeting = self.greeting

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "greeting": greeting,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        greeting = d.pop("greeting")

        create_mailbox_request = cls(
            name=name,
            greeting=greeting,
        )

        return create_mailbox_request

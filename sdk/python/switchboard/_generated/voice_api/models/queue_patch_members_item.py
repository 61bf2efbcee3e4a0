from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="QueuePatchMembersItem")


@_attrs_define
class QueuePatchMembersItem:
    name: str
    phone: str
    """ E.164, or national in the account's country """
    id: str | Unset = UNSET
    """ Your id for the member (your staff id), kept as given; left out, one is made (mem_…). Give a member's id
    again when members are replaced to keep its place in the longest-idle order """
    available: bool | Unset = True
    """ Only available members are rung """

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        phone = self.phone

        id = self.id

        available = self.available

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "phone": phone,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if available is not UNSET:
            field_dict["available"] = available

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        phone = d.pop("phone")

        id = d.pop("id", UNSET)

        available = d.pop("available", UNSET)

        queue_patch_members_item = cls(
            name=name,
            phone=phone,
            id=id,
            available=available,
        )

        return queue_patch_members_item

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.queue_members_item import QueueMembersItem


T = TypeVar("T", bound="Queue")


@_attrs_define
class Queue:
    id: str
    name: str
    members: list[QueueMembersItem]
    max_wait_sec: int
    hold_message: None | str
    created_at: str
    updated_at: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)

        max_wait_sec = self.max_wait_sec

        hold_message: None | str
        hold_message = self.hold_message

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "members": members,
                "max_wait_sec": max_wait_sec,
                "hold_message": hold_message,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_members_item import QueueMembersItem

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        members = []
        _members = d.pop("members")
        for members_item_data in _members:
            members_item = QueueMembersItem.from_dict(members_item_data)

            members.append(members_item)

        max_wait_sec = d.pop("max_wait_sec")

        def _parse_hold_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        hold_message = _parse_hold_message(d.pop("hold_message"))

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        queue = cls(
            id=id,
            name=name,
            members=members,
            max_wait_sec=max_wait_sec,
            hold_message=hold_message,
            created_at=created_at,
            updated_at=updated_at,
        )

        return queue

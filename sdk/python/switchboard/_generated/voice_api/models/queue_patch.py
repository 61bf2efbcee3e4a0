from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.queue_patch_members_item import QueuePatchMembersItem


T = TypeVar("T", bound="QueuePatch")


@_attrs_define
class QueuePatch:
    name: str | Unset = UNSET
    members: list[QueuePatchMembersItem] | Unset = UNSET
    """ Rung longest-idle first """
    max_wait_sec: int | Unset = UNSET
    """ How long a caller waits at most (queue.timeout max_wait) """
    hold_message: None | str | Unset = UNSET
    """ Said to the caller on entering the queue """

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        members: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.members, Unset):
            members = []
            for members_item_data in self.members:
                members_item = members_item_data.to_dict()
                members.append(members_item)

        max_wait_sec = self.max_wait_sec

        hold_message: None | str | Unset
        if isinstance(self.hold_message, Unset):
            hold_message = UNSET
        else:
            hold_message = self.hold_message

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if members is not UNSET:
            field_dict["members"] = members
        if max_wait_sec is not UNSET:
            field_dict["max_wait_sec"] = max_wait_sec
        if hold_message is not UNSET:
            field_dict["hold_message"] = hold_message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_patch_members_item import QueuePatchMembersItem

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _members = d.pop("members", UNSET)
        members: list[QueuePatchMembersItem] | Unset = UNSET
        if _members is not UNSET:
            members = []
            for members_item_data in _members:
                members_item = QueuePatchMembersItem.from_dict(members_item_data)

                members.append(members_item)

        max_wait_sec = d.pop("max_wait_sec", UNSET)

        def _parse_hold_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        hold_message = _parse_hold_message(d.pop("hold_message", UNSET))

        queue_patch = cls(
            name=name,
            members=members,
            max_wait_sec=max_wait_sec,
            hold_message=hold_message,
        )

        return queue_patch

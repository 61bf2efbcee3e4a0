from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.message_patch_status import MessagePatchStatus, check_message_patch_status

T = TypeVar("T", bound="MessagePatch")


@_attrs_define
class MessagePatch:
    status: MessagePatchStatus
    """ new → read → archived, forward only """

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = check_message_patch_status(d.pop("status"))

        message_patch = cls(
            status=status,
        )

        return message_patch

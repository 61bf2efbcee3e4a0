from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.message_entry_role import MessageEntryRole, check_message_entry_role
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message_entry_metadata import MessageEntryMetadata


T = TypeVar("T", bound="MessageEntry")


@_attrs_define
class MessageEntry:
    role: MessageEntryRole
    content: str
    timestamp: datetime.datetime
    metadata: MessageEntryMetadata | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role: str = self.role

        content = self.content

        timestamp = self.timestamp.isoformat()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
                "content": content,
                "timestamp": timestamp,
            }
        )
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_entry_metadata import MessageEntryMetadata

        d = dict(src_dict)
        role = check_message_entry_role(d.pop("role"))

        content = d.pop("content")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        _metadata = d.pop("metadata", UNSET)
        metadata: MessageEntryMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = MessageEntryMetadata.from_dict(_metadata)

        message_entry = cls(
            role=role,
            content=content,
            timestamp=timestamp,
            metadata=metadata,
        )

        return message_entry

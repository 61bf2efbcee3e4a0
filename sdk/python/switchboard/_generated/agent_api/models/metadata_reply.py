from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.metadata_reply_metadata import MetadataReplyMetadata


T = TypeVar("T", bound="MetadataReply")


@_attrs_define
class MetadataReply:
    conversation_id: UUID
    metadata: MetadataReplyMetadata
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        metadata = self.metadata.to_dict()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "metadata": metadata,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metadata_reply_metadata import MetadataReplyMetadata

        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        metadata = MetadataReplyMetadata.from_dict(d.pop("metadata"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        metadata_reply = cls(
            conversation_id=conversation_id,
            metadata=metadata,
            updated_at=updated_at,
        )

        return metadata_reply

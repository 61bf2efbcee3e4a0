from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.manual_message_request_metadata import ManualMessageRequestMetadata


T = TypeVar("T", bound="ManualMessageRequest")


@_attrs_define
class ManualMessageRequest:
    message: str
    username: str | Unset = UNSET
    metadata: ManualMessageRequestMetadata | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        username = self.username

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )
        if username is not UNSET:
            field_dict["username"] = username
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.manual_message_request_metadata import (
            ManualMessageRequestMetadata,
        )

        d = dict(src_dict)
        message = d.pop("message")

        username = d.pop("username", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: ManualMessageRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ManualMessageRequestMetadata.from_dict(_metadata)

        manual_message_request = cls(
            message=message,
            username=username,
            metadata=metadata,
        )

        return manual_message_request

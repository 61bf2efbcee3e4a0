from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.replace_metadata_request_metadata import ReplaceMetadataRequestMetadata


T = TypeVar("T", bound="ReplaceMetadataRequest")


@_attrs_define
class ReplaceMetadataRequest:
    metadata: ReplaceMetadataRequestMetadata
    custom_system_message: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        metadata = self.metadata.to_dict()

        custom_system_message = self.custom_system_message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "metadata": metadata,
            }
        )
        if custom_system_message is not UNSET:
            field_dict["customSystemMessage"] = custom_system_message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.replace_metadata_request_metadata import (
            ReplaceMetadataRequestMetadata,
        )

        d = dict(src_dict)
        metadata = ReplaceMetadataRequestMetadata.from_dict(d.pop("metadata"))

        custom_system_message = d.pop("customSystemMessage", UNSET)

        replace_metadata_request = cls(
            metadata=metadata,
            custom_system_message=custom_system_message,
        )

        return replace_metadata_request

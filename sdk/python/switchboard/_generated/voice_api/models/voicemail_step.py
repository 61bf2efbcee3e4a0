from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="VoicemailStep")


@_attrs_define
class VoicemailStep:
    type_: Literal["voicemail"]
    mailbox_id: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        mailbox_id = self.mailbox_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "mailbox_id": mailbox_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["voicemail"], d.pop("type"))
        if type_ != "voicemail":
            raise ValueError(f"type must match const 'voicemail', got '{type_}'")

        mailbox_id = d.pop("mailbox_id")

        voicemail_step = cls(
            type_=type_,
            mailbox_id=mailbox_id,
        )

        return voicemail_step

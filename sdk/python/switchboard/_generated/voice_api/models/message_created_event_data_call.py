from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MessageCreatedEventDataCall")


@_attrs_define
class MessageCreatedEventDataCall:
    id: str
    from_: str
    to: str
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        from_ = self.from_

        to = self.to

        created_at = self.created_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "from": from_,
                "to": to,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        from_ = d.pop("from")

        to = d.pop("to")

        created_at = d.pop("created_at")

        message_created_event_data_call = cls(
            id=id,
            from_=from_,
            to=to,
            created_at=created_at,
        )

        return message_created_event_data_call

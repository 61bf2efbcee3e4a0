from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="VerifyReply")


@_attrs_define
class VerifyReply:
    """The contact is verified for this conversation: agents that require verification use their tools and contact memory
    in it

    """

    conversation_id: UUID
    contact_id: int | None
    verified: bool
    verified_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        contact_id: int | None
        contact_id = self.contact_id

        verified = self.verified

        verified_at = self.verified_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "contactId": contact_id,
                "verified": verified,
                "verifiedAt": verified_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        def _parse_contact_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        contact_id = _parse_contact_id(d.pop("contactId"))

        verified = d.pop("verified")

        verified_at = datetime.datetime.fromisoformat(d.pop("verifiedAt"))

        verify_reply = cls(
            conversation_id=conversation_id,
            contact_id=contact_id,
            verified=verified,
            verified_at=verified_at,
        )

        return verify_reply

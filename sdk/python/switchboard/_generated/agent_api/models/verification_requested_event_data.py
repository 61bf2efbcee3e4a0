from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VerificationRequestedEventData")


@_attrs_define
class VerificationRequestedEventData:
    conversation_id: UUID
    contact_id: int | None
    external_user_id: None | str
    passcode: str
    """ Deliver it to the user by your own channel; they type it in the conversation """
    expires_at: datetime.datetime
    """ 10 minutes after it was made; 5 wrong tries spend it and a new one is sent """
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        contact_id: int | None
        contact_id = self.contact_id

        external_user_id: None | str
        external_user_id = self.external_user_id

        passcode = self.passcode

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "conversationId": conversation_id,
                "contactId": contact_id,
                "externalUserId": external_user_id,
                "passcode": passcode,
                "expiresAt": expires_at,
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

        def _parse_external_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_user_id = _parse_external_user_id(d.pop("externalUserId"))

        passcode = d.pop("passcode")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        verification_requested_event_data = cls(
            conversation_id=conversation_id,
            contact_id=contact_id,
            external_user_id=external_user_id,
            passcode=passcode,
            expires_at=expires_at,
        )

        verification_requested_event_data.additional_properties = d
        return verification_requested_event_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

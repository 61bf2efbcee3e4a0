from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.verification_requested_event_data import VerificationRequestedEventData


T = TypeVar("T", bound="VerificationRequestedEvent")


@_attrs_define
class VerificationRequestedEvent:
    id: str
    """ The event id, the same on every try """
    type_: Literal["contact.verification_requested"]
    created_at: datetime.datetime
    tenant_id: str
    data: VerificationRequestedEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        created_at = self.created_at.isoformat()

        tenant_id = self.tenant_id

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "created_at": created_at,
                "tenant_id": tenant_id,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verification_requested_event_data import (
            VerificationRequestedEventData,
        )

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["contact.verification_requested"], d.pop("type"))
        if type_ != "contact.verification_requested":
            raise ValueError(f"type must match const 'contact.verification_requested', got '{type_}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        tenant_id = d.pop("tenant_id")

        data = VerificationRequestedEventData.from_dict(d.pop("data"))

        verification_requested_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            tenant_id=tenant_id,
            data=data,
        )

        verification_requested_event.additional_properties = d
        return verification_requested_event

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

from __future__ import annotations

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

if TYPE_CHECKING:
    from ..models.call import Call


T = TypeVar("T", bound="CallRoutingEvent")


@_attrs_define
class CallRoutingEvent:
    id: str
    """ evt_…; the same on every try of this event """
    type_: Literal["call.routing"]
    created_at: str
    """ RFC 3339 """
    tenant_id: str
    """ The account id """
    data: Call

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        created_at = self.created_at

        tenant_id = self.tenant_id

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

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
        from ..models.call import Call

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["call.routing"], d.pop("type"))
        if type_ != "call.routing":
            raise ValueError(f"type must match const 'call.routing', got '{type_}'")

        created_at = d.pop("created_at")

        tenant_id = d.pop("tenant_id")

        data = Call.from_dict(d.pop("data"))

        call_routing_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            tenant_id=tenant_id,
            data=data,
        )

        return call_routing_event

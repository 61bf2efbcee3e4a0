from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SteerAccepted")


@_attrs_define
class SteerAccepted:
    call_id: str
    accepted: bool

    def to_dict(self) -> dict[str, Any]:
        call_id = self.call_id

        accepted = self.accepted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "call_id": call_id,
                "accepted": accepted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        call_id = d.pop("call_id")

        accepted = d.pop("accepted")

        steer_accepted = cls(
            call_id=call_id,
            accepted=accepted,
        )

        return steer_accepted

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

T = TypeVar("T", bound="TransferStep")


@_attrs_define
class TransferStep:
    type_: Literal["transfer"]
    to: str
    """ E.164, or national in the account's country """

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["transfer"], d.pop("type"))
        if type_ != "transfer":
            raise ValueError(f"type must match const 'transfer', got '{type_}'")

        to = d.pop("to")

        transfer_step = cls(
            type_=type_,
            to=to,
        )

        return transfer_step

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="InvoiceCreditNotesItem")


@_attrs_define
class InvoiceCreditNotesItem:
    number: str
    total: int

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "number": number,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        number = d.pop("number")

        total = d.pop("total")

        invoice_credit_notes_item = cls(
            number=number,
            total=total,
        )

        return invoice_credit_notes_item

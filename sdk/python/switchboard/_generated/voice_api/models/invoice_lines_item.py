from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.invoice_lines_item_item import (
    InvoiceLinesItemItem,
    check_invoice_lines_item_item,
)

T = TypeVar("T", bound="InvoiceLinesItem")


@_attrs_define
class InvoiceLinesItem:
    description: str
    item: InvoiceLinesItemItem
    reference_type: None | str
    agent_id: None | str
    direction: None | str
    quantity: float
    unit_price: int
    """ Minor units """
    amount: int
    """ Minor units """

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        item: str = self.item

        reference_type: None | str
        reference_type = self.reference_type

        agent_id: None | str
        agent_id = self.agent_id

        direction: None | str
        direction = self.direction

        quantity = self.quantity

        unit_price = self.unit_price

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "description": description,
                "item": item,
                "reference_type": reference_type,
                "agent_id": agent_id,
                "direction": direction,
                "quantity": quantity,
                "unit_price": unit_price,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        description = d.pop("description")

        item = check_invoice_lines_item_item(d.pop("item"))

        def _parse_reference_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference_type = _parse_reference_type(d.pop("reference_type"))

        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))

        def _parse_direction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        direction = _parse_direction(d.pop("direction"))

        quantity = d.pop("quantity")

        unit_price = d.pop("unit_price")

        amount = d.pop("amount")

        invoice_lines_item = cls(
            description=description,
            item=item,
            reference_type=reference_type,
            agent_id=agent_id,
            direction=direction,
            quantity=quantity,
            unit_price=unit_price,
            amount=amount,
        )

        return invoice_lines_item

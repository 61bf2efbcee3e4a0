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

from ..models.invoice_kind import InvoiceKind, check_invoice_kind

if TYPE_CHECKING:
    from ..models.invoice_credit_notes_item import InvoiceCreditNotesItem
    from ..models.invoice_lines_item import InvoiceLinesItem


T = TypeVar("T", bound="Invoice")


@_attrs_define
class Invoice:
    number: str
    kind: InvoiceKind
    status: Literal["finalized"]
    tenant_id: str
    month: str
    """ YYYY-MM, in the company timezone """
    timezone: str
    period_start: str
    period_end: str
    currency: str
    lines: list[InvoiceLinesItem]
    total: int
    """ Minor units """
    issued_at: str
    credits_number: None | str
    """ A credit note: the invoice it corrects """
    reason: None | str
    credit_notes: list[InvoiceCreditNotesItem]

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        kind: str = self.kind

        status = self.status

        tenant_id = self.tenant_id

        month = self.month

        timezone = self.timezone

        period_start = self.period_start

        period_end = self.period_end

        currency = self.currency

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        total = self.total

        issued_at = self.issued_at

        credits_number: None | str
        credits_number = self.credits_number

        reason: None | str
        reason = self.reason

        credit_notes = []
        for credit_notes_item_data in self.credit_notes:
            credit_notes_item = credit_notes_item_data.to_dict()
            credit_notes.append(credit_notes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "number": number,
                "kind": kind,
                "status": status,
                "tenant_id": tenant_id,
                "month": month,
                "timezone": timezone,
                "period_start": period_start,
                "period_end": period_end,
                "currency": currency,
                "lines": lines,
                "total": total,
                "issued_at": issued_at,
                "credits_number": credits_number,
                "reason": reason,
                "credit_notes": credit_notes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.invoice_credit_notes_item import InvoiceCreditNotesItem
        from ..models.invoice_lines_item import InvoiceLinesItem

        d = dict(src_dict)
        number = d.pop("number")

        kind = check_invoice_kind(d.pop("kind"))

        status = cast(Literal["finalized"], d.pop("status"))
        if status != "finalized":
            raise ValueError(f"status must match const 'finalized', got '{status}'")

        tenant_id = d.pop("tenant_id")

        month = d.pop("month")

        timezone = d.pop("timezone")

        period_start = d.pop("period_start")

        period_end = d.pop("period_end")

        currency = d.pop("currency")

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = InvoiceLinesItem.from_dict(lines_item_data)

            lines.append(lines_item)

        total = d.pop("total")

        issued_at = d.pop("issued_at")

        def _parse_credits_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        credits_number = _parse_credits_number(d.pop("credits_number"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        credit_notes = []
        _credit_notes = d.pop("credit_notes")
        for credit_notes_item_data in _credit_notes:
            credit_notes_item = InvoiceCreditNotesItem.from_dict(credit_notes_item_data)

            credit_notes.append(credit_notes_item)

        invoice = cls(
            number=number,
            kind=kind,
            status=status,
            tenant_id=tenant_id,
            month=month,
            timezone=timezone,
            period_start=period_start,
            period_end=period_end,
            currency=currency,
            lines=lines,
            total=total,
            issued_at=issued_at,
            credits_number=credits_number,
            reason=reason,
            credit_notes=credit_notes,
        )

        return invoice

from typing import Literal

InvoiceKind = Literal["credit_note", "invoice"]

INVOICE_KIND_VALUES: set[InvoiceKind] = {
    "credit_note",
    "invoice",
}


def check_invoice_kind(value: str) -> InvoiceKind:
    if value in INVOICE_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INVOICE_KIND_VALUES!r}")

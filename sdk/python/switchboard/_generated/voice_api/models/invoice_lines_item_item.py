from typing import Literal

InvoiceLinesItemItem = Literal["call_minutes", "correction", "credits"]

INVOICE_LINES_ITEM_ITEM_VALUES: set[InvoiceLinesItemItem] = {
    "call_minutes",
    "correction",
    "credits",
}


def check_invoice_lines_item_item(value: str) -> InvoiceLinesItemItem:
    if value in INVOICE_LINES_ITEM_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INVOICE_LINES_ITEM_ITEM_VALUES!r}")

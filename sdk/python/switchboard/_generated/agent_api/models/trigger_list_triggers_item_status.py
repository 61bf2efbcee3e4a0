from typing import Literal

TriggerListTriggersItemStatus = Literal[
    "cancelled", "expired", "failed", "queued", "running", "succeeded", "waiting", "waiting_for_reply"
]

TRIGGER_LIST_TRIGGERS_ITEM_STATUS_VALUES: set[TriggerListTriggersItemStatus] = {
    "cancelled",
    "expired",
    "failed",
    "queued",
    "running",
    "succeeded",
    "waiting",
    "waiting_for_reply",
}


def check_trigger_list_triggers_item_status(value: str) -> TriggerListTriggersItemStatus:
    if value in TRIGGER_LIST_TRIGGERS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRIGGER_LIST_TRIGGERS_ITEM_STATUS_VALUES!r}")

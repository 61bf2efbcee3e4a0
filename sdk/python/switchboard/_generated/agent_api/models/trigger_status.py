from typing import Literal

TriggerStatus = Literal[
    "cancelled", "expired", "failed", "queued", "running", "succeeded", "waiting", "waiting_for_reply"
]

TRIGGER_STATUS_VALUES: set[TriggerStatus] = {
    "cancelled",
    "expired",
    "failed",
    "queued",
    "running",
    "succeeded",
    "waiting",
    "waiting_for_reply",
}


def check_trigger_status(value: str) -> TriggerStatus:
    if value in TRIGGER_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRIGGER_STATUS_VALUES!r}")

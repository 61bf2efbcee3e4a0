from typing import Literal

TriggerAcceptedStatus = Literal[
    "cancelled", "expired", "failed", "queued", "running", "succeeded", "waiting", "waiting_for_reply"
]

TRIGGER_ACCEPTED_STATUS_VALUES: set[TriggerAcceptedStatus] = {
    "cancelled",
    "expired",
    "failed",
    "queued",
    "running",
    "succeeded",
    "waiting",
    "waiting_for_reply",
}


def check_trigger_accepted_status(value: str) -> TriggerAcceptedStatus:
    if value in TRIGGER_ACCEPTED_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRIGGER_ACCEPTED_STATUS_VALUES!r}")

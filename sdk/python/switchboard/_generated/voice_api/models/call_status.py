from typing import Literal

CallStatus = Literal["busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"]

CALL_STATUS_VALUES: set[CallStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_call_status(value: str) -> CallStatus:
    if value in CALL_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALL_STATUS_VALUES!r}")

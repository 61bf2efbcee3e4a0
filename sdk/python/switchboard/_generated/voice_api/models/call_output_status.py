from typing import Literal

CallOutputStatus = Literal["busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"]

CALL_OUTPUT_STATUS_VALUES: set[CallOutputStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_call_output_status(value: str) -> CallOutputStatus:
    if value in CALL_OUTPUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALL_OUTPUT_STATUS_VALUES!r}")

from typing import Literal

CallResultStatus = Literal["busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"]

CALL_RESULT_STATUS_VALUES: set[CallResultStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_call_result_status(value: str) -> CallResultStatus:
    if value in CALL_RESULT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALL_RESULT_STATUS_VALUES!r}")

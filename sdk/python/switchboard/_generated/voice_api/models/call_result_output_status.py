from typing import Literal

CallResultOutputStatus = Literal[
    "busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"
]

CALL_RESULT_OUTPUT_STATUS_VALUES: set[CallResultOutputStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_call_result_output_status(value: str) -> CallResultOutputStatus:
    if value in CALL_RESULT_OUTPUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALL_RESULT_OUTPUT_STATUS_VALUES!r}")

from typing import Literal

ListCallsStatus = Literal["busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"]

LIST_CALLS_STATUS_VALUES: set[ListCallsStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_list_calls_status(value: str) -> ListCallsStatus:
    if value in LIST_CALLS_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_CALLS_STATUS_VALUES!r}")

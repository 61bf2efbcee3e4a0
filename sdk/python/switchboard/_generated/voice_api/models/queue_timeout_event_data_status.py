from typing import Literal

QueueTimeoutEventDataStatus = Literal[
    "busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"
]

QUEUE_TIMEOUT_EVENT_DATA_STATUS_VALUES: set[QueueTimeoutEventDataStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_queue_timeout_event_data_status(value: str) -> QueueTimeoutEventDataStatus:
    if value in QUEUE_TIMEOUT_EVENT_DATA_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_TIMEOUT_EVENT_DATA_STATUS_VALUES!r}")

from typing import Literal

QueueExitedEventDataStatus = Literal[
    "busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"
]

QUEUE_EXITED_EVENT_DATA_STATUS_VALUES: set[QueueExitedEventDataStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_queue_exited_event_data_status(value: str) -> QueueExitedEventDataStatus:
    if value in QUEUE_EXITED_EVENT_DATA_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_EXITED_EVENT_DATA_STATUS_VALUES!r}")

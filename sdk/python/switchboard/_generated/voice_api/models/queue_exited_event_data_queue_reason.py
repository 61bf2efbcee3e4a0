from typing import Literal

QueueExitedEventDataQueueReason = Literal["answered", "hangup", "max_wait", "no_agents"]

QUEUE_EXITED_EVENT_DATA_QUEUE_REASON_VALUES: set[QueueExitedEventDataQueueReason] = {
    "answered",
    "hangup",
    "max_wait",
    "no_agents",
}


def check_queue_exited_event_data_queue_reason(value: str) -> QueueExitedEventDataQueueReason:
    if value in QUEUE_EXITED_EVENT_DATA_QUEUE_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_EXITED_EVENT_DATA_QUEUE_REASON_VALUES!r}")

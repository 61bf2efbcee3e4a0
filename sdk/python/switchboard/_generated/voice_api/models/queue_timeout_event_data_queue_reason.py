from typing import Literal

QueueTimeoutEventDataQueueReason = Literal["answered", "hangup", "max_wait", "no_agents"]

QUEUE_TIMEOUT_EVENT_DATA_QUEUE_REASON_VALUES: set[QueueTimeoutEventDataQueueReason] = {
    "answered",
    "hangup",
    "max_wait",
    "no_agents",
}


def check_queue_timeout_event_data_queue_reason(value: str) -> QueueTimeoutEventDataQueueReason:
    if value in QUEUE_TIMEOUT_EVENT_DATA_QUEUE_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_TIMEOUT_EVENT_DATA_QUEUE_REASON_VALUES!r}")

from typing import Literal

QueueTimeoutEventDataDirection = Literal["inbound", "outbound"]

QUEUE_TIMEOUT_EVENT_DATA_DIRECTION_VALUES: set[QueueTimeoutEventDataDirection] = {
    "inbound",
    "outbound",
}


def check_queue_timeout_event_data_direction(value: str) -> QueueTimeoutEventDataDirection:
    if value in QUEUE_TIMEOUT_EVENT_DATA_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_TIMEOUT_EVENT_DATA_DIRECTION_VALUES!r}")

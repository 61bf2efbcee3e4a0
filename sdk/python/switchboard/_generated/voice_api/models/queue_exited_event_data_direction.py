from typing import Literal

QueueExitedEventDataDirection = Literal["inbound", "outbound"]

QUEUE_EXITED_EVENT_DATA_DIRECTION_VALUES: set[QueueExitedEventDataDirection] = {
    "inbound",
    "outbound",
}


def check_queue_exited_event_data_direction(value: str) -> QueueExitedEventDataDirection:
    if value in QUEUE_EXITED_EVENT_DATA_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_EXITED_EVENT_DATA_DIRECTION_VALUES!r}")

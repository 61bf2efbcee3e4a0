from typing import Literal

AiTransferEventDataDirection = Literal["inbound", "outbound"]

AI_TRANSFER_EVENT_DATA_DIRECTION_VALUES: set[AiTransferEventDataDirection] = {
    "inbound",
    "outbound",
}


def check_ai_transfer_event_data_direction(value: str) -> AiTransferEventDataDirection:
    if value in AI_TRANSFER_EVENT_DATA_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AI_TRANSFER_EVENT_DATA_DIRECTION_VALUES!r}")

from typing import Literal

AiMessageEventDataDirection = Literal["inbound", "outbound"]

AI_MESSAGE_EVENT_DATA_DIRECTION_VALUES: set[AiMessageEventDataDirection] = {
    "inbound",
    "outbound",
}


def check_ai_message_event_data_direction(value: str) -> AiMessageEventDataDirection:
    if value in AI_MESSAGE_EVENT_DATA_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AI_MESSAGE_EVENT_DATA_DIRECTION_VALUES!r}")

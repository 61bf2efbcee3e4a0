from typing import Literal

AiMessageEventDataStatus = Literal[
    "busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"
]

AI_MESSAGE_EVENT_DATA_STATUS_VALUES: set[AiMessageEventDataStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_ai_message_event_data_status(value: str) -> AiMessageEventDataStatus:
    if value in AI_MESSAGE_EVENT_DATA_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AI_MESSAGE_EVENT_DATA_STATUS_VALUES!r}")

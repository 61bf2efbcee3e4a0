from typing import Literal

AiTransferEventDataStatus = Literal[
    "busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"
]

AI_TRANSFER_EVENT_DATA_STATUS_VALUES: set[AiTransferEventDataStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_ai_transfer_event_data_status(value: str) -> AiTransferEventDataStatus:
    if value in AI_TRANSFER_EVENT_DATA_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AI_TRANSFER_EVENT_DATA_STATUS_VALUES!r}")

from typing import Literal

AiSummaryEventDataStatus = Literal[
    "busy", "canceled", "completed", "failed", "in-progress", "no-answer", "queued", "ringing"
]

AI_SUMMARY_EVENT_DATA_STATUS_VALUES: set[AiSummaryEventDataStatus] = {
    "busy",
    "canceled",
    "completed",
    "failed",
    "in-progress",
    "no-answer",
    "queued",
    "ringing",
}


def check_ai_summary_event_data_status(value: str) -> AiSummaryEventDataStatus:
    if value in AI_SUMMARY_EVENT_DATA_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AI_SUMMARY_EVENT_DATA_STATUS_VALUES!r}")

from typing import Literal

AiSummaryEventDataDirection = Literal["inbound", "outbound"]

AI_SUMMARY_EVENT_DATA_DIRECTION_VALUES: set[AiSummaryEventDataDirection] = {
    "inbound",
    "outbound",
}


def check_ai_summary_event_data_direction(value: str) -> AiSummaryEventDataDirection:
    if value in AI_SUMMARY_EVENT_DATA_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AI_SUMMARY_EVENT_DATA_DIRECTION_VALUES!r}")

from typing import Literal

AiSummaryEventDataTranscriptItemSpeaker = Literal["agent", "caller"]

AI_SUMMARY_EVENT_DATA_TRANSCRIPT_ITEM_SPEAKER_VALUES: set[AiSummaryEventDataTranscriptItemSpeaker] = {
    "agent",
    "caller",
}


def check_ai_summary_event_data_transcript_item_speaker(value: str) -> AiSummaryEventDataTranscriptItemSpeaker:
    if value in AI_SUMMARY_EVENT_DATA_TRANSCRIPT_ITEM_SPEAKER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {AI_SUMMARY_EVENT_DATA_TRANSCRIPT_ITEM_SPEAKER_VALUES!r}"
    )

from typing import Literal

CallResultTranscriptItemSpeaker = Literal["agent", "caller"]

CALL_RESULT_TRANSCRIPT_ITEM_SPEAKER_VALUES: set[CallResultTranscriptItemSpeaker] = {
    "agent",
    "caller",
}


def check_call_result_transcript_item_speaker(value: str) -> CallResultTranscriptItemSpeaker:
    if value in CALL_RESULT_TRANSCRIPT_ITEM_SPEAKER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALL_RESULT_TRANSCRIPT_ITEM_SPEAKER_VALUES!r}")

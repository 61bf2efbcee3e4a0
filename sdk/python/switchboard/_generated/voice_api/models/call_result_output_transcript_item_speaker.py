from typing import Literal

CallResultOutputTranscriptItemSpeaker = Literal["agent", "caller"]

CALL_RESULT_OUTPUT_TRANSCRIPT_ITEM_SPEAKER_VALUES: set[CallResultOutputTranscriptItemSpeaker] = {
    "agent",
    "caller",
}


def check_call_result_output_transcript_item_speaker(value: str) -> CallResultOutputTranscriptItemSpeaker:
    if value in CALL_RESULT_OUTPUT_TRANSCRIPT_ITEM_SPEAKER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CALL_RESULT_OUTPUT_TRANSCRIPT_ITEM_SPEAKER_VALUES!r}"
    )

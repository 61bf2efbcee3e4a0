from typing import Literal

MessageOutputKind = Literal["ai_message", "voicemail"]

MESSAGE_OUTPUT_KIND_VALUES: set[MessageOutputKind] = {
    "ai_message",
    "voicemail",
}


def check_message_output_kind(value: str) -> MessageOutputKind:
    if value in MESSAGE_OUTPUT_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_OUTPUT_KIND_VALUES!r}")

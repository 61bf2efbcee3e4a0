from typing import Literal

MessageKind = Literal["ai_message", "voicemail"]

MESSAGE_KIND_VALUES: set[MessageKind] = {
    "ai_message",
    "voicemail",
}


def check_message_kind(value: str) -> MessageKind:
    if value in MESSAGE_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_KIND_VALUES!r}")

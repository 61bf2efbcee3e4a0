from typing import Literal

ConversationStatus = Literal["active", "ended"]

CONVERSATION_STATUS_VALUES: set[ConversationStatus] = {
    "active",
    "ended",
}


def check_conversation_status(value: str) -> ConversationStatus:
    if value in CONVERSATION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONVERSATION_STATUS_VALUES!r}")

from typing import Literal

ListMessagesType = Literal["ai_message", "voicemail"]

LIST_MESSAGES_TYPE_VALUES: set[ListMessagesType] = {
    "ai_message",
    "voicemail",
}


def check_list_messages_type(value: str) -> ListMessagesType:
    if value in LIST_MESSAGES_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_MESSAGES_TYPE_VALUES!r}")

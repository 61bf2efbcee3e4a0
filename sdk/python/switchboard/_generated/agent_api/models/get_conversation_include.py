from typing import Literal

GetConversationInclude = Literal["all"]

GET_CONVERSATION_INCLUDE_VALUES: set[GetConversationInclude] = {
    "all",
}


def check_get_conversation_include(value: str) -> GetConversationInclude:
    if value in GET_CONVERSATION_INCLUDE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_CONVERSATION_INCLUDE_VALUES!r}")

from typing import Literal

CreateConversationRequestMemoryScope = Literal["company"]

CREATE_CONVERSATION_REQUEST_MEMORY_SCOPE_VALUES: set[CreateConversationRequestMemoryScope] = {
    "company",
}


def check_create_conversation_request_memory_scope(value: str) -> CreateConversationRequestMemoryScope:
    if value in CREATE_CONVERSATION_REQUEST_MEMORY_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_CONVERSATION_REQUEST_MEMORY_SCOPE_VALUES!r}")

from typing import Literal

SendMessageRequestMemoryScope = Literal["company"]

SEND_MESSAGE_REQUEST_MEMORY_SCOPE_VALUES: set[SendMessageRequestMemoryScope] = {
    "company",
}


def check_send_message_request_memory_scope(value: str) -> SendMessageRequestMemoryScope:
    if value in SEND_MESSAGE_REQUEST_MEMORY_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SEND_MESSAGE_REQUEST_MEMORY_SCOPE_VALUES!r}")

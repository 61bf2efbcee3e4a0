from typing import Literal

MessageEntryRole = Literal["admin", "assistant", "system", "tool", "user"]

MESSAGE_ENTRY_ROLE_VALUES: set[MessageEntryRole] = {
    "admin",
    "assistant",
    "system",
    "tool",
    "user",
}


def check_message_entry_role(value: str) -> MessageEntryRole:
    if value in MESSAGE_ENTRY_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_ENTRY_ROLE_VALUES!r}")

from typing import Literal

MessageStatus = Literal["archived", "new", "read"]

MESSAGE_STATUS_VALUES: set[MessageStatus] = {
    "archived",
    "new",
    "read",
}


def check_message_status(value: str) -> MessageStatus:
    if value in MESSAGE_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_STATUS_VALUES!r}")

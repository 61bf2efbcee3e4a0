from typing import Literal

MessageOutputStatus = Literal["archived", "new", "read"]

MESSAGE_OUTPUT_STATUS_VALUES: set[MessageOutputStatus] = {
    "archived",
    "new",
    "read",
}


def check_message_output_status(value: str) -> MessageOutputStatus:
    if value in MESSAGE_OUTPUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_OUTPUT_STATUS_VALUES!r}")

from typing import Literal

MessagePatchStatus = Literal["archived", "new", "read"]

MESSAGE_PATCH_STATUS_VALUES: set[MessagePatchStatus] = {
    "archived",
    "new",
    "read",
}


def check_message_patch_status(value: str) -> MessagePatchStatus:
    if value in MESSAGE_PATCH_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_PATCH_STATUS_VALUES!r}")

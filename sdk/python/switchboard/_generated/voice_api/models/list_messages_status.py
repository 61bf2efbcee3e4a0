from typing import Literal

ListMessagesStatus = Literal["archived", "new", "read"]

LIST_MESSAGES_STATUS_VALUES: set[ListMessagesStatus] = {
    "archived",
    "new",
    "read",
}


def check_list_messages_status(value: str) -> ListMessagesStatus:
    if value in LIST_MESSAGES_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_MESSAGES_STATUS_VALUES!r}")

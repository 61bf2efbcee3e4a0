from typing import Literal

CallOutputDirection = Literal["inbound", "outbound"]

CALL_OUTPUT_DIRECTION_VALUES: set[CallOutputDirection] = {
    "inbound",
    "outbound",
}


def check_call_output_direction(value: str) -> CallOutputDirection:
    if value in CALL_OUTPUT_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALL_OUTPUT_DIRECTION_VALUES!r}")

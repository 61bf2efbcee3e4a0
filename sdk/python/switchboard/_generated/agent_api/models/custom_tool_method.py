from typing import Literal

CustomToolMethod = Literal["DELETE", "GET", "POST", "PUT"]

CUSTOM_TOOL_METHOD_VALUES: set[CustomToolMethod] = {
    "DELETE",
    "GET",
    "POST",
    "PUT",
}


def check_custom_tool_method(value: str) -> CustomToolMethod:
    if value in CUSTOM_TOOL_METHOD_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CUSTOM_TOOL_METHOD_VALUES!r}")

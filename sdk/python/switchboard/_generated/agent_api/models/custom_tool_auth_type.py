from typing import Literal

CustomToolAuthType = Literal["apikey", "basic", "bearer", "none"]

CUSTOM_TOOL_AUTH_TYPE_VALUES: set[CustomToolAuthType] = {
    "apikey",
    "basic",
    "bearer",
    "none",
}


def check_custom_tool_auth_type(value: str) -> CustomToolAuthType:
    if value in CUSTOM_TOOL_AUTH_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CUSTOM_TOOL_AUTH_TYPE_VALUES!r}")

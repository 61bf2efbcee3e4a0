from typing import Literal

UsageRowChannel = Literal["api", "mcp"]

USAGE_ROW_CHANNEL_VALUES: set[UsageRowChannel] = {
    "api",
    "mcp",
}


def check_usage_row_channel(value: str) -> UsageRowChannel:
    if value in USAGE_ROW_CHANNEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {USAGE_ROW_CHANNEL_VALUES!r}")

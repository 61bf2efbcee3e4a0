from typing import Literal

CustomToolParametersItemType = Literal["array", "boolean", "integer", "number", "object", "string"]

CUSTOM_TOOL_PARAMETERS_ITEM_TYPE_VALUES: set[CustomToolParametersItemType] = {
    "array",
    "boolean",
    "integer",
    "number",
    "object",
    "string",
}


def check_custom_tool_parameters_item_type(value: str) -> CustomToolParametersItemType:
    if value in CUSTOM_TOOL_PARAMETERS_ITEM_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CUSTOM_TOOL_PARAMETERS_ITEM_TYPE_VALUES!r}")

from typing import Literal

CarrierSettingsSource = Literal["account", "deployment"]

CARRIER_SETTINGS_SOURCE_VALUES: set[CarrierSettingsSource] = {
    "account",
    "deployment",
}


def check_carrier_settings_source(value: str) -> CarrierSettingsSource:
    if value in CARRIER_SETTINGS_SOURCE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CARRIER_SETTINGS_SOURCE_VALUES!r}")

from typing import Literal

CarrierSettingsCarrier = Literal["sim", "telnyx", "twilio"]

CARRIER_SETTINGS_CARRIER_VALUES: set[CarrierSettingsCarrier] = {
    "sim",
    "telnyx",
    "twilio",
}


def check_carrier_settings_carrier(value: str) -> CarrierSettingsCarrier:
    if value in CARRIER_SETTINGS_CARRIER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CARRIER_SETTINGS_CARRIER_VALUES!r}")

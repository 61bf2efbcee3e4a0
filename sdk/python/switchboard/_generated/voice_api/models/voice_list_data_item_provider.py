from typing import Literal

VoiceListDataItemProvider = Literal["Amazon", "ElevenLabs", "Google"]

VOICE_LIST_DATA_ITEM_PROVIDER_VALUES: set[VoiceListDataItemProvider] = {
    "Amazon",
    "ElevenLabs",
    "Google",
}


def check_voice_list_data_item_provider(value: str) -> VoiceListDataItemProvider:
    if value in VOICE_LIST_DATA_ITEM_PROVIDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VOICE_LIST_DATA_ITEM_PROVIDER_VALUES!r}")

from typing import Literal

VoiceListDataItemGender = Literal["female", "male", "neutral"]

VOICE_LIST_DATA_ITEM_GENDER_VALUES: set[VoiceListDataItemGender] = {
    "female",
    "male",
    "neutral",
}


def check_voice_list_data_item_gender(value: str) -> VoiceListDataItemGender:
    if value in VOICE_LIST_DATA_ITEM_GENDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VOICE_LIST_DATA_ITEM_GENDER_VALUES!r}")

from typing import Literal

UpdateCampaignRequestScheduleType0DaysItem = Literal["fri", "mon", "sat", "sun", "thu", "tue", "wed"]

UPDATE_CAMPAIGN_REQUEST_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES: set[UpdateCampaignRequestScheduleType0DaysItem] = {
    "fri",
    "mon",
    "sat",
    "sun",
    "thu",
    "tue",
    "wed",
}


def check_update_campaign_request_schedule_type_0_days_item(value: str) -> UpdateCampaignRequestScheduleType0DaysItem:
    if value in UPDATE_CAMPAIGN_REQUEST_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_CAMPAIGN_REQUEST_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES!r}"
    )

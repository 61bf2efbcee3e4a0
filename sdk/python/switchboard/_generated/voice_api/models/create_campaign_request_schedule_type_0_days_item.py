from typing import Literal

CreateCampaignRequestScheduleType0DaysItem = Literal["fri", "mon", "sat", "sun", "thu", "tue", "wed"]

CREATE_CAMPAIGN_REQUEST_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES: set[CreateCampaignRequestScheduleType0DaysItem] = {
    "fri",
    "mon",
    "sat",
    "sun",
    "thu",
    "tue",
    "wed",
}


def check_create_campaign_request_schedule_type_0_days_item(value: str) -> CreateCampaignRequestScheduleType0DaysItem:
    if value in CREATE_CAMPAIGN_REQUEST_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_CAMPAIGN_REQUEST_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES!r}"
    )

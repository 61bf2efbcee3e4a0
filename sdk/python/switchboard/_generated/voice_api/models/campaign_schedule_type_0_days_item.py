from typing import Literal

CampaignScheduleType0DaysItem = Literal["fri", "mon", "sat", "sun", "thu", "tue", "wed"]

CAMPAIGN_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES: set[CampaignScheduleType0DaysItem] = {
    "fri",
    "mon",
    "sat",
    "sun",
    "thu",
    "tue",
    "wed",
}


def check_campaign_schedule_type_0_days_item(value: str) -> CampaignScheduleType0DaysItem:
    if value in CAMPAIGN_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CAMPAIGN_SCHEDULE_TYPE_0_DAYS_ITEM_VALUES!r}")

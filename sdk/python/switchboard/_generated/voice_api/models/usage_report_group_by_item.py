from typing import Literal

UsageReportGroupByItem = Literal["app", "channel", "day", "key"]

USAGE_REPORT_GROUP_BY_ITEM_VALUES: set[UsageReportGroupByItem] = {
    "app",
    "channel",
    "day",
    "key",
}


def check_usage_report_group_by_item(value: str) -> UsageReportGroupByItem:
    if value in USAGE_REPORT_GROUP_BY_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {USAGE_REPORT_GROUP_BY_ITEM_VALUES!r}")

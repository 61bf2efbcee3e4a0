from typing import Literal

CampaignRunStatus = Literal["done", "failed", "running", "stopped"]

CAMPAIGN_RUN_STATUS_VALUES: set[CampaignRunStatus] = {
    "done",
    "failed",
    "running",
    "stopped",
}


def check_campaign_run_status(value: str) -> CampaignRunStatus:
    if value in CAMPAIGN_RUN_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CAMPAIGN_RUN_STATUS_VALUES!r}")

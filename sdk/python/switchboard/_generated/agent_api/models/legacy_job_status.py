from typing import Literal

LegacyJobStatus = Literal[
    "cancelled", "expired", "failed", "queued", "running", "succeeded", "waiting", "waiting_for_reply"
]

LEGACY_JOB_STATUS_VALUES: set[LegacyJobStatus] = {
    "cancelled",
    "expired",
    "failed",
    "queued",
    "running",
    "succeeded",
    "waiting",
    "waiting_for_reply",
}


def check_legacy_job_status(value: str) -> LegacyJobStatus:
    if value in LEGACY_JOB_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LEGACY_JOB_STATUS_VALUES!r}")

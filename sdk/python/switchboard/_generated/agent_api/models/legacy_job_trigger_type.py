from typing import Literal

LegacyJobTriggerType = Literal["agent", "api", "event"]

LEGACY_JOB_TRIGGER_TYPE_VALUES: set[LegacyJobTriggerType] = {
    "agent",
    "api",
    "event",
}


def check_legacy_job_trigger_type(value: str) -> LegacyJobTriggerType:
    if value in LEGACY_JOB_TRIGGER_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LEGACY_JOB_TRIGGER_TYPE_VALUES!r}")

from typing import Literal

ReplyTriggerRequestDecision = Literal["approved", "rejected"]

REPLY_TRIGGER_REQUEST_DECISION_VALUES: set[ReplyTriggerRequestDecision] = {
    "approved",
    "rejected",
}


def check_reply_trigger_request_decision(value: str) -> ReplyTriggerRequestDecision:
    if value in REPLY_TRIGGER_REQUEST_DECISION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPLY_TRIGGER_REQUEST_DECISION_VALUES!r}")

from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.resume_error import ResumeError
    from ..models.usage import Usage


T = TypeVar("T", bound="StreamDone")


@_attrs_define
class StreamDone:
    type_: Literal["done"]
    conversation_id: UUID
    contact_id: int | None
    usage: Usage
    resumed_trigger_id: UUID | Unset = UNSET
    resumed_status: str | Unset = UNSET
    resume_error: ResumeError | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        conversation_id = str(self.conversation_id)

        contact_id: int | None
        contact_id = self.contact_id

        usage = self.usage.to_dict()

        resumed_trigger_id: str | Unset = UNSET
        if not isinstance(self.resumed_trigger_id, Unset):
            resumed_trigger_id = str(self.resumed_trigger_id)

        resumed_status = self.resumed_status

        resume_error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.resume_error, Unset):
            resume_error = self.resume_error.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "conversationId": conversation_id,
                "contactId": contact_id,
                "usage": usage,
            }
        )
        if resumed_trigger_id is not UNSET:
            field_dict["resumedTriggerId"] = resumed_trigger_id
        if resumed_status is not UNSET:
            field_dict["resumedStatus"] = resumed_status
        if resume_error is not UNSET:
            field_dict["resumeError"] = resume_error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.resume_error import ResumeError
        from ..models.usage import Usage

        d = dict(src_dict)
        type_ = cast(Literal["done"], d.pop("type"))
        if type_ != "done":
            raise ValueError(f"type must match const 'done', got '{type_}'")

        conversation_id = UUID(d.pop("conversationId"))

        def _parse_contact_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        contact_id = _parse_contact_id(d.pop("contactId"))

        usage = Usage.from_dict(d.pop("usage"))

        _resumed_trigger_id = d.pop("resumedTriggerId", UNSET)
        resumed_trigger_id: UUID | Unset
        if isinstance(_resumed_trigger_id, Unset):
            resumed_trigger_id = UNSET
        else:
            resumed_trigger_id = UUID(_resumed_trigger_id)

        resumed_status = d.pop("resumedStatus", UNSET)

        _resume_error = d.pop("resumeError", UNSET)
        resume_error: ResumeError | Unset
        if isinstance(_resume_error, Unset):
            resume_error = UNSET
        else:
            resume_error = ResumeError.from_dict(_resume_error)

        stream_done = cls(
            type_=type_,
            conversation_id=conversation_id,
            contact_id=contact_id,
            usage=usage,
            resumed_trigger_id=resumed_trigger_id,
            resumed_status=resumed_status,
            resume_error=resume_error,
        )

        return stream_done

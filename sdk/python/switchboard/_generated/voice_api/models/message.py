from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.message_kind import MessageKind, check_message_kind
from ..models.message_status import MessageStatus, check_message_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message_details import MessageDetails


T = TypeVar("T", bound="Message")


@_attrs_define
class Message:
    id: str
    kind: MessageKind
    caller: str
    summary: str
    details: MessageDetails
    agent_id: None | str
    status: MessageStatus
    created_at: str
    duration_sec: int | None | Unset = UNSET
    """ Voicemails: the recording's length """
    mailbox_id: None | str | Unset = UNSET
    mailbox_name: None | str | Unset = UNSET
    recording_url: str | Unset = UNSET
    """ Voicemails: absolute, on SWITCHBOARD_PUBLIC_URL; a WAV fetched with an API key """

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind: str = self.kind

        caller = self.caller

        summary = self.summary

        details = self.details.to_dict()

        agent_id: None | str
        agent_id = self.agent_id

        status: str = self.status

        created_at = self.created_at

        duration_sec: int | None | Unset
        if isinstance(self.duration_sec, Unset):
            duration_sec = UNSET
        else:
            duration_sec = self.duration_sec

        mailbox_id: None | str | Unset
        if isinstance(self.mailbox_id, Unset):
            mailbox_id = UNSET
        else:
            mailbox_id = self.mailbox_id

        mailbox_name: None | str | Unset
        if isinstance(self.mailbox_name, Unset):
            mailbox_name = UNSET
        else:
            mailbox_name = self.mailbox_name

        recording_url = self.recording_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "caller": caller,
                "summary": summary,
                "details": details,
                "agent_id": agent_id,
                "status": status,
                "created_at": created_at,
            }
        )
        if duration_sec is not UNSET:
            field_dict["duration_sec"] = duration_sec
        if mailbox_id is not UNSET:
            field_dict["mailbox_id"] = mailbox_id
        if mailbox_name is not UNSET:
            field_dict["mailbox_name"] = mailbox_name
        if recording_url is not UNSET:
            field_dict["recording_url"] = recording_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_details import MessageDetails

        d = dict(src_dict)
        id = d.pop("id")

        kind = check_message_kind(d.pop("kind"))

        caller = d.pop("caller")

        summary = d.pop("summary")

        details = MessageDetails.from_dict(d.pop("details"))

        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))

        status = check_message_status(d.pop("status"))

        created_at = d.pop("created_at")

        def _parse_duration_sec(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        duration_sec = _parse_duration_sec(d.pop("duration_sec", UNSET))

        def _parse_mailbox_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mailbox_id = _parse_mailbox_id(d.pop("mailbox_id", UNSET))

        def _parse_mailbox_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mailbox_name = _parse_mailbox_name(d.pop("mailbox_name", UNSET))

        recording_url = d.pop("recording_url", UNSET)

        message = cls(
            id=id,
            kind=kind,
            caller=caller,
            summary=summary,
            details=details,
            agent_id=agent_id,
            status=status,
            created_at=created_at,
            duration_sec=duration_sec,
            mailbox_id=mailbox_id,
            mailbox_name=mailbox_name,
            recording_url=recording_url,
        )

        return message

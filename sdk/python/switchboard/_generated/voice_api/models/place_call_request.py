from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.place_call_request_context import PlaceCallRequestContext
    from ..models.place_call_request_metadata import PlaceCallRequestMetadata
    from ..models.place_call_request_questions_item import PlaceCallRequestQuestionsItem


T = TypeVar("T", bound="PlaceCallRequest")


@_attrs_define
class PlaceCallRequest:
    to: str
    """ E.164 (+14155550100), or national format read in the account's country """
    from_: str | Unset = UNSET
    """ One of the account's numbers (GET /v1/numbers); default the account's default number """
    agent_id: str | Unset = UNSET
    """ agt_ id; default the account's default voice agent, else its first agent """
    task: str | Unset = UNSET
    """ The brief for the agent """
    context: PlaceCallRequestContext | Unset = UNSET
    """ Facts the agent may use (at most 8 KB) """
    questions: list[PlaceCallRequestQuestionsItem] | Unset = UNSET
    """ Answers come back in result.answers under each key """
    outcomes: list[str] | Unset = UNSET
    """ Allowed outcome names; default the agent's list """
    voice: str | Unset = UNSET
    """ A voice id from GET /v1/voices (422 invalid_voice otherwise); default the agent's voice, else the
    deployment's default """
    max_duration_sec: int | Unset = 600
    callback_url: str | Unset = UNSET
    """ https address on the public internet; receives call.result once, when final """
    metadata: PlaceCallRequestMetadata | Unset = UNSET
    """ Echoed back (at most 16 KB) """

    def to_dict(self) -> dict[str, Any]:
        to = self.to

        from_ = self.from_

        agent_id = self.agent_id

        task = self.task

        context: dict[str, Any] | Unset = UNSET
        if not isinstance(self.context, Unset):
            context = self.context.to_dict()

        questions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.questions, Unset):
            questions = []
            for questions_item_data in self.questions:
                questions_item = questions_item_data.to_dict()
                questions.append(questions_item)

        outcomes: list[str] | Unset = UNSET
        if not isinstance(self.outcomes, Unset):
            outcomes = self.outcomes

        voice = self.voice

        max_duration_sec = self.max_duration_sec

        callback_url = self.callback_url

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "to": to,
            }
        )
        if from_ is not UNSET:
            field_dict["from"] = from_
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if task is not UNSET:
            field_dict["task"] = task
        if context is not UNSET:
            field_dict["context"] = context
        if questions is not UNSET:
            field_dict["questions"] = questions
        if outcomes is not UNSET:
            field_dict["outcomes"] = outcomes
        if voice is not UNSET:
            field_dict["voice"] = voice
        if max_duration_sec is not UNSET:
            field_dict["max_duration_sec"] = max_duration_sec
        if callback_url is not UNSET:
            field_dict["callback_url"] = callback_url
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.place_call_request_context import PlaceCallRequestContext
        from ..models.place_call_request_metadata import PlaceCallRequestMetadata
        from ..models.place_call_request_questions_item import (
            PlaceCallRequestQuestionsItem,
        )

        d = dict(src_dict)
        to = d.pop("to")

        from_ = d.pop("from", UNSET)

        agent_id = d.pop("agent_id", UNSET)

        task = d.pop("task", UNSET)

        _context = d.pop("context", UNSET)
        context: PlaceCallRequestContext | Unset
        if isinstance(_context, Unset):
            context = UNSET
        else:
            context = PlaceCallRequestContext.from_dict(_context)

        _questions = d.pop("questions", UNSET)
        questions: list[PlaceCallRequestQuestionsItem] | Unset = UNSET
        if _questions is not UNSET:
            questions = []
            for questions_item_data in _questions:
                questions_item = PlaceCallRequestQuestionsItem.from_dict(questions_item_data)

                questions.append(questions_item)

        outcomes = cast(list[str], d.pop("outcomes", UNSET))

        voice = d.pop("voice", UNSET)

        max_duration_sec = d.pop("max_duration_sec", UNSET)

        callback_url = d.pop("callback_url", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: PlaceCallRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = PlaceCallRequestMetadata.from_dict(_metadata)

        place_call_request = cls(
            to=to,
            from_=from_,
            agent_id=agent_id,
            task=task,
            context=context,
            questions=questions,
            outcomes=outcomes,
            voice=voice,
            max_duration_sec=max_duration_sec,
            callback_url=callback_url,
            metadata=metadata,
        )

        return place_call_request

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.trigger_list_triggers_item import TriggerListTriggersItem


T = TypeVar("T", bound="TriggerList")


@_attrs_define
class TriggerList:
    conversation_id: UUID
    triggers: list[TriggerListTriggersItem]
    total: int
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        triggers = []
        for triggers_item_data in self.triggers:
            triggers_item = triggers_item_data.to_dict()
            triggers.append(triggers_item)

        total = self.total

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "triggers": triggers,
                "total": total,
                "hasMore": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.trigger_list_triggers_item import TriggerListTriggersItem

        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        triggers = []
        _triggers = d.pop("triggers")
        for triggers_item_data in _triggers:
            triggers_item = TriggerListTriggersItem.from_dict(triggers_item_data)

            triggers.append(triggers_item)

        total = d.pop("total")

        has_more = d.pop("hasMore")

        trigger_list = cls(
            conversation_id=conversation_id,
            triggers=triggers,
            total=total,
            has_more=has_more,
        )

        return trigger_list

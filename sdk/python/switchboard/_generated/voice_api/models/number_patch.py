from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_step import AiStep
    from ..models.menu_step import MenuStep
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep
    from ..models.webhook_step import WebhookStep


T = TypeVar("T", bound="NumberPatch")


@_attrs_define
class NumberPatch:
    name: str | Unset = UNSET
    """ A label for people """
    routing: AiStep | MenuStep | None | QueueStep | TransferStep | Unset | VoicemailStep | WebhookStep = UNSET
    """ How calls to the number are answered; null: not answered. At most 5 steps deep """

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.menu_step import MenuStep
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step import WebhookStep

        name = self.name

        routing: dict[str, Any] | None | Unset
        if isinstance(self.routing, Unset):
            routing = UNSET
        elif (
            isinstance(self.routing, AiStep)
            or isinstance(self.routing, MenuStep)
            or isinstance(self.routing, QueueStep)
            or isinstance(self.routing, VoicemailStep)
            or isinstance(self.routing, TransferStep)
            or isinstance(self.routing, WebhookStep)
        ):
            routing = self.routing.to_dict()
        else:
            routing = self.routing

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if routing is not UNSET:
            field_dict["routing"] = routing

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_step import AiStep
        from ..models.menu_step import MenuStep
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step import WebhookStep

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_routing(
            data: object,
        ) -> AiStep | MenuStep | None | QueueStep | TransferStep | Unset | VoicemailStep | WebhookStep:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_0 = AiStep.from_dict(data)

                return componentsschemas_routing_step_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_1 = MenuStep.from_dict(data)

                return componentsschemas_routing_step_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_2 = QueueStep.from_dict(data)

                return componentsschemas_routing_step_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_3 = VoicemailStep.from_dict(data)

                return componentsschemas_routing_step_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_4 = TransferStep.from_dict(data)

                return componentsschemas_routing_step_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_5 = WebhookStep.from_dict(data)

                return componentsschemas_routing_step_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiStep | MenuStep | None | QueueStep | TransferStep | Unset | VoicemailStep | WebhookStep, data)

        routing = _parse_routing(d.pop("routing", UNSET))

        number_patch = cls(
            name=name,
            routing=routing,
        )

        return number_patch

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ai_step import AiStep
    from ..models.menu_step_output import MenuStepOutput
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep
    from ..models.webhook_step_output import WebhookStepOutput


T = TypeVar("T", bound="PhoneNumber")


@_attrs_define
class PhoneNumber:
    number: str
    """ E.164 """
    name: str
    default: bool
    """ The from of placed calls that name none """
    routing: AiStep | MenuStepOutput | None | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput
    created_at: str
    updated_at: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step_output import WebhookStepOutput

        number = self.number

        name = self.name

        default = self.default

        routing: dict[str, Any] | None
        if (
            isinstance(self.routing, AiStep)
            or isinstance(self.routing, MenuStepOutput)
            or isinstance(self.routing, QueueStep)
            or isinstance(self.routing, VoicemailStep)
            or isinstance(self.routing, TransferStep)
            or isinstance(self.routing, WebhookStepOutput)
        ):
            routing = self.routing.to_dict()
        else:
            routing = self.routing

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "number": number,
                "name": name,
                "default": default,
                "routing": routing,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step_output import WebhookStepOutput

        d = dict(src_dict)
        number = d.pop("number")

        name = d.pop("name")

        default = d.pop("default")

        def _parse_routing(
            data: object,
        ) -> AiStep | MenuStepOutput | None | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_0 = AiStep.from_dict(data)

                return componentsschemas_routing_step_output_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_1 = MenuStepOutput.from_dict(data)

                return componentsschemas_routing_step_output_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_2 = QueueStep.from_dict(data)

                return componentsschemas_routing_step_output_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_3 = VoicemailStep.from_dict(data)

                return componentsschemas_routing_step_output_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_4 = TransferStep.from_dict(data)

                return componentsschemas_routing_step_output_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_5 = WebhookStepOutput.from_dict(data)

                return componentsschemas_routing_step_output_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AiStep | MenuStepOutput | None | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput, data
            )

        routing = _parse_routing(d.pop("routing"))

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        phone_number = cls(
            number=number,
            name=name,
            default=default,
            routing=routing,
            created_at=created_at,
            updated_at=updated_at,
        )

        return phone_number

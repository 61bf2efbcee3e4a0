from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ai_step import AiStep
    from ..models.menu_step_output import MenuStepOutput
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep
    from ..models.webhook_step_output import WebhookStepOutput


T = TypeVar("T", bound="RoutingAnswer")


@_attrs_define
class RoutingAnswer:
    step: AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep

        step: dict[str, Any]
        if (
            isinstance(self.step, AiStep)
            or isinstance(self.step, MenuStepOutput)
            or isinstance(self.step, QueueStep)
            or isinstance(self.step, VoicemailStep)
            or isinstance(self.step, TransferStep)
        ):
            step = self.step.to_dict()
        else:
            step = self.step.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "step": step,
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

        def _parse_step(
            data: object,
        ) -> AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput:
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
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_routing_step_output_type_5 = WebhookStepOutput.from_dict(data)

            return componentsschemas_routing_step_output_type_5

        step = _parse_step(d.pop("step"))

        routing_answer = cls(
            step=step,
        )

        return routing_answer

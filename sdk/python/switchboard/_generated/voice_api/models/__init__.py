"""Contains all the data models used in inputs/outputs"""

from .account_settings import AccountSettings
from .account_settings_request import AccountSettingsRequest
from .ai_message_event import AiMessageEvent
from .ai_message_event_data import AiMessageEventData
from .ai_message_event_data_ai import AiMessageEventDataAi
from .ai_message_event_data_ai_message import AiMessageEventDataAiMessage
from .ai_message_event_data_ai_message_details import AiMessageEventDataAiMessageDetails
from .ai_message_event_data_campaign import AiMessageEventDataCampaign
from .ai_message_event_data_direction import AiMessageEventDataDirection
from .ai_message_event_data_metadata import AiMessageEventDataMetadata
from .ai_message_event_data_queue_type_0 import AiMessageEventDataQueueType0
from .ai_message_event_data_status import AiMessageEventDataStatus
from .ai_step import AiStep
from .ai_summary_event import AiSummaryEvent
from .ai_summary_event_data import AiSummaryEventData
from .ai_summary_event_data_ai_type_0 import AiSummaryEventDataAiType0
from .ai_summary_event_data_campaign import AiSummaryEventDataCampaign
from .ai_summary_event_data_direction import AiSummaryEventDataDirection
from .ai_summary_event_data_metadata import AiSummaryEventDataMetadata
from .ai_summary_event_data_queue_type_0 import AiSummaryEventDataQueueType0
from .ai_summary_event_data_result import AiSummaryEventDataResult
from .ai_summary_event_data_result_answers import AiSummaryEventDataResultAnswers
from .ai_summary_event_data_status import AiSummaryEventDataStatus
from .ai_summary_event_data_transcript_item import AiSummaryEventDataTranscriptItem
from .ai_summary_event_data_transcript_item_speaker import (
    AiSummaryEventDataTranscriptItemSpeaker,
)
from .ai_transfer_event import AiTransferEvent
from .ai_transfer_event_data import AiTransferEventData
from .ai_transfer_event_data_ai import AiTransferEventDataAi
from .ai_transfer_event_data_ai_transfer import AiTransferEventDataAiTransfer
from .ai_transfer_event_data_campaign import AiTransferEventDataCampaign
from .ai_transfer_event_data_direction import AiTransferEventDataDirection
from .ai_transfer_event_data_metadata import AiTransferEventDataMetadata
from .ai_transfer_event_data_queue_type_0 import AiTransferEventDataQueueType0
from .ai_transfer_event_data_status import AiTransferEventDataStatus
from .api_key import ApiKey
from .api_key_created import ApiKeyCreated
from .api_key_list import ApiKeyList
from .call import Call
from .call_ai_type_0 import CallAiType0
from .call_answered_event import CallAnsweredEvent
from .call_campaign import CallCampaign
from .call_direction import CallDirection
from .call_ended_event import CallEndedEvent
from .call_initiated_event import CallInitiatedEvent
from .call_list import CallList
from .call_metadata import CallMetadata
from .call_queue_type_0 import CallQueueType0
from .call_result import CallResult
from .call_result_event import CallResultEvent
from .call_result_metadata import CallResultMetadata
from .call_result_result_type_0 import CallResultResultType0
from .call_result_result_type_0_answers import CallResultResultType0Answers
from .call_result_status import CallResultStatus
from .call_result_transcript_item import CallResultTranscriptItem
from .call_result_transcript_item_speaker import CallResultTranscriptItemSpeaker
from .call_routing_event import CallRoutingEvent
from .call_status import CallStatus
from .call_updated_event import CallUpdatedEvent
from .campaign import Campaign
from .campaign_calling_hours import CampaignCallingHours
from .campaign_list import CampaignList
from .campaign_questions_item import CampaignQuestionsItem
from .campaign_result_list import CampaignResultList
from .campaign_result_list_data_item import CampaignResultListDataItem
from .campaign_run import CampaignRun
from .campaign_run_contacts import CampaignRunContacts
from .campaign_run_list import CampaignRunList
from .campaign_run_outcomes import CampaignRunOutcomes
from .campaign_run_status import CampaignRunStatus
from .campaign_schedule_type_0 import CampaignScheduleType0
from .campaign_schedule_type_0_days_item import CampaignScheduleType0DaysItem
from .carrier_settings import CarrierSettings
from .carrier_settings_carrier import CarrierSettingsCarrier
from .carrier_settings_source import CarrierSettingsSource
from .connection import Connection
from .connection_list import ConnectionList
from .connection_sign_in_header_type_0 import ConnectionSignInHeaderType0
from .create_api_key_request import CreateApiKeyRequest
from .create_campaign_request import CreateCampaignRequest
from .create_campaign_request_calling_hours import CreateCampaignRequestCallingHours
from .create_campaign_request_questions_item import CreateCampaignRequestQuestionsItem
from .create_campaign_request_schedule_type_0 import CreateCampaignRequestScheduleType0
from .create_campaign_request_schedule_type_0_days_item import (
    CreateCampaignRequestScheduleType0DaysItem,
)
from .create_connection_request import CreateConnectionRequest
from .create_connection_request_sign_in_header_type_0 import (
    CreateConnectionRequestSignInHeaderType0,
)
from .create_mailbox_request import CreateMailboxRequest
from .create_queue_request import CreateQueueRequest
from .create_queue_request_members_item import CreateQueueRequestMembersItem
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .hangup_call_request import HangupCallRequest
from .invoice import Invoice
from .invoice_credit_notes_item import InvoiceCreditNotesItem
from .invoice_finalized_event import InvoiceFinalizedEvent
from .invoice_kind import InvoiceKind
from .invoice_lines_item import InvoiceLinesItem
from .invoice_lines_item_item import InvoiceLinesItemItem
from .list_calls_direction import ListCallsDirection
from .list_calls_status import ListCallsStatus
from .list_messages_status import ListMessagesStatus
from .list_messages_type import ListMessagesType
from .mailbox import Mailbox
from .mailbox_list import MailboxList
from .menu_step import MenuStep
from .menu_step_options import MenuStepOptions
from .menu_step_output import MenuStepOutput
from .menu_step_output_options import MenuStepOutputOptions
from .message import Message
from .message_created_event import MessageCreatedEvent
from .message_created_event_data import MessageCreatedEventData
from .message_created_event_data_call import MessageCreatedEventDataCall
from .message_details import MessageDetails
from .message_kind import MessageKind
from .message_list import MessageList
from .message_patch import MessagePatch
from .message_patch_status import MessagePatchStatus
from .message_status import MessageStatus
from .message_test_event import MessageTestEvent
from .message_test_event_data import MessageTestEventData
from .message_test_event_data_call import MessageTestEventDataCall
from .number_patch import NumberPatch
from .phone_number import PhoneNumber
from .phone_number_list import PhoneNumberList
from .place_call_request import PlaceCallRequest
from .place_call_request_context import PlaceCallRequestContext
from .place_call_request_metadata import PlaceCallRequestMetadata
from .place_call_request_questions_item import PlaceCallRequestQuestionsItem
from .queue import Queue
from .queue_entered_event import QueueEnteredEvent
from .queue_exited_event import QueueExitedEvent
from .queue_exited_event_data import QueueExitedEventData
from .queue_exited_event_data_ai_type_0 import QueueExitedEventDataAiType0
from .queue_exited_event_data_campaign import QueueExitedEventDataCampaign
from .queue_exited_event_data_direction import QueueExitedEventDataDirection
from .queue_exited_event_data_metadata import QueueExitedEventDataMetadata
from .queue_exited_event_data_queue import QueueExitedEventDataQueue
from .queue_exited_event_data_queue_answered_by import (
    QueueExitedEventDataQueueAnsweredBy,
)
from .queue_exited_event_data_queue_reason import QueueExitedEventDataQueueReason
from .queue_exited_event_data_status import QueueExitedEventDataStatus
from .queue_list import QueueList
from .queue_members_item import QueueMembersItem
from .queue_patch import QueuePatch
from .queue_patch_members_item import QueuePatchMembersItem
from .queue_step import QueueStep
from .queue_timeout_event import QueueTimeoutEvent
from .queue_timeout_event_data import QueueTimeoutEventData
from .queue_timeout_event_data_ai_type_0 import QueueTimeoutEventDataAiType0
from .queue_timeout_event_data_campaign import QueueTimeoutEventDataCampaign
from .queue_timeout_event_data_direction import QueueTimeoutEventDataDirection
from .queue_timeout_event_data_metadata import QueueTimeoutEventDataMetadata
from .queue_timeout_event_data_queue import QueueTimeoutEventDataQueue
from .queue_timeout_event_data_queue_answered_by import (
    QueueTimeoutEventDataQueueAnsweredBy,
)
from .queue_timeout_event_data_queue_reason import QueueTimeoutEventDataQueueReason
from .queue_timeout_event_data_status import QueueTimeoutEventDataStatus
from .routing_answer import RoutingAnswer
from .sim_call_request import SimCallRequest
from .start_run_request import StartRunRequest
from .steer_accepted import SteerAccepted
from .steer_call_request import SteerCallRequest
from .stop_run_request import StopRunRequest
from .transfer_step import TransferStep
from .update_campaign_request import UpdateCampaignRequest
from .update_campaign_request_calling_hours import UpdateCampaignRequestCallingHours
from .update_campaign_request_questions_item import UpdateCampaignRequestQuestionsItem
from .update_campaign_request_schedule_type_0 import UpdateCampaignRequestScheduleType0
from .update_campaign_request_schedule_type_0_days_item import (
    UpdateCampaignRequestScheduleType0DaysItem,
)
from .update_connection_request import UpdateConnectionRequest
from .update_connection_request_sign_in_header_type_0 import (
    UpdateConnectionRequestSignInHeaderType0,
)
from .usage_report import UsageReport
from .usage_report_group_by_item import UsageReportGroupByItem
from .usage_row import UsageRow
from .usage_row_channel import UsageRowChannel
from .voice_error import VoiceError
from .voice_error_error import VoiceErrorError
from .voice_list import VoiceList
from .voice_list_data_item import VoiceListDataItem
from .voice_list_data_item_gender import VoiceListDataItemGender
from .voice_list_data_item_provider import VoiceListDataItemProvider
from .voicemail_step import VoicemailStep
from .webhook_step import WebhookStep
from .webhook_step_output import WebhookStepOutput

__all__ = (
    "AccountSettings",
    "AccountSettingsRequest",
    "AiMessageEvent",
    "AiMessageEventData",
    "AiMessageEventDataAi",
    "AiMessageEventDataAiMessage",
    "AiMessageEventDataAiMessageDetails",
    "AiMessageEventDataCampaign",
    "AiMessageEventDataDirection",
    "AiMessageEventDataMetadata",
    "AiMessageEventDataQueueType0",
    "AiMessageEventDataStatus",
    "AiStep",
    "AiSummaryEvent",
    "AiSummaryEventData",
    "AiSummaryEventDataAiType0",
    "AiSummaryEventDataCampaign",
    "AiSummaryEventDataDirection",
    "AiSummaryEventDataMetadata",
    "AiSummaryEventDataQueueType0",
    "AiSummaryEventDataResult",
    "AiSummaryEventDataResultAnswers",
    "AiSummaryEventDataStatus",
    "AiSummaryEventDataTranscriptItem",
    "AiSummaryEventDataTranscriptItemSpeaker",
    "AiTransferEvent",
    "AiTransferEventData",
    "AiTransferEventDataAi",
    "AiTransferEventDataAiTransfer",
    "AiTransferEventDataCampaign",
    "AiTransferEventDataDirection",
    "AiTransferEventDataMetadata",
    "AiTransferEventDataQueueType0",
    "AiTransferEventDataStatus",
    "ApiKey",
    "ApiKeyCreated",
    "ApiKeyList",
    "Call",
    "CallAiType0",
    "CallAnsweredEvent",
    "CallCampaign",
    "CallDirection",
    "CallEndedEvent",
    "CallInitiatedEvent",
    "CallList",
    "CallMetadata",
    "CallQueueType0",
    "CallResult",
    "CallResultEvent",
    "CallResultMetadata",
    "CallResultResultType0",
    "CallResultResultType0Answers",
    "CallResultStatus",
    "CallResultTranscriptItem",
    "CallResultTranscriptItemSpeaker",
    "CallRoutingEvent",
    "CallStatus",
    "CallUpdatedEvent",
    "Campaign",
    "CampaignCallingHours",
    "CampaignList",
    "CampaignQuestionsItem",
    "CampaignResultList",
    "CampaignResultListDataItem",
    "CampaignRun",
    "CampaignRunContacts",
    "CampaignRunList",
    "CampaignRunOutcomes",
    "CampaignRunStatus",
    "CampaignScheduleType0",
    "CampaignScheduleType0DaysItem",
    "CarrierSettings",
    "CarrierSettingsCarrier",
    "CarrierSettingsSource",
    "Connection",
    "ConnectionList",
    "ConnectionSignInHeaderType0",
    "CreateApiKeyRequest",
    "CreateCampaignRequest",
    "CreateCampaignRequestCallingHours",
    "CreateCampaignRequestQuestionsItem",
    "CreateCampaignRequestScheduleType0",
    "CreateCampaignRequestScheduleType0DaysItem",
    "CreateConnectionRequest",
    "CreateConnectionRequestSignInHeaderType0",
    "CreateMailboxRequest",
    "CreateQueueRequest",
    "CreateQueueRequestMembersItem",
    "GetOpenApiDocumentResponse200",
    "HangupCallRequest",
    "Invoice",
    "InvoiceCreditNotesItem",
    "InvoiceFinalizedEvent",
    "InvoiceKind",
    "InvoiceLinesItem",
    "InvoiceLinesItemItem",
    "ListCallsDirection",
    "ListCallsStatus",
    "ListMessagesStatus",
    "ListMessagesType",
    "Mailbox",
    "MailboxList",
    "MenuStep",
    "MenuStepOptions",
    "MenuStepOutput",
    "MenuStepOutputOptions",
    "Message",
    "MessageCreatedEvent",
    "MessageCreatedEventData",
    "MessageCreatedEventDataCall",
    "MessageDetails",
    "MessageKind",
    "MessageList",
    "MessagePatch",
    "MessagePatchStatus",
    "MessageStatus",
    "MessageTestEvent",
    "MessageTestEventData",
    "MessageTestEventDataCall",
    "NumberPatch",
    "PhoneNumber",
    "PhoneNumberList",
    "PlaceCallRequest",
    "PlaceCallRequestContext",
    "PlaceCallRequestMetadata",
    "PlaceCallRequestQuestionsItem",
    "Queue",
    "QueueEnteredEvent",
    "QueueExitedEvent",
    "QueueExitedEventData",
    "QueueExitedEventDataAiType0",
    "QueueExitedEventDataCampaign",
    "QueueExitedEventDataDirection",
    "QueueExitedEventDataMetadata",
    "QueueExitedEventDataQueue",
    "QueueExitedEventDataQueueAnsweredBy",
    "QueueExitedEventDataQueueReason",
    "QueueExitedEventDataStatus",
    "QueueList",
    "QueueMembersItem",
    "QueuePatch",
    "QueuePatchMembersItem",
    "QueueStep",
    "QueueTimeoutEvent",
    "QueueTimeoutEventData",
    "QueueTimeoutEventDataAiType0",
    "QueueTimeoutEventDataCampaign",
    "QueueTimeoutEventDataDirection",
    "QueueTimeoutEventDataMetadata",
    "QueueTimeoutEventDataQueue",
    "QueueTimeoutEventDataQueueAnsweredBy",
    "QueueTimeoutEventDataQueueReason",
    "QueueTimeoutEventDataStatus",
    "RoutingAnswer",
    "SimCallRequest",
    "StartRunRequest",
    "SteerAccepted",
    "SteerCallRequest",
    "StopRunRequest",
    "TransferStep",
    "UpdateCampaignRequest",
    "UpdateCampaignRequestCallingHours",
    "UpdateCampaignRequestQuestionsItem",
    "UpdateCampaignRequestScheduleType0",
    "UpdateCampaignRequestScheduleType0DaysItem",
    "UpdateConnectionRequest",
    "UpdateConnectionRequestSignInHeaderType0",
    "UsageReport",
    "UsageReportGroupByItem",
    "UsageRow",
    "UsageRowChannel",
    "VoiceError",
    "VoiceErrorError",
    "VoiceList",
    "VoiceListDataItem",
    "VoiceListDataItemGender",
    "VoiceListDataItemProvider",
    "VoicemailStep",
    "WebhookStep",
    "WebhookStepOutput",
)

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_messages_status import (
    ListMessagesStatus,
)
from ...models.list_messages_type import ListMessagesType
from ...models.message_list import MessageList
from ...models.voice_error import VoiceError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ListMessagesStatus | Unset = UNSET,
    type_: ListMessagesType | Unset = UNSET,
    mailbox_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status

    params["status"] = json_status

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_

    params["type"] = json_type_

    params["mailbox_id"] = mailbox_id

    params["agent_id"] = agent_id

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/messages",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MessageList | VoiceError | None:
    if response.status_code == 200:
        response_200 = MessageList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = VoiceError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

    if response.status_code == 422:
        response_422 = VoiceError.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = VoiceError.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = VoiceError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = VoiceError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[MessageList | VoiceError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ListMessagesStatus | Unset = UNSET,
    type_: ListMessagesType | Unset = UNSET,
    mailbox_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[MessageList | VoiceError]:
    """The account's messages (voicemails and AI messages), newest first

    Args:
        status (ListMessagesStatus | Unset):
        type_ (ListMessagesType | Unset):
        mailbox_id (str | Unset):
        agent_id (str | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MessageList | VoiceError]
    """

    kwargs = _get_kwargs(
        status=status,
        type_=type_,
        mailbox_id=mailbox_id,
        agent_id=agent_id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: ListMessagesStatus | Unset = UNSET,
    type_: ListMessagesType | Unset = UNSET,
    mailbox_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> MessageList | VoiceError | None:
    """The account's messages (voicemails and AI messages), newest first

    Args:
        status (ListMessagesStatus | Unset):
        type_ (ListMessagesType | Unset):
        mailbox_id (str | Unset):
        agent_id (str | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MessageList | VoiceError
    """

    return sync_detailed(
        client=client,
        status=status,
        type_=type_,
        mailbox_id=mailbox_id,
        agent_id=agent_id,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ListMessagesStatus | Unset = UNSET,
    type_: ListMessagesType | Unset = UNSET,
    mailbox_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[MessageList | VoiceError]:
    """The account's messages (voicemails and AI messages), newest first

    Args:
        status (ListMessagesStatus | Unset):
        type_ (ListMessagesType | Unset):
        mailbox_id (str | Unset):
        agent_id (str | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MessageList | VoiceError]
    """

    kwargs = _get_kwargs(
        status=status,
        type_=type_,
        mailbox_id=mailbox_id,
        agent_id=agent_id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ListMessagesStatus | Unset = UNSET,
    type_: ListMessagesType | Unset = UNSET,
    mailbox_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> MessageList | VoiceError | None:
    """The account's messages (voicemails and AI messages), newest first

    Args:
        status (ListMessagesStatus | Unset):
        type_ (ListMessagesType | Unset):
        mailbox_id (str | Unset):
        agent_id (str | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MessageList | VoiceError
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            type_=type_,
            mailbox_id=mailbox_id,
            agent_id=agent_id,
            limit=limit,
            cursor=cursor,
        )
    ).parsed

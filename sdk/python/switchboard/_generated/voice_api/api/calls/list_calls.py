import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.call_list import CallList
from ...models.list_calls_direction import (
    ListCallsDirection,
)
from ...models.list_calls_status import ListCallsStatus
from ...models.voice_error import VoiceError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ListCallsStatus | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status

    params["status"] = json_status

    json_direction: str | Unset = UNSET
    if not isinstance(direction, Unset):
        json_direction = direction

    params["direction"] = json_direction

    params["to"] = to

    params["from"] = from_

    json_created_after: str | Unset = UNSET
    if not isinstance(created_after, Unset):
        json_created_after = created_after.isoformat()
    params["created_after"] = json_created_after

    json_created_before: str | Unset = UNSET
    if not isinstance(created_before, Unset):
        json_created_before = created_before.isoformat()
    params["created_before"] = json_created_before

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/calls",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CallList | VoiceError | None:
    if response.status_code == 200:
        response_200 = CallList.from_dict(response.json())

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
) -> Response[CallList | VoiceError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ListCallsStatus | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[CallList | VoiceError]:
    """List the account's calls, newest first

    Args:
        status (ListCallsStatus | Unset):
        direction (ListCallsDirection | Unset):
        to (str | Unset):
        from_ (str | Unset):
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallList | VoiceError]
    """

    kwargs = _get_kwargs(
        status=status,
        direction=direction,
        to=to,
        from_=from_,
        created_after=created_after,
        created_before=created_before,
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
    status: ListCallsStatus | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> CallList | VoiceError | None:
    """List the account's calls, newest first

    Args:
        status (ListCallsStatus | Unset):
        direction (ListCallsDirection | Unset):
        to (str | Unset):
        from_ (str | Unset):
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallList | VoiceError
    """

    return sync_detailed(
        client=client,
        status=status,
        direction=direction,
        to=to,
        from_=from_,
        created_after=created_after,
        created_before=created_before,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ListCallsStatus | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[CallList | VoiceError]:
    """List the account's calls, newest first

    Args:
        status (ListCallsStatus | Unset):
        direction (ListCallsDirection | Unset):
        to (str | Unset):
        from_ (str | Unset):
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallList | VoiceError]
    """

    kwargs = _get_kwargs(
        status=status,
        direction=direction,
        to=to,
        from_=from_,
        created_after=created_after,
        created_before=created_before,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ListCallsStatus | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> CallList | VoiceError | None:
    """List the account's calls, newest first

    Args:
        status (ListCallsStatus | Unset):
        direction (ListCallsDirection | Unset):
        to (str | Unset):
        from_ (str | Unset):
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallList | VoiceError
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            direction=direction,
            to=to,
            from_=from_,
            created_after=created_after,
            created_before=created_before,
            limit=limit,
            cursor=cursor,
        )
    ).parsed

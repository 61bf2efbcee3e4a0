from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.trigger import Trigger
from ...types import UNSET, Response, Unset


def _get_kwargs(
    trigger_id: UUID,
    *,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/triggers/{trigger_id}".format(
            trigger_id=quote(str(trigger_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Trigger | None:
    if response.status_code == 200:
        response_200 = Trigger.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Trigger]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    trigger_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Response[Error | Trigger]:
    """Poll a job (optionally long-polling with wait)

    Args:
        trigger_id (UUID): Trigger (job) id
        wait (int | Unset): Long poll: hold up to this many seconds for a status change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Trigger]
    """

    kwargs = _get_kwargs(
        trigger_id=trigger_id,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    trigger_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Error | Trigger | None:
    """Poll a job (optionally long-polling with wait)

    Args:
        trigger_id (UUID): Trigger (job) id
        wait (int | Unset): Long poll: hold up to this many seconds for a status change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Trigger
    """

    return sync_detailed(
        trigger_id=trigger_id,
        client=client,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    trigger_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Response[Error | Trigger]:
    """Poll a job (optionally long-polling with wait)

    Args:
        trigger_id (UUID): Trigger (job) id
        wait (int | Unset): Long poll: hold up to this many seconds for a status change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Trigger]
    """

    kwargs = _get_kwargs(
        trigger_id=trigger_id,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    trigger_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Error | Trigger | None:
    """Poll a job (optionally long-polling with wait)

    Args:
        trigger_id (UUID): Trigger (job) id
        wait (int | Unset): Long poll: hold up to this many seconds for a status change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Trigger
    """

    return (
        await asyncio_detailed(
            trigger_id=trigger_id,
            client=client,
            wait=wait,
        )
    ).parsed

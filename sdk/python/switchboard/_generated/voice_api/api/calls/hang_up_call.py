from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.call import Call
from ...models.hangup_call_request import HangupCallRequest
from ...models.voice_error import VoiceError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: HangupCallRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/calls/{id}/hangup".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Call | VoiceError | None:
    if response.status_code == 200:
        response_200 = Call.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = VoiceError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = VoiceError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = VoiceError.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = VoiceError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = VoiceError.from_dict(response.json())

        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Call | VoiceError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: HangupCallRequest | Unset = UNSET,
) -> Response[Call | VoiceError]:
    """Hang up a call; before answer it ends canceled

    Args:
        id (str): Call id (cal_…)
        body (HangupCallRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Call | VoiceError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: HangupCallRequest | Unset = UNSET,
) -> Call | VoiceError | None:
    """Hang up a call; before answer it ends canceled

    Args:
        id (str): Call id (cal_…)
        body (HangupCallRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Call | VoiceError
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: HangupCallRequest | Unset = UNSET,
) -> Response[Call | VoiceError]:
    """Hang up a call; before answer it ends canceled

    Args:
        id (str): Call id (cal_…)
        body (HangupCallRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Call | VoiceError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: HangupCallRequest | Unset = UNSET,
) -> Call | VoiceError | None:
    """Hang up a call; before answer it ends canceled

    Args:
        id (str): Call id (cal_…)
        body (HangupCallRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Call | VoiceError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed

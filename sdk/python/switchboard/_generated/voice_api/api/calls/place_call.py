from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.call import Call
from ...models.place_call_request import PlaceCallRequest
from ...models.voice_error import VoiceError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PlaceCallRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/calls",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Call | VoiceError | None:
    if response.status_code == 200:
        response_200 = Call.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Call.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = VoiceError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = VoiceError.from_dict(response.json())

        return response_403

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
    *,
    client: AuthenticatedClient,
    body: PlaceCallRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Call | VoiceError]:
    """Place a call (201); a replay with the same Idempotency-Key and body answers 200 with the original
    call

     A task or callback_url needs the voice_api feature.

    Args:
        idempotency_key (str | Unset): Any unique string
        body (PlaceCallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Call | VoiceError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PlaceCallRequest,
    idempotency_key: str | Unset = UNSET,
) -> Call | VoiceError | None:
    """Place a call (201); a replay with the same Idempotency-Key and body answers 200 with the original
    call

     A task or callback_url needs the voice_api feature.

    Args:
        idempotency_key (str | Unset): Any unique string
        body (PlaceCallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Call | VoiceError
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PlaceCallRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Call | VoiceError]:
    """Place a call (201); a replay with the same Idempotency-Key and body answers 200 with the original
    call

     A task or callback_url needs the voice_api feature.

    Args:
        idempotency_key (str | Unset): Any unique string
        body (PlaceCallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Call | VoiceError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PlaceCallRequest,
    idempotency_key: str | Unset = UNSET,
) -> Call | VoiceError | None:
    """Place a call (201); a replay with the same Idempotency-Key and body answers 200 with the original
    call

     A task or callback_url needs the voice_api feature.

    Args:
        idempotency_key (str | Unset): Any unique string
        body (PlaceCallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Call | VoiceError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.phone_number_list import PhoneNumberList
from ...models.voice_error import VoiceError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/numbers",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PhoneNumberList | VoiceError | None:
    if response.status_code == 200:
        response_200 = PhoneNumberList.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

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
) -> Response[PhoneNumberList | VoiceError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[PhoneNumberList | VoiceError]:
    """The account's phone numbers (the operator assigns them)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PhoneNumberList | VoiceError]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> PhoneNumberList | VoiceError | None:
    """The account's phone numbers (the operator assigns them)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PhoneNumberList | VoiceError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[PhoneNumberList | VoiceError]:
    """The account's phone numbers (the operator assigns them)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PhoneNumberList | VoiceError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> PhoneNumberList | VoiceError | None:
    """The account's phone numbers (the operator assigns them)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PhoneNumberList | VoiceError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed

"""Passkeys: the WebAuthn ceremonies (``py_webauthn``), registration and authentication.

The relying party is the server's public origin (configured, or else the one the request came to):
its host is the RP id. Registration asks for a resident (discoverable) key, so a passkey can sign in
without typing a name, and prefers user verification; attestation is not asked for (``none``):
the server trusts the key, not the maker of the authenticator.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

RP_NAME = "Chicken Foot"
TIMEOUT_MS = 300_000


class PasskeyRefused(Exception):
    """The browser's answer does not prove what it should (wrong challenge, origin, signature...)."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    id: str
    origin: str

    @classmethod
    def of(cls, connection: HTTPConnection, configured_origin: str | None) -> RelyingParty:
        """The configured public origin, else the scheme and host the request came to."""
        origin = (configured_origin or f"{connection.url.scheme}://{connection.headers.get('host', '')}").rstrip("/")
        origin = origin.replace("ws://", "http://", 1).replace("wss://", "https://", 1)
        return cls(urlsplit(origin).hostname or "", origin)


@dataclass(frozen=True, slots=True)
class NewPasskey:
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: list[str]


def registration_options(
    party: RelyingParty, user_handle: str, username: str, existing: list[str]
) -> tuple[dict[str, Any], str]:
    """The options for ``navigator.credentials.create`` (JSON) and their challenge (base64url)."""
    options = generate_registration_options(
        rp_id=party.id,
        rp_name=RP_NAME,
        user_name=username,
        user_id=base64url_to_bytes(user_handle),
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in existing],
    )
    return json.loads(options_to_json(options)), bytes_to_base64url(options.challenge)


def verify_registration(party: RelyingParty, credential: dict[str, Any], challenge: str) -> NewPasskey:
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=party.id,
            expected_origin=party.origin,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise PasskeyRefused(str(exc)) from None
    response = credential.get("response")
    transports = response.get("transports") if isinstance(response, dict) else None
    listed = [t for t in transports if isinstance(t, str)][:8] if isinstance(transports, list) else []
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
        [t[:20] for t in listed],
    )


def authentication_options(party: RelyingParty) -> tuple[dict[str, Any], str]:
    """Options for ``navigator.credentials.get`` with no credential named (the passkey says who)."""
    options = generate_authentication_options(
        rp_id=party.id, timeout=TIMEOUT_MS, user_verification=UserVerificationRequirement.PREFERRED
    )
    return json.loads(options_to_json(options)), bytes_to_base64url(options.challenge)


def credential_id(credential: dict[str, Any]) -> str | None:
    """The credential the browser says it used (to be proven by :func:`verify_authentication`)."""
    raw = credential.get("rawId", credential.get("id"))
    return raw if isinstance(raw, str) and 0 < len(raw) <= 1400 else None


def user_handle(credential: dict[str, Any]) -> str | None:
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    return handle if isinstance(handle, str) else None


def verify_authentication(
    party: RelyingParty, credential: dict[str, Any], challenge: str, public_key: bytes, sign_count: int
) -> int:
    """The authenticator's new signature counter once the assertion is proven; raises :class:`PasskeyRefused`."""
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=party.id,
            expected_origin=party.origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return int(verified.new_sign_count)

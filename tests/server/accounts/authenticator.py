"""A software passkey authenticator for API tests: an EC P-256 key and the answers a browser would send.

The attestation is of format ``none`` (what the server asks for), built as py_webauthn's own tests
build theirs: authenticator data (RP id hash, flags, counter, the credential and its COSE key), CBOR.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40


class SoftAuthenticator:
    def __init__(self, origin: str = "http://testserver") -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.counter = 0
        self.user_handle: str | None = None

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def _auth_data(self, rp_id: str, flags: int, attested: bytes = b"") -> bytes:
        self.counter += 1
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.counter) + attested

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)``."""
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose = encode_cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + cose
        auth_data = self._auth_data(options["rp"]["id"], USER_PRESENT | USER_VERIFIED | ATTESTED, attested)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        raw_id = bytes_to_base64url(self.credential_id)
        return {
            "id": raw_id,
            "rawId": raw_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "attestationObject": bytes_to_base64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)`` (a discoverable credential)."""
        auth_data = self._auth_data(options["rpId"], USER_PRESENT | USER_VERIFIED)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        raw_id = bytes_to_base64url(self.credential_id)
        return {
            "id": raw_id,
            "rawId": raw_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "authenticatorData": bytes_to_base64url(auth_data),
                "signature": bytes_to_base64url(signature),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
        }

"""The site's VAPID key pair (RFC 8292): made by `manage.py vapid_keys`, read from the environment.

Plain `cryptography`: the web server shows the public key without loading the push sender.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def new_keys() -> tuple[str, str]:
    """(private: the raw 32-byte scalar, as VAPID_PRIVATE_KEY; public: the applicationServerKey)."""
    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32, "big")
    return _b64(number), public_key_of(_b64(number))


def public_key_of(private: str) -> str:
    """The uncompressed P-256 point of VAPID_PRIVATE_KEY, base64url: what browsers subscribe with."""
    number = int.from_bytes(base64.urlsafe_b64decode(private + "=" * (-len(private) % 4)), "big")
    key = ec.derive_private_key(number, ec.SECP256R1())
    return _b64(key.public_key().public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint))

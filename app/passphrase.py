"""The teacher passphrase (and optional learner PINs): scrypt hashes with a random salt, never the secret."""

from __future__ import annotations

import hashlib
import hmac
import os

# scrypt cost: about 50 ms on a laptop, 16 MiB of memory: slow to guess, quick enough to type.
_N, _R, _P, _DKLEN = 2**14, 8, 1, 32
MIN_LENGTH = 4


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    """Return 'scrypt$<salt hex>$<hash hex>' for a secret, with a fresh 16-byte salt unless given."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=_DKLEN)
    return f"scrypt${salt.hex()}${digest.hex()}"


def verify_secret(secret: str, stored: str) -> bool:
    """Return True when `secret` hashes to `stored` (a string from hash_secret); False on any mismatch."""
    try:
        scheme, salt_hex, _digest = stored.split("$")
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    return hmac.compare_digest(hash_secret(secret, salt), stored)

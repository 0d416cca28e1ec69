"""HMAC-SHA256 (RFC 2104) over hashlib, which every port here has: MicroPython has no hmac
module. The club's key signs a bundle's manifest (tools/fleet.py); the board checks it."""

import hashlib

_BLOCK = 64  # SHA-256's block size


def hmac_sha256(key, msg):
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    inner.update(msg)
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def same(a, b):
    """a == b for two byte strings, in a time that does not tell where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0

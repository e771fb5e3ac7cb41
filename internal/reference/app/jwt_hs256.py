"""HS256 JSON Web Tokens as PyJWT makes and checks them, for the reference apps.

PyJWT is not installed beside the vendored FastAPI stack, so this module
stands in for the part of it the FastAPI tutorial uses. The apps import it
as ``import jwt_hs256 as jwt`` and call it as they would call PyJWT:

    jwt.encode(claims, key, algorithm="HS256")
    jwt.decode(token, key, algorithms=["HS256"])
    except jwt.InvalidTokenError: ...

It produces and accepts exactly what PyJWT 2.10 does with default options:
header {"alg":"HS256","typ":"JWT"} (sorted keys), claims in insertion order
with json.dumps' ASCII escaping, datetimes as integer seconds; on decode the
signature is checked, exp/nbf/iat are verified when present but not
required, and a non-empty aud is refused.
"""

import base64
import binascii
import calendar
import hashlib
import hmac
import json
from datetime import datetime, timezone
from typing import Any

HS256 = "HS256"


class InvalidTokenError(Exception):
    pass


def _b64encode(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).replace(b"=", b"")


def _b64decode(data: bytes) -> bytes:
    # PyJWT's base64url_decode: pad, then the lenient urlsafe_b64decode.
    rem = len(data) % 4
    if rem > 0:
        data += b"=" * (4 - rem)
    return base64.urlsafe_b64decode(data)


def encode(payload: dict[str, Any], key: str, algorithm: str = HS256) -> str:
    if algorithm != HS256:
        raise NotImplementedError(f"only {HS256} is implemented, not {algorithm}")
    payload = payload.copy()
    for claim in ("exp", "iat", "nbf"):
        if isinstance(payload.get(claim), datetime):
            payload[claim] = calendar.timegm(payload[claim].utctimetuple())
    header = json.dumps({"typ": "JWT", "alg": HS256}, separators=(",", ":"), sort_keys=True)
    segments = [
        _b64encode(header.encode()),
        _b64encode(json.dumps(payload, separators=(",", ":")).encode("utf-8")),
    ]
    signing_input = b".".join(segments)
    signature = hmac.new(key.encode("utf-8"), signing_input, hashlib.sha256).digest()
    return b".".join([*segments, _b64encode(signature)]).decode("utf-8")


def decode(token: str, key: str, algorithms: list[str]) -> dict[str, Any]:
    raw = token.encode("utf-8")
    try:
        signing_input, crypto_segment = raw.rsplit(b".", 1)
        header_segment, payload_segment = signing_input.split(b".", 1)
    except ValueError as e:
        raise InvalidTokenError("Not enough segments") from e
    try:
        header = json.loads(_b64decode(header_segment))
    except (TypeError, ValueError, binascii.Error) as e:
        raise InvalidTokenError("Invalid header padding or string") from e
    if not isinstance(header, dict):
        raise InvalidTokenError("Invalid header string: must be a json object")
    try:
        payload_bytes = _b64decode(payload_segment)
        signature = _b64decode(crypto_segment)
    except (TypeError, binascii.Error) as e:
        raise InvalidTokenError("Invalid padding") from e
    if "kid" in header and not isinstance(header["kid"], str):
        raise InvalidTokenError("Key ID header parameter must be a string")
    if header.get("alg") not in algorithms or header.get("alg") != HS256:
        raise InvalidTokenError("The specified alg value is not allowed")
    expected = hmac.new(key.encode("utf-8"), signing_input, hashlib.sha256).digest()
    if not hmac.compare_digest(expected, signature):
        raise InvalidTokenError("Signature verification failed")
    try:
        payload = json.loads(payload_bytes)
    except ValueError as e:
        raise InvalidTokenError("Invalid payload string") from e
    if not isinstance(payload, dict):
        raise InvalidTokenError("Invalid payload string: must be a json object")
    now = datetime.now(tz=timezone.utc).timestamp()
    # int() as PyJWT calls it: a float is truncated, a numeric string is
    # accepted, and a value of the wrong type raises TypeError (a 500).
    if "iat" in payload:
        try:
            iat = int(payload["iat"])
        except ValueError as e:
            raise InvalidTokenError("Issued At claim (iat) must be an integer.") from e
        if iat > now:
            raise InvalidTokenError("The token is not yet valid (iat)")
    if "nbf" in payload:
        try:
            nbf = int(payload["nbf"])
        except ValueError as e:
            raise InvalidTokenError("Not Before claim (nbf) must be an integer.") from e
        if nbf > now:
            raise InvalidTokenError("The token is not yet valid (nbf)")
    if "exp" in payload:
        try:
            exp = int(payload["exp"])
        except ValueError as e:
            raise InvalidTokenError("Expiration Time claim (exp) must be an integer.") from e
        if exp <= now:
            raise InvalidTokenError("Signature has expired")
    if payload.get("aud"):
        raise InvalidTokenError("Invalid audience")
    if "sub" in payload and not isinstance(payload["sub"], str):
        raise InvalidTokenError("Subject must be a string")
    if "jti" in payload and not isinstance(payload["jti"], str):
        raise InvalidTokenError("JWT ID must be a string")
    return payload

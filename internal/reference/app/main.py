"""The Movie and Review Service, written as a FastAPI developer would write it.

This is moviemock's reference backend: a real FastAPI application for the
contract in openapi.yaml, the oracle the mock's answers are compared with.
Nothing here imitates the mock; where a choice had to be made, it is the one
FastAPI's documentation and tutorials make.

Configuration comes from the environment, read once at import:

  MOVIEMOCK_REFERENCE_FIXTURES      directory with persons, users and reviews
                                    (.yaml, .yml or .json); default fixtures/data
  MOVIEMOCK_REFERENCE_SECRET        HS256 secret; default the mock's development secret
  MOVIEMOCK_REFERENCE_REQUIRE_AUTH  "1": the three reads need a bearer token
  MOVIEMOCK_REFERENCE_CORS          "0": no CORSMiddleware at all
  MOVIEMOCK_REFERENCE_CORS_ORIGINS  comma-separated allow_origins; default "*"
  MOVIEMOCK_REFERENCE_CORS_EXPOSE   comma-separated expose_headers; default none
  MOVIEMOCK_REFERENCE_TEST_ROUTES   "1": add the crash routes under /__reference/

Run it with:

  PYTHONPATH=../shared/fastapi-stack python3 -m uvicorn main:app \
      --app-dir internal/reference/app --host 127.0.0.1 --port 8000
"""

import base64
import binascii
import calendar
import hashlib
import hmac
import json
import os
import secrets
from datetime import date, datetime, timedelta, timezone
from pathlib import Path as FilePath
from typing import Annotated, Any

import yaml
from fastapi import Depends, FastAPI, HTTPException, Path, status
from fastapi.middleware.cors import CORSMiddleware
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel, Field

FIXTURES_DIR = FilePath(os.environ.get("MOVIEMOCK_REFERENCE_FIXTURES", "fixtures/data"))
SECRET_KEY = os.environ.get(
    "MOVIEMOCK_REFERENCE_SECRET",
    "moviemock-development-secret-do-not-use-in-production",
)
ALGORITHM = "HS256"
ACCESS_TOKEN_EXPIRE_MINUTES = 30
REQUIRE_AUTH = os.environ.get("MOVIEMOCK_REFERENCE_REQUIRE_AUTH") == "1"
CORS_ENABLED = os.environ.get("MOVIEMOCK_REFERENCE_CORS", "1") != "0"
TEST_ROUTES = os.environ.get("MOVIEMOCK_REFERENCE_TEST_ROUTES") == "1"


def _env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


CORS_ORIGINS = _env_list("MOVIEMOCK_REFERENCE_CORS_ORIGINS", "*")
CORS_EXPOSE = _env_list("MOVIEMOCK_REFERENCE_CORS_EXPOSE", "")


# --- Models -----------------------------------------------------------------


class Person(BaseModel):
    id: int = Field(description="Unique identifier of the person")
    name: str
    biography: str | None = None
    poster: str | None = None
    birthday: date | None = None
    deathday: date | None = None
    place_of_birth: str | None = None
    known_for_department: str | None = None
    known_for: list[str] = []


class User(BaseModel):
    id: int
    username: str
    avatar: str
    role: str


class UserInDB(User):
    password: str


class Review(BaseModel):
    id: str = Field(description="Unique identifier of the review")
    movie_id: str = Field(description="Unique identifier of the movie reviewed")
    author_id: int = Field(description="Unique identifier of the user who wrote the review")
    content: str = Field(description="The review text")
    author: User = Field(description="Embedded data about the author")
    created_at: datetime
    updated_at: datetime
    reactions: dict


class Token(BaseModel):
    access_token: str
    token_type: str


# --- Data -------------------------------------------------------------------


def _read_records(kind: str) -> list[dict[str, Any]]:
    """The records of persons.yaml (or .yml, .json); none if there is no file."""
    for suffix in (".yaml", ".yml", ".json"):
        path = FIXTURES_DIR / (kind + suffix)
        if path.is_file():
            with path.open(encoding="utf-8") as f:
                records = json.load(f) if suffix == ".json" else yaml.safe_load(f)
            return records or []
    return []


def _utc(value: datetime) -> datetime:
    # Timestamps are stored and served in UTC, whatever offset a file used.
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _load() -> tuple[dict[int, Person], dict[str, UserInDB], list[Review]]:
    persons = {p.id: p for p in (Person.model_validate(r) for r in _read_records("persons"))}
    users = [UserInDB.model_validate(r) for r in _read_records("users")]
    users_by_id = {u.id: u for u in users}
    reviews = []
    for record in _read_records("reviews"):
        record = dict(record)
        author = users_by_id.get(record.get("author_id"))
        if author is None:
            raise ValueError(f"review {record.get('id')!r}: no user has id {record.get('author_id')!r}")
        given = record.pop("author", None)
        joined = User.model_validate(author.model_dump(exclude={"password"}))
        if given is not None and User.model_validate(given) != joined:
            raise ValueError(f"review {record.get('id')!r}: author does not match user {author.id}")
        review = Review.model_validate({**record, "author": joined})
        review.created_at = _utc(review.created_at)
        review.updated_at = _utc(review.updated_at)
        reviews.append(review)
    return persons, {u.username: u for u in users}, reviews


persons_db, users_db, reviews_db = _load()
reviews_by_id = {r.id: r for r in reviews_db}


# --- JWT --------------------------------------------------------------------
#
# PyJWT is not installed here, so this is HS256 written out with the standard
# library, producing and accepting exactly what PyJWT 2.10's jwt.encode(claims,
# key, algorithm="HS256") and jwt.decode(token, key, algorithms=["HS256"]) do
# with default options: header {"alg":"HS256","typ":"JWT"} (sorted keys),
# claims in insertion order with json.dumps' ASCII escaping, datetimes as
# integer seconds; on decode the signature is checked, exp/nbf/iat are
# verified when present but not required, and a non-empty aud is refused.


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


def jwt_encode(payload: dict[str, Any], key: str) -> str:
    payload = payload.copy()
    for claim in ("exp", "iat", "nbf"):
        if isinstance(payload.get(claim), datetime):
            payload[claim] = calendar.timegm(payload[claim].utctimetuple())
    header = json.dumps({"typ": "JWT", "alg": ALGORITHM}, separators=(",", ":"), sort_keys=True)
    segments = [
        _b64encode(header.encode()),
        _b64encode(json.dumps(payload, separators=(",", ":")).encode("utf-8")),
    ]
    signing_input = b".".join(segments)
    signature = hmac.new(key.encode("utf-8"), signing_input, hashlib.sha256).digest()
    return b".".join([*segments, _b64encode(signature)]).decode("utf-8")


def jwt_decode(token: str, key: str) -> dict[str, Any]:
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
    if header.get("alg") != ALGORITHM:
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


def create_access_token(data: dict[str, Any], expires_delta: timedelta) -> str:
    to_encode = data.copy()
    now = datetime.now(timezone.utc)
    to_encode.update({"exp": now + expires_delta, "iat": now})
    return jwt_encode(to_encode, SECRET_KEY)


# --- Security ---------------------------------------------------------------

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="auth/login")


def authenticate_user(username: str, password: str) -> UserInDB | None:
    user = users_db.get(username)
    if user is None or not secrets.compare_digest(password.encode(), user.password.encode()):
        return None
    return user


async def get_current_user(token: Annotated[str, Depends(oauth2_scheme)]) -> User:
    credentials_exception = HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail="Could not validate credentials",
        headers={"WWW-Authenticate": "Bearer"},
    )
    try:
        payload = jwt_decode(token, SECRET_KEY)
    except InvalidTokenError:
        raise credentials_exception
    username = payload.get("sub")
    if username is None:
        raise credentials_exception
    user = users_db.get(username)
    if user is None:
        raise credentials_exception
    return user


# The reads are public unless the deployment asks for a token.
read_dependencies = [Depends(get_current_user)] if REQUIRE_AUTH else []


# --- Application ------------------------------------------------------------

app = FastAPI(
    title="Movie and Review Service",
    description=(
        "A movie-oriented information service: film-industry people, a password "
        "login that returns a JWT access token, and movie reviews with an embedded "
        "author and a reactions object."
    ),
    version="0.0.0",
)

if CORS_ENABLED:
    app.add_middleware(
        CORSMiddleware,
        allow_origins=CORS_ORIGINS,
        allow_credentials=True,
        allow_methods=["*"],
        allow_headers=["*"],
        expose_headers=CORS_EXPOSE,
        max_age=600,
    )


@app.get(
    "/person/{person_id}",
    tags=["People"],
    operation_id="getPerson",
    dependencies=read_dependencies,
)
async def get_person(
    person_id: Annotated[int, Path(description="Unique identifier of a person")],
) -> Person:
    """Read one film-industry person with biography data."""
    person = persons_db.get(person_id)
    if person is None:
        raise HTTPException(status_code=404, detail="Person not found")
    return person


@app.post("/auth/login", tags=["Auth"], operation_id="login")
async def login(form_data: Annotated[OAuth2PasswordRequestForm, Depends()]) -> Token:
    """Authenticate with a username and password and receive a JWT access token."""
    user = authenticate_user(form_data.username, form_data.password)
    if user is None:
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail="Incorrect username or password",
            headers={"WWW-Authenticate": "Bearer"},
        )
    access_token = create_access_token(
        data={"sub": user.username},
        expires_delta=timedelta(minutes=ACCESS_TOKEN_EXPIRE_MINUTES),
    )
    return Token(access_token=access_token, token_type="bearer")


@app.get(
    "/reviews/{review_id}",
    tags=["Reviews"],
    operation_id="getReview",
    dependencies=read_dependencies,
)
async def get_review(
    review_id: Annotated[str, Path(description="Unique identifier of a review")],
) -> Review:
    """Read one review of a movie."""
    review = reviews_by_id.get(review_id)
    if review is None:
        raise HTTPException(status_code=404, detail="Review not found")
    return review


@app.get(
    "/reviews",
    tags=["Reviews"],
    operation_id="listReviews",
    dependencies=read_dependencies,
)
async def get_reviews() -> list[Review]:
    """Read the list of reviews."""
    return reviews_db


if TEST_ROUTES:
    # Failures on purpose, for tests of how the stack answers them; kept out
    # of the schema because no real backend documents them.

    @app.get("/__reference/crash", include_in_schema=False)
    async def crash() -> None:
        raise RuntimeError("crash on purpose")

    @app.get("/__reference/http500", include_in_schema=False)
    async def http500() -> None:
        raise HTTPException(status_code=500, detail="Internal Server Error")

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

and the CORS and test-route settings harness.py reads.

Run it with:

  PYTHONPATH=testdata/fastapi-stack python3 -m uvicorn main:app \
      --app-dir internal/reference/app --host 127.0.0.1 --port 8000
"""

import os
import secrets
from datetime import date, datetime, timedelta, timezone
from typing import Annotated, Any

import harness
import jwt_hs256 as jwt  # PyJWT's API, HS256 only: PyJWT is not installed here
from fastapi import Depends, FastAPI, HTTPException, Path, status
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel, Field

FIXTURES_DIR = harness.fixtures_dir("fixtures/data")
SECRET_KEY = os.environ.get(
    "MOVIEMOCK_REFERENCE_SECRET",
    "moviemock-development-secret-do-not-use-in-production",
)
ALGORITHM = "HS256"
ACCESS_TOKEN_EXPIRE_MINUTES = 30
REQUIRE_AUTH = os.environ.get("MOVIEMOCK_REFERENCE_REQUIRE_AUTH") == "1"


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


def _load() -> tuple[dict[int, Person], dict[str, UserInDB], list[Review]]:
    persons = {
        p.id: p for p in (Person.model_validate(r) for r in harness.read_records(FIXTURES_DIR, "persons"))
    }
    users = [UserInDB.model_validate(r) for r in harness.read_records(FIXTURES_DIR, "users")]
    users_by_id = {u.id: u for u in users}
    reviews = []
    for record in harness.read_records(FIXTURES_DIR, "reviews"):
        record = dict(record)
        author = users_by_id.get(record.get("author_id"))
        if author is None:
            raise ValueError(f"review {record.get('id')!r}: no user has id {record.get('author_id')!r}")
        given = record.pop("author", None)
        joined = User.model_validate(author.model_dump(exclude={"password"}))
        if given is not None and User.model_validate(given) != joined:
            raise ValueError(f"review {record.get('id')!r}: author does not match user {author.id}")
        review = Review.model_validate({**record, "author": joined})
        review.created_at = harness.utc(review.created_at)
        review.updated_at = harness.utc(review.updated_at)
        reviews.append(review)
    return persons, {u.username: u for u in users}, reviews


persons_db, users_db, reviews_db = _load()
reviews_by_id = {r.id: r for r in reviews_db}


# --- JWT (jwt_hs256.py: PyJWT's encode and decode) ---------------------------


def create_access_token(data: dict[str, Any], expires_delta: timedelta) -> str:
    to_encode = data.copy()
    now = datetime.now(timezone.utc)
    to_encode.update({"exp": now + expires_delta, "iat": now})
    return jwt.encode(to_encode, SECRET_KEY, algorithm=ALGORITHM)


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
        payload = jwt.decode(token, SECRET_KEY, algorithms=[ALGORITHM])
    except jwt.InvalidTokenError:
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


# CORS as the environment says, and the crash routes when asked for. The
# data never changes, so there is nothing to reset.
harness.install(app)

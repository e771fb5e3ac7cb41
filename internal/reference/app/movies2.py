"""The Movie and Review Service grown another way: client-chosen movie ids, reactions as counters.

A reference backend for the contract testdata/contracts/movies2/openapi.json,
which is this app's own /openapi.json. Where movies.py grew the service
the way a contract-driven mock derives it, this one grew the way many
FastAPI teams grow theirs, with the habits a runner must not mistake for
bugs:

- a movie's id is chosen by the client (IMDb-style, ^tt\\d{7,8}$) and a
  taken id answers 409 {"detail": "Movie already exists"}, undeclared;
- a username is unique: registering a taken one answers 400, undeclared;
- a review must name an existing movie (404 {"detail": "Movie not found"},
  undeclared), while GET /movies/{id}/reviews of an unknown movie is [];
- POST /reviews/{id}/reactions counts a like or a dislike and answers the
  review itself, with its counters;
- PATCH ignores explicit nulls (a field sent as null keeps its value);
- users are stored with a password hash (hashed_password), never served.

Configuration comes from the environment, read once at import:

  MOVIEMOCK_REFERENCE_FIXTURES  directory with users, movies and reviews
                                (.yaml, .yml or .json); default
                                testdata/contracts/movies2/fixtures
  MOVIEMOCK_REFERENCE_SECRET    HS256 secret; default the mock's development secret
  MOVIEMOCK_REFERENCE_BUG       deliberate bugs to switch on, by name (see BUGS
                                below), comma-separated; default none: the app
                                is correct. An unknown name stops the app at start.

and the CORS and test-route settings harness.py reads. POST /__reference/reset
restores the loaded records.

Run it from the module root with:

  PYTHONPATH=testdata/fastapi-stack python3 -m uvicorn movies2:app \\
      --app-dir internal/reference/app --host 127.0.0.1 --port 8000
"""

import copy
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any, Literal

import harness
import jwt_hs256 as jwt  # PyJWT's API, HS256 only: PyJWT is not installed here
from fastapi import Depends, FastAPI, HTTPException, Path, Query, status
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel, Field

FIXTURES_DIR = harness.fixtures_dir("testdata/contracts/movies2/fixtures")
SECRET_KEY = os.environ.get(
    "MOVIEMOCK_REFERENCE_SECRET",
    "moviemock-development-secret-do-not-use-in-production",
)
ALGORITHM = "HS256"
ACCESS_TOKEN_EXPIRE_MINUTES = 30

# --- Deliberate bugs ----------------------------------------------------------
#
# Mutants for testing the contract runner (contract/mutants2_test.go), as in
# movies.py: each switched on by name with MOVIEMOCK_REFERENCE_BUG, one at a
# time; every branch that makes one is marked "BUG <name>".
BUGS = {
    "delete_noop": "DELETE /movies/{id} answers 204 and deletes nothing",
    "list_keeps_deleted": "a deleted movie is hidden from GET /movies/{id} but still listed by GET /movies",
    "put_ignores_body": "PUT /movies/{id} answers the stored movie unchanged",
    "put_freezes_updated_at": "PUT /movies/{id} does not move updated_at",
    "reaction_resets_counts": "a reaction resets the review's counters before counting itself",
    "register_duplicate": "POST /users accepts a username that is taken (and replaces its user)",
    "token_signature_unchecked": "the token's signature is never checked (its expiry is)",
    "password_hash_leak": "GET /users/me serves the stored user, hashed_password included",
}
# Several at once, comma-separated: a server broken in several ways.
BUG = frozenset(name.strip() for name in os.environ.get("MOVIEMOCK_REFERENCE_BUG", "").split(",") if name.strip())
for _name in sorted(BUG - BUGS.keys()):
    raise SystemExit(f"MOVIEMOCK_REFERENCE_BUG: {_name!r} names no bug; known: {', '.join(sorted(BUGS))}")


# --- Models -----------------------------------------------------------------


class User(BaseModel):
    id: int
    username: str
    email: str
    full_name: str | None = None


class UserInDB(User):
    hashed_password: str


class UserCreate(BaseModel):
    username: str = Field(min_length=3, max_length=32, pattern=r"^[a-z0-9_]+$")
    email: str = Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
    full_name: str | None = Field(default=None, max_length=100)
    password: str = Field(min_length=8, max_length=128)


MovieIdField = Field(pattern=r"^tt\d{7,8}$", description="IMDb identifier, e.g. tt0137523")


class Movie(BaseModel):
    id: str = Field(description="IMDb identifier, e.g. tt0137523")
    title: str
    year: int
    genres: list[str] = []
    rating: float | None = None
    created_at: datetime
    updated_at: datetime


class MovieIn(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    year: int = Field(ge=1888, le=2100)
    genres: list[str] = Field(default=[], max_length=10)
    rating: float | None = Field(default=None, ge=0, le=10)


class MovieCreate(MovieIn):
    id: str = MovieIdField


class MoviePatch(BaseModel):
    title: str | None = Field(default=None, min_length=1, max_length=200)
    year: int | None = Field(default=None, ge=1888, le=2100)
    genres: list[str] | None = Field(default=None, max_length=10)
    rating: float | None = Field(default=None, ge=0, le=10)


class Reactions(BaseModel):
    like: int = 0
    dislike: int = 0


class Review(BaseModel):
    id: int
    movie_id: str
    author: str = Field(description="Username of the author")
    rating: int
    content: str
    reactions: Reactions = Reactions()
    created_at: datetime


class ReviewCreate(BaseModel):
    movie_id: str = MovieIdField
    rating: int = Field(ge=1, le=10)
    content: str = Field(min_length=1, max_length=2000)


class ReactionIn(BaseModel):
    kind: Literal["like", "dislike"]


class Token(BaseModel):
    access_token: str
    token_type: str


# --- Data -------------------------------------------------------------------


def hash_password(password: str, salt: str | None = None) -> str:
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 1000).hex()
    return f"pbkdf2_sha256${salt}${digest}"


def verify_password(password: str, hashed: str) -> bool:
    _, salt, _ = hashed.split("$", 2)
    return secrets.compare_digest(hash_password(password, salt), hashed)


@dataclass
class Store:
    users: dict[str, UserInDB]
    movies: dict[str, Movie]
    deleted: set[str]  # soft-deleted movie ids
    reviews: dict[int, Review]
    next_user_id: int
    next_review_id: int


def _load() -> Store:
    def read(collection: str) -> list[dict[str, Any]]:
        return harness.read_records(FIXTURES_DIR, collection)

    users = {}
    for record in read("users"):
        record = dict(record)
        password = record.pop("password")
        # A fixed salt per user: the same hash run after run.
        user = UserInDB(**record, hashed_password=hash_password(password, record["username"]))
        users[user.username] = user
    movies = {}
    for record in read("movies"):
        movie = Movie.model_validate(record)
        movie.created_at = harness.utc(movie.created_at)
        movie.updated_at = harness.utc(movie.updated_at)
        movies[movie.id] = movie
    reviews = {}
    for record in read("reviews"):
        review = Review.model_validate(record)
        if review.movie_id not in movies:
            raise ValueError(f"review {review.id}: no movie has id {review.movie_id!r}")
        review.created_at = harness.utc(review.created_at)
        reviews[review.id] = review
    return Store(
        users=users,
        movies=movies,
        deleted=set(),
        reviews=reviews,
        next_user_id=max((u.id for u in users.values()), default=0) + 1,
        next_review_id=max(reviews, default=0) + 1,
    )


loaded = _load()
db = copy.deepcopy(loaded)


def reset() -> None:
    global db
    db = copy.deepcopy(loaded)


def now() -> datetime:
    return datetime.now(timezone.utc)


# --- Security ---------------------------------------------------------------

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/auth/login")


def create_access_token(data: dict[str, Any], expires_delta: timedelta) -> str:
    to_encode = data.copy()
    issued = datetime.now(timezone.utc)
    to_encode.update({"exp": issued + expires_delta, "iat": issued})
    return jwt.encode(to_encode, SECRET_KEY, algorithm=ALGORITHM)


def claims_unchecked(token: str) -> dict[str, Any]:
    """For BUG token_signature_unchecked: PyJWT's decode with
    options={"verify_signature": False}, then the expiry checked by hand."""
    try:
        claims = json.loads(jwt._b64decode(token.split(".")[1].encode()))
    except Exception as e:
        raise jwt.InvalidTokenError("Invalid payload") from e
    if not isinstance(claims, dict) or not isinstance(claims.get("exp"), (int, float)):
        raise jwt.InvalidTokenError("Invalid payload")
    if claims["exp"] <= now().timestamp():
        raise jwt.InvalidTokenError("Signature has expired")
    return claims


async def get_current_user(token: Annotated[str, Depends(oauth2_scheme)]) -> UserInDB:
    credentials_exception = HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail="Could not validate credentials",
        headers={"WWW-Authenticate": "Bearer"},
    )
    try:
        if "token_signature_unchecked" in BUG:
            payload = claims_unchecked(token)  # BUG token_signature_unchecked
        else:
            payload = jwt.decode(token, SECRET_KEY, algorithms=[ALGORITHM])
    except jwt.InvalidTokenError:
        raise credentials_exception
    username = payload.get("sub")
    user = db.users.get(username) if isinstance(username, str) else None
    if user is None:
        raise credentials_exception
    return user


CurrentUser = Annotated[UserInDB, Depends(get_current_user)]


# --- Application ------------------------------------------------------------

app = FastAPI(
    title="Movie and Review Service",
    description=(
        "Movies under their IMDb identifiers, reviews with like and dislike "
        "counters, and user accounts with a password login that returns a JWT "
        "access token."
    ),
    version="2.0.0",
)

MovieID = Annotated[str, Path(pattern=r"^tt\d{7,8}$", description="IMDb identifier of a movie")]


def find_movie(movie_id: str) -> Movie:
    movie = db.movies.get(movie_id)
    if movie is None or movie_id in db.deleted:
        raise HTTPException(status_code=404, detail="Movie not found")
    return movie


# Auth and users


@app.post("/auth/login", tags=["Auth"])
async def login(form_data: Annotated[OAuth2PasswordRequestForm, Depends()]) -> Token:
    """Log in with a username and password and receive a JWT access token."""
    user = db.users.get(form_data.username)
    if user is None or not verify_password(form_data.password, user.hashed_password):
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail="Incorrect username or password",
            headers={"WWW-Authenticate": "Bearer"},
        )
    access_token = create_access_token({"sub": user.username}, timedelta(minutes=ACCESS_TOKEN_EXPIRE_MINUTES))
    return Token(access_token=access_token, token_type="bearer")


@app.post("/users", status_code=status.HTTP_201_CREATED, tags=["Users"])
async def register(user_in: UserCreate) -> User:
    """Create an account; log in with it at /auth/login."""
    if user_in.username in db.users and "register_duplicate" not in BUG:  # BUG register_duplicate: no check
        raise HTTPException(status_code=400, detail="Username already registered")
    user = UserInDB(
        id=db.next_user_id, **user_in.model_dump(exclude={"password"}), hashed_password=hash_password(user_in.password)
    )
    db.next_user_id += 1
    db.users[user.username] = user
    return user


@app.get("/users/me", tags=["Users"])
async def read_users_me(current_user: CurrentUser) -> User:
    """Read the signed-in user."""
    if "password_hash_leak" in BUG:
        # BUG password_hash_leak: a JSONResponse skips the response model's filtering.
        return JSONResponse(jsonable_encoder(current_user))
    return current_user


# Movies


@app.get("/movies", tags=["Movies"])
async def list_movies(
    skip: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> list[Movie]:
    """Read the movies, a page at a time."""
    movies = [m for m in db.movies.values() if m.id not in db.deleted or "list_keeps_deleted" in BUG]  # BUG list_keeps_deleted
    return movies[skip : skip + limit]


@app.post("/movies", status_code=status.HTTP_201_CREATED, tags=["Movies"])
async def create_movie(movie_in: MovieCreate, current_user: CurrentUser) -> Movie:
    """Add a movie under its IMDb identifier."""
    if movie_in.id in db.movies and movie_in.id not in db.deleted:
        raise HTTPException(status_code=409, detail="Movie already exists")
    created = now()
    movie = Movie(**movie_in.model_dump(), created_at=created, updated_at=created)
    db.movies[movie.id] = movie
    db.deleted.discard(movie.id)
    return movie


@app.get("/movies/{movie_id}", tags=["Movies"])
async def get_movie(movie_id: MovieID) -> Movie:
    """Read one movie."""
    return find_movie(movie_id)


@app.put("/movies/{movie_id}", tags=["Movies"])
async def replace_movie(movie_id: MovieID, movie_in: MovieIn, current_user: CurrentUser) -> Movie:
    """Replace a movie's fields."""
    movie = find_movie(movie_id)
    if "put_ignores_body" in BUG:
        return movie  # BUG put_ignores_body: the body is validated, then forgotten
    stamp = movie.updated_at if "put_freezes_updated_at" in BUG else now()  # BUG put_freezes_updated_at
    movie = movie.model_copy(update={**movie_in.model_dump(), "updated_at": stamp})
    db.movies[movie_id] = movie
    return movie


@app.patch("/movies/{movie_id}", tags=["Movies"])
async def update_movie(movie_id: MovieID, movie_in: MoviePatch, current_user: CurrentUser) -> Movie:
    """Change some fields of a movie; fields sent as null are ignored."""
    movie = find_movie(movie_id)
    changes = {k: v for k, v in movie_in.model_dump(exclude_unset=True).items() if v is not None}
    movie = movie.model_copy(update={**changes, "updated_at": now()})
    db.movies[movie_id] = movie
    return movie


@app.delete("/movies/{movie_id}", status_code=status.HTTP_204_NO_CONTENT, tags=["Movies"])
async def delete_movie(movie_id: MovieID, current_user: CurrentUser) -> None:
    """Delete a movie. Its reviews stay."""
    find_movie(movie_id)
    if "delete_noop" in BUG:
        return  # BUG delete_noop: the soft delete forgotten
    db.deleted.add(movie_id)


@app.get("/movies/{movie_id}/reviews", tags=["Movies", "Reviews"])
async def list_movie_reviews(movie_id: MovieID) -> list[Review]:
    """Read the reviews of one movie; none for a movie that does not exist."""
    return [r for r in db.reviews.values() if r.movie_id == movie_id]


# Reviews


@app.post("/reviews", status_code=status.HTTP_201_CREATED, tags=["Reviews"])
async def create_review(review_in: ReviewCreate, current_user: CurrentUser) -> Review:
    """Review a movie as the signed-in user."""
    find_movie(review_in.movie_id)
    review = Review(id=db.next_review_id, **review_in.model_dump(), author=current_user.username, created_at=now())
    db.next_review_id += 1
    db.reviews[review.id] = review
    return review


@app.get("/reviews/{review_id}", tags=["Reviews"])
async def get_review(review_id: int) -> Review:
    """Read one review."""
    review = db.reviews.get(review_id)
    if review is None:
        raise HTTPException(status_code=404, detail="Review not found")
    return review


@app.post("/reviews/{review_id}/reactions", tags=["Reviews"])
async def react(review_id: int, reaction: ReactionIn, current_user: CurrentUser) -> Review:
    """Like or dislike a review; answers the review with its counters."""
    review = db.reviews.get(review_id)
    if review is None:
        raise HTTPException(status_code=404, detail="Review not found")
    counts = Reactions() if "reaction_resets_counts" in BUG else review.reactions  # BUG reaction_resets_counts
    counts = counts.model_copy(update={reaction.kind: getattr(counts, reaction.kind) + 1})
    review = review.model_copy(update={"reactions": counts})
    db.reviews[review_id] = review
    return review


# CORS as the environment says, the crash routes when asked for, and
# POST /__reference/reset.
harness.install(app, reset)

"""The Movie and Review Service grown: movies, reviews you can write, reactions, sign-up.

A reference backend for the contract testdata/contracts/movies/openapi.json,
which is this app's own /openapi.json. It is written as the service's
backend team would write it in FastAPI, and it keeps to the conventions a
contract-driven mock derives from such a document, so that the two can be
compared answer by answer:

- records live in memory, in the order they were loaded, then created;
- a query parameter named like a property filters by equality, then
  skip/limit page;
- a relation field X_id must name an existing X when collection X has any
  records (so the app still runs on a directory without movies);
- ids: integers count on from the largest loaded one, strings are uuid4;
- author_id / user_id come from the bearer token;
- no ownership checks and no cascades: any signed-in user may change or
  delete any record, and deleting a movie or review leaves what refers to it.

Configuration comes from the environment, read once at import:

  MOVIEMOCK_REFERENCE_FIXTURES  directory with persons, users, movies, reviews
                                and reactions (.yaml, .yml or .json); default
                                testdata/contracts/movies/fixtures
  MOVIEMOCK_REFERENCE_SECRET    HS256 secret; default the mock's development secret
  MOVIEMOCK_REFERENCE_BUG       deliberate bugs to switch on, by name (see BUGS
                                below), comma-separated; default none: the app
                                is correct. An unknown name stops the app at start.
  MOVIEMOCK_REFERENCE_CHANGE    changes to the contract to make, by name (see
                                CHANGES below), comma-separated; default none:
                                the app serves testdata/contracts/movies. An
                                unknown name stops the app at start.

and the CORS and test-route settings harness.py reads. POST /__reference/reset
restores the loaded records.

Run it from the module root with:

  PYTHONPATH=testdata/fastapi-stack python3 -m uvicorn movies:app \\
      --app-dir internal/reference/app --host 127.0.0.1 --port 8000
"""

import copy
import hashlib
import json
import os
import secrets
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Annotated, Any, Literal

import harness
import jwt_hs256 as jwt  # PyJWT's API, HS256 only: PyJWT is not installed here
from fastapi import Depends, FastAPI, Header, HTTPException, Path, Query, Request, status
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel, ConfigDict, Field

FIXTURES_DIR = harness.fixtures_dir("testdata/contracts/movies/fixtures")
SECRET_KEY = os.environ.get(
    "MOVIEMOCK_REFERENCE_SECRET",
    "moviemock-development-secret-do-not-use-in-production",
)
ALGORITHM = "HS256"
ACCESS_TOKEN_EXPIRE_MINUTES = 30

# --- Deliberate bugs ----------------------------------------------------------
#
# Mutants for testing the contract runner (contract/mutants_test.go): each is
# a bug a backend team could ship, switched on by name with
# MOVIEMOCK_REFERENCE_BUG, one at a time or several (comma-separated). Every
# branch that makes one is marked "BUG <name>"; with no bug named, none of
# them runs and the app, its answers and its /openapi.json are exactly the
# correct ones.
BUGS = {
    # writes
    "create_200": "POST /movies answers 200 instead of the declared 201",
    "delete_keeps": "DELETE /reviews/{id} answers 204 but keeps the review",
    "patch_nulls": "PATCH /movies/{id} nulls the nullable fields it was not sent",
    "put_partial": "PUT /reviews/{id} without content keeps the old text instead of answering 422",
    "updated_at_frozen": "updates do not move updated_at",
    "created_id_unreadable": "a created movie or review is stored under another id than the one answered: reading it back is a 404",
    "delete_404_wrong_shape": "deleting an unknown movie or review answers 200 {} instead of 404",
    # queries
    "filter_ignored": "GET /reviews ignores movie_id",
    "limit_ignored": "lists ignore limit",
    "skip_off_by_one": "lists take skip as a 1-based position: skip=1 skips nothing",
    "nested_list_leaks": "GET /movies/{id}/reviews lists the reviews of every movie",
    "list_truncates_content": "GET /reviews cuts content to a 100-character preview that the single read does not",
    "unknown_id_500": "reading, changing or deleting an unknown review crashes (KeyError, 500)",
    # auth
    "write_no_auth": "review writes work without a token, as the first user",
    "bad_token_ok": "a token that does not decode signs in as the first user",
    "bad_signature_ok": "the token's claims are read without checking its signature",
    "me_wrong_user": "GET /users/me answers another user (the 1-based id used as a 0-based index)",
    "register_no_login": "a registered user cannot log in (the password is stored hashed, the login compares plain text)",
    "token_no_exp": "access tokens carry no exp claim",
    "wrong_password_ok": "the login checks the username only",
    # JSON-body errors
    "validation_400": "validation errors answer 400 with a string detail instead of FastAPI's 422",
    "body_422_wrong_loc": "a JSON-body validation error names the field without its \"body\" prefix",
    "extra_field_500": "a create body with an unexpected field crashes (a strict re-validation, 500)",
    "missing_body_500": "a request with no body crashes the validation-error handler (500) instead of a 422",
}
# Several at once, comma-separated: a server broken in several ways.
BUG = frozenset(name.strip() for name in os.environ.get("MOVIEMOCK_REFERENCE_BUG", "").split(",") if name.strip())
for _name in sorted(BUG - BUGS.keys()):
    raise SystemExit(f"MOVIEMOCK_REFERENCE_BUG: {_name!r} names no bug; known: {', '.join(sorted(BUGS))}")

# --- Changes to the contract ------------------------------------------------
#
# The next version of the service, one change at a time: each is what the
# backend team would write to make it, and the app's answers follow. Switched
# on by name with MOVIEMOCK_REFERENCE_CHANGE, one or several (comma-separated);
# every branch that makes one is marked "CHANGE <name>". The documents the app
# serves under each are testdata/changes/movies/<name>.json, with what a client
# of the old contract suffers from it in testdata/changes/movies/expected.json.
CHANGES = {
    # responses
    "movie_poster_removed": "Movie no longer has poster (creating a movie still takes it)",
    "review_author_removed": "Review no longer embeds its author",
    "movie_year_nullable": "a movie's year may be unknown: null in Movie, optional when creating one",
    "movie_runtime_float": "runtime is a number of minutes with decimals (float), not an integer",
    "movies_paged": "GET /movies answers a page object {items, total, skip, limit} instead of a list",
    "login_201": "POST /auth/login answers 201 instead of 200",
    # requests
    "reviews_filter_renamed": "GET /reviews takes user_id instead of author_id",
    "movie_director_required": "creating a movie needs a director (and Movie shows it)",
    "reaction_emoji_narrowed": "a new reaction can no longer be 😢 or 🔥",
    "movie_reviews_sort_required": "GET /movies/{movie_id}/reviews needs sort=newest|oldest",
    "me_client_header": "GET /users/me needs an X-Client-Version header",
    "username_max_length": "usernames are at most 20 characters, not 32",
    "limit_max_lowered": "the lists take limit up to 100, not 1000",
    "limit_default_changed": "the lists answer 20 records unless told otherwise, not 100",
    "reaction_emoji_added": "a reaction can also be ❤️, in answers and requests",
    # operations
    "movie_delete_removed": "DELETE /movies/{movie_id} is gone",
    "reviews_list_secured": "GET /reviews needs a signed-in user",
    "person_path_renamed": "GET /person/{person_id} moved to /people/{person_id}",
    # safe
    "movie_tagline_added": "Movie and MovieCreate gain an optional tagline",
    "review_spoiler_added": "ReviewCreate and Review gain an optional spoiler flag",
    "reactions_emoji_filter": "GET /reviews/{review_id}/reactions takes an optional emoji filter",
    "persons_list_added": "a new operation, GET /person, lists the people",
    "person_id_string": "the person_id path parameter is a string (the id stays an integer in Person)",
    "movie_description_changed": "GET /movies/{movie_id} is described differently",
}
CHANGE = frozenset(name.strip() for name in os.environ.get("MOVIEMOCK_REFERENCE_CHANGE", "").split(",") if name.strip())
for _name in sorted(CHANGE - CHANGES.keys()):
    raise SystemExit(f"MOVIEMOCK_REFERENCE_CHANGE: {_name!r} names no change; known: {', '.join(sorted(CHANGES))}")


def unless(change: str, route: Any) -> Any:
    """The route decorator, unless CHANGE change removes or rewrites the route.

    A rewritten route is defined again under the change, by the same name:
    FastAPI names an operation without an operation_id after its function.
    """
    return (lambda endpoint: endpoint) if change in CHANGE else route


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
    avatar: str | None = None
    role: str = "user"


class UserInDB(User):
    password: str


class UserCreate(BaseModel):
    username: str = Field(
        min_length=3,
        max_length=20 if "username_max_length" in CHANGE else 32,  # CHANGE username_max_length
        pattern=r"^[a-z0-9_]+$",
        description="Lower-case letters, digits and underscores",
    )
    password: str = Field(min_length=8, max_length=128)
    avatar: str | None = Field(default=None, max_length=2048, description="URL of an avatar image")


class Movie(BaseModel):
    id: str = Field(description="IMDb-style identifier, e.g. tt0137523")
    title: str
    original_title: str | None = None
    if "movie_year_nullable" in CHANGE:
        year: int | None = None  # CHANGE movie_year_nullable
    else:
        year: int
    genres: list[str] = []
    original_language: str = Field(default="en", description="ISO 639-1 code")
    overview: str | None = None
    if "movie_runtime_float" in CHANGE:
        runtime: float | None = Field(default=None, description="Running time in minutes")  # CHANGE movie_runtime_float
    else:
        runtime: int | None = Field(default=None, description="Running time in minutes")
    if "movie_poster_removed" not in CHANGE:  # CHANGE movie_poster_removed
        poster: str | None = None
    if "movie_director_required" in CHANGE:
        director: str | None = None  # CHANGE movie_director_required: the loaded movies have none
    if "movie_tagline_added" in CHANGE:
        tagline: str | None = None  # CHANGE movie_tagline_added
    created_at: datetime
    updated_at: datetime


Genre = Annotated[str, Field(min_length=1, max_length=40)]


class MovieCreate(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    original_title: str | None = Field(default=None, max_length=200)
    if "movie_year_nullable" in CHANGE:
        year: int | None = Field(default=None, ge=1888, le=2100)  # CHANGE movie_year_nullable
    else:
        year: int = Field(ge=1888, le=2100)
    genres: list[Genre] = Field(default=[], max_length=10)
    original_language: str = Field(default="en", pattern=r"^[a-z]{2}$")
    overview: str | None = Field(default=None, max_length=2000)
    if "movie_runtime_float" in CHANGE:
        runtime: float | None = Field(default=None, gt=0, le=1000)  # CHANGE movie_runtime_float
    else:
        runtime: int | None = Field(default=None, gt=0, le=1000)
    poster: str | None = Field(default=None, max_length=2048)
    if "movie_director_required" in CHANGE:
        director: str = Field(min_length=1, max_length=200)  # CHANGE movie_director_required
    if "movie_tagline_added" in CHANGE:
        tagline: str | None = Field(default=None, max_length=300)  # CHANGE movie_tagline_added


NULLABLE_MOVIE_FIELDS = {"original_title", "overview", "runtime", "poster"}


class MoviePatch(BaseModel):
    # A field that the movie never holds as null may be left out but not
    # sent as null (the default None is never validated), so a PATCH cannot
    # store a null that Movie would then fail to serve.
    title: str = Field(default=None, min_length=1, max_length=200)
    original_title: str | None = Field(default=None, max_length=200)
    year: int = Field(default=None, ge=1888, le=2100)
    genres: list[Genre] = Field(default=None, max_length=10)
    original_language: str = Field(default=None, pattern=r"^[a-z]{2}$")
    overview: str | None = Field(default=None, max_length=2000)
    if "movie_runtime_float" in CHANGE:
        runtime: float | None = Field(default=None, gt=0, le=1000)  # CHANGE movie_runtime_float
    else:
        runtime: int | None = Field(default=None, gt=0, le=1000)
    poster: str | None = Field(default=None, max_length=2048)


class Review(BaseModel):
    id: str = Field(description="Unique identifier of the review")
    movie_id: str = Field(description="Unique identifier of the movie reviewed")
    author_id: int = Field(description="Unique identifier of the user who wrote the review")
    content: str = Field(description="The review text")
    if "review_author_removed" not in CHANGE:  # CHANGE review_author_removed
        author: User = Field(description="Embedded data about the author")
    if "review_spoiler_added" in CHANGE:
        spoiler: bool = False  # CHANGE review_spoiler_added
    created_at: datetime
    updated_at: datetime
    reactions: dict


ReviewText = Annotated[str, Field(min_length=1, max_length=2000, description="The review text")]


class ReviewCreate(BaseModel):
    movie_id: str = Field(description="The movie reviewed")
    content: ReviewText
    if "review_spoiler_added" in CHANGE:
        spoiler: bool = Field(default=False, description="The review gives the plot away")  # CHANGE review_spoiler_added


class ReviewUpdate(BaseModel):
    content: ReviewText


class ReviewPatch(BaseModel):
    content: ReviewText = None


if "put_partial" in BUG:
    # BUG put_partial: PUT takes the PATCH model, so a field left out keeps
    # its old value rather than being required.
    ReviewUpdate = ReviewPatch  # noqa: F811


class StrictMovieCreate(MovieCreate):
    # For BUG extra_field_500: create_movie re-validates the raw body with it.
    model_config = ConfigDict(extra="forbid")


class StrictReviewCreate(ReviewCreate):
    # For BUG extra_field_500: create_review re-validates the raw body with it.
    model_config = ConfigDict(extra="forbid")


Emoji = Literal["👍", "👎", "😂", "😮", "😢", "🔥"]
if "reaction_emoji_added" in CHANGE:
    Emoji = Literal["👍", "👎", "😂", "😮", "😢", "🔥", "❤️"]  # CHANGE reaction_emoji_added


class Reaction(BaseModel):
    id: int
    review_id: str
    user_id: int
    emoji: Emoji
    created_at: datetime


class ReactionCreate(BaseModel):
    if "reaction_emoji_narrowed" in CHANGE:
        emoji: Literal["👍", "👎", "😂", "😮"]  # CHANGE reaction_emoji_narrowed
    else:
        emoji: Emoji


class Token(BaseModel):
    access_token: str
    token_type: str


# --- Data -------------------------------------------------------------------


@dataclass
class Store:
    """The records, each collection a dict in store order (loaded, then created)."""

    persons: dict[int, Person]
    users: dict[str, UserInDB]  # by username: the login looks users up by name
    movies: dict[str, Movie]
    reviews: dict[str, Review]
    reactions: dict[int, Reaction]
    next_user_id: int
    next_reaction_id: int


def _public(user: UserInDB) -> User:
    return User.model_validate(user.model_dump(exclude={"password"}))


def _must_exist(what: str, value: Any, collection: dict) -> None:
    # A relation is checked only when its collection has records.
    if collection and value not in collection:
        raise ValueError(f"{what}: no record has id {value!r}")


def _load() -> Store:
    def read(collection: str) -> list[dict[str, Any]]:
        return harness.read_records(FIXTURES_DIR, collection)

    persons = {p.id: p for p in map(Person.model_validate, read("persons"))}
    users = [UserInDB.model_validate(r) for r in read("users")]
    users_by_id = {u.id: u for u in users}
    movies = {}
    for record in read("movies"):
        movie = Movie.model_validate(record)
        movie.created_at = harness.utc(movie.created_at)
        movie.updated_at = harness.utc(movie.updated_at)
        movies[movie.id] = movie
    reviews = {}
    for record in read("reviews"):
        record = dict(record)
        author = users_by_id.get(record.get("author_id"))
        if author is None:
            raise ValueError(f"review {record.get('id')!r}: no user has id {record.get('author_id')!r}")
        given = record.pop("author", None)
        joined = _public(author)
        if given is not None and User.model_validate(given) != joined:
            raise ValueError(f"review {record.get('id')!r}: author does not match user {author.id}")
        review = Review.model_validate({**record, "author": joined})
        _must_exist(f"review {review.id!r}: movie_id", review.movie_id, movies)
        review.created_at = harness.utc(review.created_at)
        review.updated_at = harness.utc(review.updated_at)
        reviews[review.id] = review
    reactions = {}
    for record in read("reactions"):
        reaction = Reaction.model_validate(record)
        _must_exist(f"reaction {reaction.id}: review_id", reaction.review_id, reviews)
        _must_exist(f"reaction {reaction.id}: user_id", reaction.user_id, users_by_id)
        reaction.created_at = harness.utc(reaction.created_at)
        reactions[reaction.id] = reaction
    return Store(
        persons=persons,
        users={u.username: u for u in users},
        movies=movies,
        reviews=reviews,
        reactions=reactions,
        next_user_id=max(users_by_id, default=0) + 1,
        next_reaction_id=max(reactions, default=0) + 1,
    )


loaded = _load()
db = copy.deepcopy(loaded)


def export() -> dict[str, list[dict[str, Any]]]:
    """The loaded records, as fixture files hold them: under a change that
    migrates them, the fixtures of the NEW contract (testdata/changes)."""
    return {
        "persons": [p.model_dump(mode="json") for p in loaded.persons.values()],
        "users": [u.model_dump(mode="json") for u in loaded.users.values()],
        "movies": [m.model_dump(mode="json") for m in loaded.movies.values()],
        "reviews": [r.model_dump(mode="json", exclude={"author"}) for r in loaded.reviews.values()],
        "reactions": [r.model_dump(mode="json") for r in loaded.reactions.values()],
    }


def reset() -> None:
    global db
    db = copy.deepcopy(loaded)


def now() -> datetime:
    return datetime.now(timezone.utc)


def paginate(records: list, skip: int, limit: int) -> list:
    if "limit_ignored" in BUG:
        return records[skip:]  # BUG limit_ignored: no end to the page
    if "skip_off_by_one" in BUG:
        skip = max(skip - 1, 0)  # BUG skip_off_by_one: skip taken as a 1-based position
    return records[skip : skip + limit]


def updated_at(record: Any) -> datetime:
    """The updated_at an update stores: now."""
    if "updated_at_frozen" in BUG:
        return record.updated_at  # BUG updated_at_frozen: the old value stays
    return now()


# Paging parameters, as the list operations declare them.
Skip = Annotated[int, Query(ge=0, description="Number of records to skip")]
Limit = Annotated[
    int,
    # CHANGE limit_max_lowered
    Query(ge=1, le=100 if "limit_max_lowered" in CHANGE else 1000, description="Maximum number of records to return"),
]
DEFAULT_LIMIT = 20 if "limit_default_changed" in CHANGE else 100  # CHANGE limit_default_changed


# --- Security ---------------------------------------------------------------

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/auth/login")


def create_access_token(data: dict[str, Any], expires_delta: timedelta) -> str:
    to_encode = data.copy()
    issued = datetime.now(timezone.utc)
    to_encode.update({"exp": issued + expires_delta, "iat": issued})
    if "token_no_exp" in BUG:
        del to_encode["exp"]  # BUG token_no_exp: tokens never expire
    return jwt.encode(to_encode, SECRET_KEY, algorithm=ALGORITHM)


def authenticate_user(username: str, password: str) -> UserInDB | None:
    user = db.users.get(username)
    if "wrong_password_ok" in BUG:
        return user  # BUG wrong_password_ok: the password is never compared
    if user is None or not secrets.compare_digest(password.encode(), user.password.encode()):
        return None
    return user


def unverified_claims(token: str) -> dict[str, Any]:
    """For BUG bad_signature_ok: the claims, read without checking the signature."""
    try:
        claims = json.loads(jwt._b64decode(token.split(".")[1].encode()))
    except Exception as e:
        raise jwt.InvalidTokenError("Invalid payload") from e
    if not isinstance(claims, dict):
        raise jwt.InvalidTokenError("Invalid payload")
    return claims


async def get_current_user(token: Annotated[str, Depends(oauth2_scheme)]) -> UserInDB:
    credentials_exception = HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail="Could not validate credentials",
        headers={"WWW-Authenticate": "Bearer"},
    )
    try:
        if "bad_signature_ok" in BUG:
            payload = unverified_claims(token)  # BUG bad_signature_ok: anyone can sign
        else:
            payload = jwt.decode(token, SECRET_KEY, algorithms=[ALGORITHM])
    except jwt.InvalidTokenError:
        if "bad_token_ok" in BUG:
            # BUG bad_token_ok: a debugging fallback left in
            return next(iter(db.users.values()))
        raise credentials_exception
    username = payload.get("sub")
    if username is None:
        raise credentials_exception
    user = db.users.get(username)
    if user is None:
        raise credentials_exception
    return user


CurrentUser = Annotated[UserInDB, Depends(get_current_user)]


optional_oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/auth/login", auto_error=False)


async def get_review_writer(token: Annotated[str | None, Depends(optional_oauth2_scheme)]) -> UserInDB:
    """For BUG write_no_auth: the signed-in user, or without a token the first user."""
    if token is None:
        return next(iter(db.users.values()))
    return await get_current_user(token)


# Who writes reviews: the signed-in user.
ReviewWriter = CurrentUser
if "write_no_auth" in BUG:
    # BUG write_no_auth: review writes made optional-auth for a demo, and left so.
    ReviewWriter = Annotated[UserInDB, Depends(get_review_writer)]


# --- Application ------------------------------------------------------------

app = FastAPI(
    title="Movie and Review Service",
    description=(
        "A movie-oriented information service: film-industry people, movies, "
        "reviews with an embedded author, emoji reactions to reviews, and user "
        "accounts with a password login that returns a JWT access token."
    ),
    version="1.0.0",
)

if "validation_400" in BUG:

    @app.exception_handler(RequestValidationError)
    async def validation_error_400(request: Request, exc: RequestValidationError) -> JSONResponse:
        # BUG validation_400: the team's own error format, not FastAPI's 422.
        return JSONResponse({"detail": "Invalid request: " + "; ".join(e["msg"] for e in exc.errors())}, status_code=400)


if "body_422_wrong_loc" in BUG:

    @app.exception_handler(RequestValidationError)
    async def validation_error_field_names(request: Request, exc: RequestValidationError) -> JSONResponse:
        # BUG body_422_wrong_loc: for the front end's form library, a JSON
        # body's errors name the field alone, without "body".
        errors = exc.errors()
        if request.headers.get("content-type", "").startswith("application/json"):
            errors = [{**e, "loc": tuple(e["loc"])[1:] if tuple(e["loc"])[:1] == ("body",) else e["loc"]} for e in errors]
        return await request_validation_exception_handler(request, RequestValidationError(errors, body=exc.body))


if "missing_body_500" in BUG:

    @app.exception_handler(RequestValidationError)
    async def validation_error_logged(request: Request, exc: RequestValidationError) -> JSONResponse:
        if any(tuple(e["loc"])[:1] == ("body",) for e in exc.errors()):
            # BUG missing_body_500: logs the fields sent; with no body at all
            # exc.body is None, and sorted(None) is a TypeError.
            print("invalid body with fields", sorted(exc.body))
        return await request_validation_exception_handler(request, exc)


MovieID = Annotated[str, Path(description="Unique identifier of a movie")]
ReviewID = Annotated[str, Path(description="Unique identifier of a review")]


def find_movie(movie_id: str) -> Movie:
    movie = db.movies.get(movie_id)
    if movie is None:
        raise HTTPException(status_code=404, detail="Movie not found")
    return movie


def find_review(review_id: str) -> Review:
    if "unknown_id_500" in BUG:
        return db.reviews[review_id]  # BUG unknown_id_500: KeyError for an unknown id
    review = db.reviews.get(review_id)
    if review is None:
        raise HTTPException(status_code=404, detail="Review not found")
    return review


def check_movie(movie_id: str) -> None:
    # Only when there are movies at all: run on a directory without a
    # movies file, reviews may name any movie.
    if db.movies and movie_id not in db.movies:
        raise HTTPException(status_code=404, detail="Movie not found")


def check_review(review_id: str) -> None:
    if db.reviews and review_id not in db.reviews:
        raise HTTPException(status_code=404, detail="Review not found")


# People


PersonKey = str if "person_id_string" in CHANGE else int  # CHANGE person_id_string
PERSON_PATH = "/people" if "person_path_renamed" in CHANGE else "/person"  # CHANGE person_path_renamed


if "persons_list_added" in CHANGE:

    @app.get(PERSON_PATH, tags=["People"], operation_id="listPersons")
    async def list_persons(skip: Skip = 0, limit: Limit = DEFAULT_LIMIT) -> list[Person]:
        """CHANGE persons_list_added: read film-industry people, a page at a time."""
        return paginate(list(db.persons.values()), skip, limit)


@app.get(PERSON_PATH + "/{person_id}", tags=["People"], operation_id="getPerson")
async def get_person(
    person_id: Annotated[PersonKey, Path(description="Unique identifier of a person")],
) -> Person:
    """Read one film-industry person with biography data."""
    person = db.persons.get(int(person_id)) if str(person_id).isdigit() else None
    if person is None:
        raise HTTPException(status_code=404, detail="Person not found")
    return person


# Auth and users


@app.post(
    "/auth/login",
    status_code=status.HTTP_201_CREATED if "login_201" in CHANGE else None,  # CHANGE login_201
    tags=["Auth"],
    operation_id="login",
)
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


@app.post("/users", status_code=status.HTTP_201_CREATED, tags=["Users"], operation_id="registerUser")
async def register_user(user_in: UserCreate) -> User:
    """Create an account; log in with it at /auth/login."""
    if user_in.username in db.users:
        raise HTTPException(status_code=400, detail="Username already registered")
    user = UserInDB(id=db.next_user_id, **user_in.model_dump())
    if "register_no_login" in BUG:
        # BUG register_no_login: stored hashed, while the login compares plain text.
        user.password = hashlib.sha256(user.password.encode()).hexdigest()
    db.next_user_id += 1
    db.users[user.username] = user
    return _public(user)


async def client_version(
    x_client_version: Annotated[str, Header(description="Version of the calling client, e.g. 2.4.0")],
) -> None:
    """For CHANGE me_client_header: the client must say which version it is."""


@app.get(
    "/users/me",
    tags=["Users"],
    operation_id="readCurrentUser",
    dependencies=[Depends(client_version)] if "me_client_header" in CHANGE else None,  # CHANGE me_client_header
)
async def read_current_user(current_user: CurrentUser) -> User:
    """Read the signed-in user."""
    if "me_wrong_user" in BUG:
        users = list(db.users.values())
        # BUG me_wrong_user: the 1-based id used as a 0-based index.
        return _public(users[current_user.id % len(users)])
    return _public(current_user)


# Movies


def movies_matching(year: int | None, original_language: str | None) -> list[Movie]:
    return [
        m
        for m in db.movies.values()
        if (year is None or m.year == year) and (original_language is None or m.original_language == original_language)
    ]


@unless("movies_paged", app.get("/movies", tags=["Movies"], operation_id="listMovies"))
async def list_movies(
    year: Annotated[int | None, Query(description="Only movies released this year")] = None,
    original_language: Annotated[str | None, Query(description="Only movies in this language (ISO 639-1)")] = None,
    skip: Skip = 0,
    limit: Limit = DEFAULT_LIMIT,
) -> list[Movie]:
    """Read movies, optionally filtered, a page at a time."""
    return paginate(movies_matching(year, original_language), skip, limit)


if "movies_paged" in CHANGE:

    class MoviePage(BaseModel):
        items: list[Movie]
        total: int
        skip: int
        limit: int

    @app.get("/movies", tags=["Movies"], operation_id="listMovies")
    async def list_movies(  # noqa: F811
        year: Annotated[int | None, Query(description="Only movies released this year")] = None,
        original_language: Annotated[str | None, Query(description="Only movies in this language (ISO 639-1)")] = None,
        skip: Skip = 0,
        limit: Limit = DEFAULT_LIMIT,
    ) -> MoviePage:
        """Read movies, optionally filtered, a page at a time."""
        # CHANGE movies_paged: the page in an object that also says the total.
        movies = movies_matching(year, original_language)
        return MoviePage(items=paginate(movies, skip, limit), total=len(movies), skip=skip, limit=limit)


@app.get(
    "/movies/{movie_id}",
    tags=["Movies"],
    operation_id="getMovie",
    # CHANGE movie_description_changed
    description="Read one movie: its details, without its reviews." if "movie_description_changed" in CHANGE else None,
)
async def get_movie(movie_id: MovieID) -> Movie:
    """Read one movie."""
    return find_movie(movie_id)


@app.post(
    "/movies",
    # BUG create_200: the status_code left out.
    status_code=status.HTTP_200_OK if "create_200" in BUG else status.HTTP_201_CREATED,
    tags=["Movies"],
    operation_id="createMovie",
)
async def create_movie(movie_in: MovieCreate, current_user: CurrentUser, request: Request) -> Movie:
    """Add a movie."""
    if "extra_field_500" in BUG:
        # BUG extra_field_500: a pydantic ValidationError here is no 422 but a 500.
        StrictMovieCreate.model_validate(await request.json())
    created = now()
    movie = Movie(id=str(uuid.uuid4()), **movie_in.model_dump(), created_at=created, updated_at=created)
    if "created_id_unreadable" in BUG:
        db.movies[str(uuid.uuid4())] = movie  # BUG created_id_unreadable: a second uuid4() for the key
        return movie
    db.movies[movie.id] = movie
    return movie


@app.patch("/movies/{movie_id}", tags=["Movies"], operation_id="updateMovie")
async def update_movie(movie_id: MovieID, movie_in: MoviePatch, current_user: CurrentUser) -> Movie:
    """Change some fields of a movie."""
    movie = find_movie(movie_id)
    changes = movie_in.model_dump(exclude_unset=True)
    if "patch_nulls" in BUG:
        # BUG patch_nulls: every field but those None would break (the
        # non-nullable ones), sent or not.
        changes = {k: v for k, v in movie_in.model_dump().items() if v is not None or k in NULLABLE_MOVIE_FIELDS}
    movie = movie.model_copy(update={**changes, "updated_at": updated_at(movie)})
    db.movies[movie_id] = movie
    return movie


@unless(
    "movie_delete_removed",
    app.delete(
        "/movies/{movie_id}",
        status_code=status.HTTP_204_NO_CONTENT,
        tags=["Movies"],
        operation_id="deleteMovie",
    ),
)
async def delete_movie(movie_id: MovieID, current_user: CurrentUser) -> None:
    """Delete a movie. Its reviews stay."""
    if "delete_404_wrong_shape" in BUG and movie_id not in db.movies:
        return JSONResponse({}, status_code=200)  # BUG delete_404_wrong_shape: "already gone" is a success
    find_movie(movie_id)
    del db.movies[movie_id]


@unless(
    "movie_reviews_sort_required",
    app.get("/movies/{movie_id}/reviews", tags=["Movies", "Reviews"], operation_id="listMovieReviews"),
)
async def list_movie_reviews(movie_id: MovieID) -> list[Review]:
    """Read the reviews of one movie."""
    check_movie(movie_id)
    if "nested_list_leaks" in BUG:
        return list(db.reviews.values())  # BUG nested_list_leaks: the filter forgotten
    return [r for r in db.reviews.values() if r.movie_id == movie_id]


if "movie_reviews_sort_required" in CHANGE:

    @app.get("/movies/{movie_id}/reviews", tags=["Movies", "Reviews"], operation_id="listMovieReviews")
    async def list_movie_reviews(  # noqa: F811
        movie_id: MovieID,
        sort: Annotated[Literal["newest", "oldest"], Query(description="Newest or oldest first")],
    ) -> list[Review]:
        """Read the reviews of one movie."""
        # CHANGE movie_reviews_sort_required: the order is the client's to choose, and it must.
        check_movie(movie_id)
        reviews = [r for r in db.reviews.values() if r.movie_id == movie_id]
        return sorted(reviews, key=lambda r: r.created_at, reverse=sort == "newest")


# Reviews


def reviews_matching(movie_id: str | None, author_id: int | None, skip: int, limit: int) -> list[Review]:
    if "filter_ignored" in BUG:
        movie_id = None  # BUG filter_ignored: the parameter is declared but never used
    reviews = [
        r
        for r in db.reviews.values()
        if (movie_id is None or r.movie_id == movie_id) and (author_id is None or r.author_id == author_id)
    ]
    if "list_truncates_content" in BUG:
        # BUG list_truncates_content: lists serve a preview of the text.
        reviews = [r.model_copy(update={"content": r.content[:100]}) for r in reviews]
    return paginate(reviews, skip, limit)


# CHANGE reviews_list_secured
REVIEWS_LIST_DEPENDENCIES = [Depends(get_current_user)] if "reviews_list_secured" in CHANGE else None


@unless(
    "reviews_filter_renamed",
    app.get("/reviews", tags=["Reviews"], operation_id="listReviews", dependencies=REVIEWS_LIST_DEPENDENCIES),
)
async def list_reviews(
    movie_id: Annotated[str | None, Query(description="Only reviews of this movie")] = None,
    author_id: Annotated[int | None, Query(description="Only reviews by this user")] = None,
    skip: Skip = 0,
    limit: Limit = DEFAULT_LIMIT,
) -> list[Review]:
    """Read reviews, optionally filtered, a page at a time."""
    return reviews_matching(movie_id, author_id, skip, limit)


if "reviews_filter_renamed" in CHANGE:

    @app.get("/reviews", tags=["Reviews"], operation_id="listReviews", dependencies=REVIEWS_LIST_DEPENDENCIES)
    async def list_reviews(  # noqa: F811
        movie_id: Annotated[str | None, Query(description="Only reviews of this movie")] = None,
        user_id: Annotated[int | None, Query(description="Only reviews by this user")] = None,
        skip: Skip = 0,
        limit: Limit = DEFAULT_LIMIT,
    ) -> list[Review]:
        """Read reviews, optionally filtered, a page at a time."""
        # CHANGE reviews_filter_renamed: author_id is now user_id.
        return reviews_matching(movie_id, user_id, skip, limit)


@app.get("/reviews/{review_id}", tags=["Reviews"], operation_id="getReview")
async def get_review(review_id: ReviewID) -> Review:
    """Read one review of a movie."""
    return find_review(review_id)


@app.post("/reviews", status_code=status.HTTP_201_CREATED, tags=["Reviews"], operation_id="createReview")
async def create_review(review_in: ReviewCreate, current_user: ReviewWriter, request: Request) -> Review:
    """Write a review of a movie as the signed-in user."""
    if "extra_field_500" in BUG:
        # BUG extra_field_500: a pydantic ValidationError here is no 422 but a 500.
        StrictReviewCreate.model_validate(await request.json())
    check_movie(review_in.movie_id)
    created = now()
    review = Review(
        id=str(uuid.uuid4()),
        **review_in.model_dump(),
        author_id=current_user.id,
        author=_public(current_user),
        created_at=created,
        updated_at=created,
        reactions={},
    )
    if "created_id_unreadable" in BUG:
        db.reviews[str(uuid.uuid4())] = review  # BUG created_id_unreadable: a second uuid4() for the key
        return review
    db.reviews[review.id] = review
    return review


@app.put("/reviews/{review_id}", tags=["Reviews"], operation_id="replaceReview")
async def replace_review(review_id: ReviewID, review_in: ReviewUpdate, current_user: ReviewWriter) -> Review:
    """Replace the text of a review."""
    review = find_review(review_id)
    # BUG put_partial: only the fields sent.
    replacement = review_in.model_dump(exclude_unset="put_partial" in BUG)
    review = review.model_copy(update={**replacement, "updated_at": updated_at(review)})
    db.reviews[review_id] = review
    return review


@app.patch("/reviews/{review_id}", tags=["Reviews"], operation_id="updateReview")
async def update_review(review_id: ReviewID, review_in: ReviewPatch, current_user: ReviewWriter) -> Review:
    """Change some fields of a review."""
    review = find_review(review_id)
    review = review.model_copy(update={**review_in.model_dump(exclude_unset=True), "updated_at": updated_at(review)})
    db.reviews[review_id] = review
    return review


@app.delete(
    "/reviews/{review_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    tags=["Reviews"],
    operation_id="deleteReview",
)
async def delete_review(review_id: ReviewID, current_user: ReviewWriter) -> None:
    """Delete a review. Its reactions stay."""
    if "delete_404_wrong_shape" in BUG and review_id not in db.reviews:
        return JSONResponse({}, status_code=200)  # BUG delete_404_wrong_shape: "already gone" is a success
    find_review(review_id)
    if "delete_keeps" in BUG:
        return  # BUG delete_keeps: the record stays
    del db.reviews[review_id]


# Reactions


@unless(
    "reactions_emoji_filter",
    app.get("/reviews/{review_id}/reactions", tags=["Reactions"], operation_id="listReactions"),
)
async def list_reactions(review_id: ReviewID) -> list[Reaction]:
    """Read the reactions to one review."""
    check_review(review_id)
    return [r for r in db.reactions.values() if r.review_id == review_id]


if "reactions_emoji_filter" in CHANGE:

    @app.get("/reviews/{review_id}/reactions", tags=["Reactions"], operation_id="listReactions")
    async def list_reactions(  # noqa: F811
        review_id: ReviewID,
        emoji: Annotated[Emoji | None, Query(description="Only reactions with this emoji")] = None,
    ) -> list[Reaction]:
        """Read the reactions to one review."""
        # CHANGE reactions_emoji_filter
        check_review(review_id)
        return [r for r in db.reactions.values() if r.review_id == review_id and (emoji is None or r.emoji == emoji)]


@app.post(
    "/reviews/{review_id}/reactions",
    status_code=status.HTTP_201_CREATED,
    tags=["Reactions"],
    operation_id="createReaction",
)
async def create_reaction(review_id: ReviewID, reaction_in: ReactionCreate, current_user: CurrentUser) -> Reaction:
    """React to a review as the signed-in user."""
    check_review(review_id)
    reaction = Reaction(
        id=db.next_reaction_id,
        review_id=review_id,
        user_id=current_user.id,
        **reaction_in.model_dump(),
        created_at=now(),
    )
    db.next_reaction_id += 1
    db.reactions[reaction.id] = reaction
    return reaction


# CORS as the environment says, the crash routes when asked for, and
# POST /__reference/reset.
harness.install(app, reset)

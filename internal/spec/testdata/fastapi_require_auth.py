"""The Movie and Review Service's operations as a FastAPI app whose GET
routes depend on OAuth2PasswordBearer(tokenUrl="auth/login"), the way the
backend protects them. Prints the /openapi.json it serves.

Run by spec's tests (go test ./internal/spec/ -run FastAPI -update) with
PYTHONPATH pointing at a FastAPI install.
"""

import json
from typing import Annotated

from fastapi import Depends, FastAPI, Path
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel

app = FastAPI(
    title="Movie and Review Service",
    description="A movie-oriented information service: film-industry people, a password login that returns a JWT access token, and movie reviews with an embedded author and a reactions object.",
)
oauth2_scheme = OAuth2PasswordBearer(tokenUrl="auth/login")
Token = Annotated[str, Depends(oauth2_scheme)]


class Person(BaseModel):
    id: int
    name: str


class Review(BaseModel):
    id: str


class AccessToken(BaseModel):
    access_token: str
    token_type: str


@app.get("/person/{person_id}", tags=["People"], summary="Get Person",
         description="Read one film-industry person with biography data.", operation_id="getPerson")
def get_person(person_id: Annotated[int, Path(description="Unique identifier of a person")], token: Token) -> Person:
    raise NotImplementedError


@app.post("/auth/login", tags=["Auth"], summary="Login",
          description="Authenticate with a username and password and receive a JWT access token.", operation_id="login")
def login(form: Annotated[OAuth2PasswordRequestForm, Depends()]) -> AccessToken:
    raise NotImplementedError


@app.get("/reviews/{review_id}", tags=["Reviews"], summary="Get Review",
         description="Read one review of a movie.", operation_id="getReview")
def get_review(review_id: Annotated[str, Path(description="Unique identifier of a review")], token: Token) -> Review:
    raise NotImplementedError


@app.get("/reviews", tags=["Reviews"], summary="Get Reviews",
         description="Read the list of reviews.", operation_id="listReviews")
def list_reviews(token: Token) -> list[Review]:
    raise NotImplementedError


# Starlette's JSONResponse rendering, as GET /openapi.json sends it.
print(json.dumps(app.openapi(), ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")), end="")

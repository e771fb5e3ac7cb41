"""Ground truth for fastapi.JSONBody: run the real FastAPI on a table of
request bodies and record exactly what it answers.

    PYTHONPATH=../../../testdata/fastapi-stack python3 jsonbody_cases.py

(from internal/fastapi/testdata; the stack is FastAPI 0.141.1, Starlette
1.3.1, pydantic 2.13.4 on Python 3.11). EmailStr needs email-validator 2.x
(2.3.0 recorded these cases) on the path as well; Debian 12's
python3-email-validator (1.3.0) is too old for pydantic 2. It writes jsonbody_openapi.json,
the document the app serves, and jsonbody_cases.json, one record per case:
path, content_type (null: no header; each character is one byte of the
header, as Starlette reads it as latin-1), body (text, or body_b64 for
bytes that are not UTF-8), status and response (the body FastAPI sent).

The endpoints answer a valid body with {"set": [...], "dump": {...}}: the
fields the client set, in declaration order, and model_dump(mode="json")
written as Starlette writes JSON (compact, non-ASCII raw, allow_nan=False,
UTF-8), so that what the mock hands its handlers is checked too. The app
is called in-process (ASGI), not through uvicorn: the answers are the
same except for the nesting depth at which Python's recursion limit is
reached, which the cases keep well away from.
"""

import asyncio
import base64
import json
import os
import sys
from datetime import date, datetime, time, timedelta
from enum import Enum, IntEnum
from typing import Annotated, Any, Literal, Optional
from uuid import UUID

from fastapi import Body, FastAPI
from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response
from pydantic import AnyUrl, BaseModel, ConfigDict, EmailStr, Field, HttpUrl


class Genre(str, Enum):
    drama = "drama"
    comedy = "comedy"
    horror = "horror"


class Stars(IntEnum):
    one = 1
    two = 2
    three = 3


class Author(BaseModel):
    name: str = Field(min_length=2, max_length=20)
    age: Optional[int] = Field(default=None, ge=0)


class Tag(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str
    weight: float = 1.0


class ReviewCreate(BaseModel):
    movie_id: str = Field(pattern=r"^tt\d{2,}$", min_length=3, max_length=12)
    rating: int = Field(ge=1, le=10)
    content: str
    score: float = Field(default=2.5, gt=0, lt=5)
    spoiler: bool = False
    mood: Optional[Literal["happy", "sad", "meh"]] = None
    genre: Genre = Genre.drama
    stars: Optional[Stars] = None
    tags: list[str] = []
    counts: dict[str, int] = {}
    author: Optional[Author] = None
    labels: list[Tag] = Field(default=[], max_length=3)


class Scalars(BaseModel):
    i: int = 0
    f: float = 0.0
    s: str = ""
    b: bool = False
    n: Optional[int] = None
    nf: Optional[float] = None
    a: Any = None
    d: dict = {}
    l: list = []
    one: Literal["x"] = "x"
    nums: Literal[1, 2] = 1
    mix: Literal["a", 1, True, None] = "a"
    fl: float = Field(default=1.0, ge=0.5, le=100, multiple_of=0.5)
    fi: float = Field(default=1, ge=0)
    im: int = Field(default=0, multiple_of=3, ge=-9)
    short: str = Field(default="a", min_length=1, max_length=1)
    ll: list[list[int]] = Field(default=[[1]], min_length=1)
    req: Optional[str]
    nodef: str = None  # FastAPI leaves "default": null out of the schema


class Times(BaseModel):
    d: Optional[date] = None
    dt: Optional[datetime] = None
    t: Optional[time] = None
    u: Optional[UUID] = None
    day: date = date(2024, 1, 1)


class Patterns(BaseModel):
    digits: Optional[str] = Field(default=None, pattern=r"^\d+$")
    word: Optional[str] = Field(default=None, pattern=r"^\w+$")
    space: Optional[str] = Field(default=None, pattern=r"^a\sb$")
    bound: Optional[str] = Field(default=None, pattern=r"\bcat\b")
    nondigit: Optional[str] = Field(default=None, pattern=r"^\D+$")
    cls: Optional[str] = Field(default=None, pattern=r"^[\w-]+$")
    ci: Optional[str] = Field(default=None, pattern=r"(?i)^abc$")
    dot: Optional[str] = Field(default=None, pattern=r"^.$")
    nl: Optional[str] = Field(default=None, pattern=r"^a$")


class Nested(BaseModel):
    model_config = ConfigDict(extra="forbid")
    m: dict[str, list[int]] = {}
    authors: dict[str, Author] = {}
    tags: list[Tag] = Field(default=[], max_length=2)
    matrix: list[list[float]] = []
    genres: list[Genre] = []


class Quirky(BaseModel):
    emoji: Literal["👍", "it's", 'say "hi"', "tab\t", "é", "\u200b"] = "👍"
    tags: list[Annotated[str, Field(min_length=1, max_length=3)]] = Field(default=[], max_length=2)
    runtime: Optional[int] = Field(default=None, gt=0, le=1000)
    big: int = Field(default=0, le=10**30)
    ratio: float = Field(default=0.5, ge=0, le=1)


class Node(BaseModel):
    name: str
    children: list["Node"] = []


class Sets(BaseModel):
    # A set of str dumps in hash order, which changes with every process:
    # the cases give str sets at most one distinct item, int sets small
    # ascending ones (an int hashes to itself).
    tags: set[str] = set()
    nums: set[int] = Field(default={1}, min_length=1, max_length=3)
    floats: set[float] = set()
    models: list[set[int]] = []


class Links(BaseModel):
    url: HttpUrl
    any: Optional[AnyUrl] = None
    urls: list[HttpUrl] = []


class Durations(BaseModel):
    d: timedelta
    opt: Optional[timedelta] = None


class Blobs(BaseModel):
    model_config = ConfigDict(val_json_bytes="base64", ser_json_bytes="base64")
    data: bytes
    raw: Optional[bytes] = None


class Emails(BaseModel):
    email: EmailStr
    other: Optional[EmailStr] = None


class SizedEmails(BaseModel):
    # The full-stack FastAPI template's UserRegister: EmailStr = Field(max_length=255).
    email: EmailStr = Field(min_length=14, max_length=20)
    other: Optional[EmailStr] = Field(default=None, max_length=16)


class RawBytes(BaseModel):
    data: bytes


app = FastAPI()


def starlette_json(content: Any) -> bytes:
    return json.dumps(
        content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


def echo(m: Optional[BaseModel]) -> Response:
    if m is None:
        return Response(b"null", media_type="application/json")
    names = list(type(m).model_fields)
    content = {
        "set": [n for n in names if n in m.model_fields_set],
        "dump": m.model_dump(mode="json"),
    }
    return Response(starlette_json(content), media_type="application/json")


@app.post("/reviews")
def reviews(r: ReviewCreate):
    return echo(r)


@app.post("/scalars")
def scalars(r: Scalars):
    return echo(r)


@app.post("/times")
def times(r: Times):
    return echo(r)


@app.post("/patterns")
def patterns(r: Patterns):
    return echo(r)


@app.post("/nested")
def nested(r: Nested):
    return echo(r)


@app.post("/quirky")
def quirky(r: Quirky):
    return echo(r)


@app.post("/tree")
def tree(r: Node):
    return echo(r)


@app.post("/strict")
def strict(r: Tag):
    return echo(r)


@app.post("/optional")
def optional(r: Optional[Author] = None):
    return echo(r)


@app.post("/maybe")
def maybe(r: Author = None):
    return echo(r)


@app.post("/embed")
def embed(r: Author = Body(embed=True), n: int = Body(ge=1), o: Optional[int] = Body(None)):
    given = {"r": r, "n": n, "o": o}
    content = {
        "set": [k for k, v in given.items() if v is not None],
        "dump": {"r": r.model_dump(mode="json"), "n": n, "o": o},
    }
    return Response(starlette_json(content), media_type="application/json")


@app.post("/sets")
def sets(r: Sets):
    return echo(r)


@app.post("/links")
def links(r: Links):
    return echo(r)


@app.post("/durations")
def durations(r: Durations):
    return echo(r)


@app.post("/blobs")
def blobs(r: Blobs):
    return echo(r)


@app.post("/emails")
def emails(r: Emails):
    return echo(r)


@app.post("/sized-emails")
def sized_emails(r: SizedEmails):
    return echo(r)


@app.post("/rawbytes")
def rawbytes(r: RawBytes):
    return echo(r)


def echo_any(v: Any) -> Response:
    """A body that is not a model: the value the endpoint received, as
    jsonable_encoder and Starlette write it."""
    return Response(starlette_json({"dump": jsonable_encoder(v)}), media_type="application/json")


@app.post("/ints")
def ints(numbers: list[int] = Body()):
    return echo_any(numbers)


@app.post("/weights")
def weights(w: dict[str, float]):
    return echo_any(w)


@app.post("/taglist")
def taglist(tags: list[Tag]):
    return echo_any(tags)


@app.post("/count")
def count(n: int = Body(ge=1)):
    return echo_any(n)


@app.post("/maybe-ints")
def maybe_ints(xs: Optional[list[int]] = Body(None)):
    return echo_any(xs)


@app.post("/bounded")
def bounded(xs: list[Annotated[str, Field(max_length=2)]] = Body(min_length=1, max_length=2)):
    return echo_any(xs)


async def call(path: str, content_type: Optional[bytes], body: bytes) -> tuple[int, bytes]:
    headers = [(b"host", b"testserver")]
    if content_type is not None:
        headers.append((b"content-type", content_type))
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
        "method": "POST" if body is not None else "GET", "scheme": "http", "path": path,
        "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": headers, "server": ("testserver", 80), "client": ("testclient", 50000),
    }
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body or b"", "more_body": False}
        await asyncio.sleep(3600)

    status, out = 0, b""

    async def send(message):
        nonlocal status, out
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            out += message.get("body", b"")

    try:
        await app(scope, receive, send)
    except Exception:  # ServerErrorMiddleware has sent its 500 and re-raises
        pass
    return status, out


J = "application/json"
CASES: list[tuple[str, str, Optional[str], Any]] = []


def case(name, path, body, content_type=J):
    CASES.append((name, path, content_type, body))


OK_REVIEW = '{"movie_id":"tt42","rating":5,"content":"Great"}'

# --- Content-Type: FastAPI 0.141 parses JSON only for application/json and
# application/*+json; a missing or other type leaves the body as bytes.
case("valid minimal review", "/reviews", OK_REVIEW)
for ct in [
    None, "", "application/json; charset=utf-8", "APPLICATION/JSON", "Application/Json; Charset=UTF-8",
    "application/vnd.api+json", "application/merge-patch+json", "application/+json", "text/plain",
    "text/json", "application/jsonx", "application/json/x", "application/ json", "application /json",
    "application", ";application/json", " application/json ", "application/json\xa0", "application/json\x85",
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json;", "application/json ; x=y",
    "application/problem+JSON", "*/*", "application/json, text/plain",
]:
    case(f"content type {ct!r}", "/reviews", OK_REVIEW, ct)
case("no content type, empty body", "/reviews", "", None)
case("text/plain, empty body", "/reviews", "", "text/plain")
case("text/plain, undecodable bytes", "/reviews", b'{"a":"\xff"}', "text/plain")
case("no content type, non-ASCII text", "/reviews", '{"content":"Björk"}', None)
case("optional body, text/plain", "/optional", "x", "text/plain")
case("optional body, no content type, empty", "/optional", "", None)

# --- Absent bodies.
case("empty body", "/reviews", "")
case("null body", "/reviews", "null")
case("null body with spaces", "/reviews", " null\n")
case("optional body empty", "/optional", "")
case("optional body null", "/optional", "null")
case("optional body given", "/optional", '{"name":"Jo"}')
case("optional body invalid", "/optional", '{"name":"J"}')
case("optional body list", "/optional", "[]")

# --- Python's json.loads errors: json_invalid with loc ["body", pos].
for body in [
    " ", "{", '{"a"', '{"a":', '{"a":1', '{"a":1,', '{"a" 1}', "{a:1}", "[1,]", "[1 2]", '"abc', '"a\\x"',
    '"\\u12"', '"\\u12x4"', '"\\ud800\\u12"', '"\\ud800\\udc0"', '"a\x01"', '"a\x1f"', "1 2", "01", "-", "-a",
    "1.", "1e", "1e+", "nul", "tru", "fals", "Nan", "-Inf", "[", "[1", '{"a":1 "b":2}', '{"a":1,}', "{}x",
    '{"movie_id":"tt42"} {}', "\ufeff{}", '"\\u1234', '"\\', '"\\u', "[-]", "[.5]", "[+1]", "[0x10]", "[1e5x]",
    '{"a":"\\u00e9\\x"}', '{"é":1,}', "[\"\u00e9\", x]", '{"a":\'b\'}', "[1]]", "\t\n\r x", "\x0c{}", "{\x0b}",
    '{"a":1}\x00', '{"k\nv":1}', "[" * 3 + "]" * 2, "\u3000{}",
]:
    case(f"json_invalid {body!r}", "/reviews", body)
case("json_invalid position counts characters not bytes", "/reviews", '{"content":"Björk 久石 🎬", x}')
case("json_invalid in UTF-16", "/reviews", "{x}".encode("utf-16"))

# --- Encodings Python's json.loads detects; undecodable bytes are a 400.
case("UTF-8 BOM", "/reviews", b"\xef\xbb\xbf" + OK_REVIEW.encode())
case("two UTF-8 BOMs", "/reviews", b"\xef\xbb\xbf\xef\xbb\xbf" + OK_REVIEW.encode())
case("UTF-16 with BOM", "/reviews", OK_REVIEW.encode("utf-16"))
case("UTF-16-LE", "/reviews", OK_REVIEW.encode("utf-16-le"))
case("UTF-16-BE", "/reviews", OK_REVIEW.encode("utf-16-be"))
case("UTF-32 with BOM", "/reviews", OK_REVIEW.encode("utf-32"))
case("UTF-32-LE", "/reviews", OK_REVIEW.encode("utf-32-le"))
case("UTF-32-BE", "/reviews", OK_REVIEW.encode("utf-32-be"))
case("UTF-16 odd length", "/reviews", OK_REVIEW.encode("utf-16-le") + b"}")
case("latin-1 byte", "/reviews", b'{"content":"Bj\xf6rk"}')
case("invalid UTF-8 start byte", "/reviews", b'{"content":"\xff"}')
case("truncated UTF-8", "/reviews", b'{"content":"\xe4\xb9"}')
case("overlong UTF-8", "/reviews", b'{"content":"\xc0\xaf"}')
case("UTF-8 encoded surrogate passes", "/reviews", b'{"movie_id":"tt42","rating":5,"content":"\xed\xa0\x80"}')
case("two bytes, a NUL first", "/reviews", b"\x00{")
case("four bytes UTF-16-BE guess", "/reviews", b"\x00{\x00}")
case("UTF-16 lone surrogate passes", "/reviews", '{"movie_id":"tt42","rating":5,"content":"'.encode("utf-16-le") + b"\x00\xd8" + '"}'.encode("utf-16-le"))
case("integer of 4301 digits", "/reviews", '{"rating":' + "1" * 4301 + "}")
case("negative integer of 4300 digits", "/scalars", '{"req":null,"a":-' + "1" * 4300 + "}")
case("nesting 2000 deep", "/reviews", "[" * 2000 + "]" * 2000)
case("nesting 100 deep in Any", "/scalars", '{"req":null,"a":' + "[" * 100 + "]" * 100 + "}")

# --- The body is not an object.
for body in ["[]", '["x"]', '"text"', "1", "1.5", "true", "false", "{}", "[{}]"]:
    case(f"body {body}", "/reviews", body)

# --- Fields: missing, types and coercions.
case("all missing", "/reviews", "{}")
case("missing with other keys", "/reviews", '{"x":1,"content":"c"}')
case("duplicate keys: first place, last value", "/reviews", '{"rating":0,"movie_id":"x","rating":11}')
case("every field", "/reviews", json.dumps({
    "movie_id": "tt0111161", "rating": 10, "content": "Björk 久石 🎬 <&> \u2028", "score": 4.5, "spoiler": True,
    "mood": "sad", "genre": "horror", "stars": 2, "tags": ["a", "b"], "counts": {"x": 1, "y": "2"},
    "author": {"name": "Ann", "age": 30}, "labels": [{"label": "l"}, {"label": "m", "weight": 2}],
}, ensure_ascii=False))
for v in ["true", "false", "1.0", "1999.5", '"12"', '" 12 "', '"1_0"', '"1.0"', '"abc"', '""', "null", "[]", "{}", "1e1",
          "-0", "1e20", "9223372036854775807", "9223372036854775808", "1" + "0" * 30, '"' + "9" * 30 + '"', "Infinity",
          "NaN", '"+5"', '"0x10"', '"٣"', "5.000000000000001", "10.0", "11", "0"]:
    case(f"int field {v}", "/reviews", '{"movie_id":"tt42","content":"c","rating":' + v + "}")
for v in ["1", "true", '"1.5"', '" 2.5 "', '"inf"', '"nan"', '"1e400"', '"1_0.5"', '"1__0"', "null", '"x"', "0", "5", "4.999",
          "1e-7", '"-0"', "Infinity", "1" + "0" * 400, "1e400", '"."', '"1."', '".5"', '"+.5e-3"', '"infinity"', '"  "']:
    case(f"float field {v}", "/scalars", '{"req":null,"f":' + v + "}")
for v in ["1", "1.5", "true", "null", "[]", '"ok"', '"Björk"']:
    case(f"str field {v}", "/scalars", '{"req":null,"s":' + v + "}")
for v in ['"true"', '"yes"', '"on"', '"t"', '"Y"', '"0"', '"off"', '"nope"', '" true"', "0", "1", "2", "1.0", "0.0", "0.5",
          "null", "[]", '"FALSE"', "-1"]:
    case(f"bool field {v}", "/scalars", '{"req":null,"b":' + v + "}")
for v in ["null", "5", '"5"', "5.5", "true"]:
    case(f"optional int {v}", "/scalars", '{"req":null,"n":' + v + "}")
for v in ["null", "1", "1.25", "NaN", "-Infinity"]:
    case(f"optional float {v}", "/scalars", '{"req":null,"nf":' + v + "}")
for v in ['{"x":[1,{"y":null}]}', "1.0", "1E2", "-0.0", "123456789012345678901234567890", "NaN", '"\\ud800"', '[1.5e300, -1e-300]']:
    case(f"Any field {v}", "/scalars", '{"req":null,"a":' + v + "}")
for v in ['{"b":1,"a":[2]}', "[]", '"x"', "{}"]:
    case(f"bare dict field {v}", "/scalars", '{"req":null,"d":' + v + "}")
for v in ["[1,\"a\",null,2.50]", "{}", '"abc"', "null"]:
    case(f"bare list field {v}", "/scalars", '{"req":null,"l":' + v + "}")
case("required nullable given null", "/scalars", '{"req":null}')
case("required nullable given a string", "/scalars", '{"req":"r"}')
case("required nullable missing", "/scalars", '{"i":1}')
case("required nullable given a number", "/scalars", '{"req":1}')

# --- Literal and Enum.
for v in ['"happy"', '"HAPPY"', '"angry"', "1", "null", "[]"]:
    case(f"Literal str {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","mood":' + v + "}")
for v in ['"x"', '"y"']:
    case(f"Literal one value {v}", "/scalars", '{"req":null,"one":' + v + "}")
for v in ["1", "2", "true", "1.0", '"1"', "3", "2.5", "1" + "0" * 25]:
    case(f"Literal ints {v}", "/scalars", '{"req":null,"nums":' + v + "}")
for v in ['"a"', "1", "true", "1.0", "null", "false", "0", '"b"']:
    case(f"Literal mixed {v}", "/scalars", '{"req":null,"mix":' + v + "}")
for v in ['"comedy"', '"Comedy"', '"thriller"', "1", "null"]:
    case(f"str Enum {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","genre":' + v + "}")
for v in ["2", "2.0", '"2"', "true", "4", "null", '"two"', "2.5"]:
    case(f"int Enum {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","stars":' + v + "}")

# --- String constraints and patterns (pydantic-core's Rust regex).
for v in ['"tt1"', '"tt"', '"tt0123456789"', '"ab12"', '"tt12x"', '"tt١٢"', '"tt12\\n"', '"tt1234567890123"', '"\\ud800"']:
    case(f"movie_id {v}", "/reviews", '{"rating":5,"content":"c","movie_id":' + v + "}")
for v in ['""', '"ab"', '"é"', '"🎬"', '"e\\u0301"']:
    case(f"max_length 1 {v}", "/scalars", '{"req":null,"short":' + v + "}")
for field, values in {
    "digits": ["123", "١٢٣", "１２", "12a", ""],
    "word": ["abc_1", "Björk", "日本", "a-b", "é\u0301", "\u200c"],
    "space": ["a b", "a\u00a0b", "a\u3000b", "a\u2028b", "a\u200bb", "a\x85b"],
    "bound": ["a cat", "cats", "écat", "caté", "_cat", "cat1", "1cat", "cat"],
    "nondigit": ["abc", "a1", "a١"],
    "cls": ["a-b_c", "日本-語", "a b"],
    "ci": ["ABC", "aBc", "abd"],
    "dot": ["a", "🎬", "\n", "ab"],
    "nl": ["a", "a\n"],
}.items():
    for v in values:
        case(f"pattern {field} {v!r}", "/patterns", json.dumps({field: v}, ensure_ascii=False))

# --- Numeric constraints.
for v in ["0", "11", "-5", "10", "1"]:
    case(f"rating bounds {v}", "/reviews", '{"movie_id":"tt42","content":"c","rating":' + v + "}")
for v in ["0", "5", "0.0001", "4.999999", "-1", '"3"']:
    case(f"score gt/lt {v}", "/reviews", '{"movie_id":"tt42","content":"c","rating":5,"score":' + v + "}")
for v in ["0.25", "0.75", "100.5", "0", "1.5", "100", "2.0000000001", "NaN"]:
    case(f"float multiple_of/ge/le {v}", "/scalars", '{"req":null,"fl":' + v + "}")
for v in ["-1", "-0.5", "0", "3"]:
    case(f"float ge 0 {v}", "/scalars", '{"req":null,"fi":' + v + "}")
for v in ["4", "-12", "-9", "6", "3.0", '"9"']:
    case(f"int multiple_of/ge {v}", "/scalars", '{"req":null,"im":' + v + "}")

# --- Arrays, dicts, nested models, extra="forbid".
for v in ['["a",1,null,"b"]', '"abc"', "{}", "[[]]", "null"]:
    case(f"tags {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","tags":' + v + "}")
for v in ['{"a":1,"b":"x","c":2.5}', "[]", '{"":1}', '{"a":null}']:
    case(f"counts {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","counts":' + v + "}")
for v in ['{"name":"A","age":-1}', '"Ann"', "[]", '{"age":"x"}', "null", '{"name":"Ann","extra":1}']:
    case(f"author {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","author":' + v + "}")
for v in ['[{"label":"a","x":1,"y":2}]', '[{"weight":"h"},{"label":1}]', '[{},{},{},{}]', '[1,2,3,4]', '[{"label":"a"},{"label":"b"},{"label":"c"}]']:
    case(f"labels {v}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","labels":' + v + "}")
case("list[list[int]] errors", "/scalars", '{"req":null,"ll":[[1,"x"],2,[3.5]]}')
case("list[list[int]] too short", "/scalars", '{"req":null,"ll":[]}')
case("extra forbidden, order", "/strict", '{"z":1,"label":"a","a":2,"weight":3}')
case("extra forbidden, missing too", "/strict", '{"x":null}')
case("extra forbidden with surrogate key", "/strict", '{"label":"a","\\ud800":1}')
case("forbid model valid", "/strict", '{"label":"a"}')
case("nested dicts", "/nested", '{"m":{"a":[1,"2",3.0],"b":"x","c":[null]},"authors":{"x":{"name":"A"},"y":1}}')
case("nested valid", "/nested", '{"m":{"a":[1,"2",3.0]},"authors":{"x":{"name":"Ann"}},"matrix":[[1,2.5],[]],"genres":["drama"]}')
case("nested too many tags", "/nested", '{"tags":[{"label":"a"},{"label":"b"},{"label":"c"}]}')
case("nested list of enums", "/nested", '{"genres":["drama","x",1]}')
case("nested matrix", "/nested", '{"matrix":[[1,"x"],"y",[true]]}')
case("nested unknown key", "/nested", '{"q":1}')
case("dict key with surrogate", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","counts":{"\\ud800":1}}')
case("dict key with surrogate, bad value", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","counts":{"\\ud800":"x"}}')
case("surrogate in a free str", "/reviews", '{"movie_id":"tt42","rating":5,"content":"\\ud800"}')
case("surrogate in another key's input", "/reviews", '{"movie_id":"tt42","content":"\\ud800"}')
case("surrogate pair escape", "/reviews", '{"movie_id":"tt42","rating":5,"content":"\\ud83c\\udfac"}')

# --- Embedded body fields (FastAPI's Body_… model).
for body in ['{"r":{"name":"Ann"},"n":1}', '{"r":{"name":"Ann"},"n":1,"o":7,"x":0}', "{}", "[1]", '"x"', "1", "null",
             '{"r":null,"n":null,"o":null}', '{"r":{"name":"A"},"n":0,"o":"x"}', '{"r":[],"n":"1"}']:
    case(f"embed {body}", "/embed", body)
case("embed text/plain", "/embed", "[1]", "text/plain")

# --- Dates, times, UUIDs.
for v in ['"2024-01-02"', '"2024-1-2"', '"2024-01-02T00:00:00"', '"2024-01-02T00:00:01"', '"2024-01-02T00:00:00+01:00"',
          '"20240102"', "0", "86400", "86401", "1.5", "true", '""', '"2024-13-01"', '"2024-02-30"', '"2024-02-29"',
          '"2023-02-29"', '"2024-01-02 "', "1e11", '"1700000000"', '"0000-01-01"', '"9999-12-31"', "null", "[]",
          '"2024-01-02T00:00:00.000Z"', '"x024-01-02"', '"2024/01/02"', "-86400", "253402300800", "1e20"]:
    case(f"date {v}", "/times", '{"d":' + v + "}")
for v in ['"2024-01-02T03:04:05+02:00"', '"2024-01-02T03:04:05Z"', '"2024-01-02T03:04:05"', '"2024-01-02 03:04:05"',
          '"2024-01-02"', '"2024-01-02T03:04"', '"2024-01-02T03:04:05.123456789Z"', '"2024-01-02T03:04:05.1Z"',
          '"2024-01-02T03:04:05+0200"', '"2024-01-02T03:04:05+02"', '"2024-01-02T03:04:05-00:00"', '"2024-01-02T03:04:05+00:00"',
          "0", "1700000000", "1700000000.5", "1e11", '"1700000000"', '"1700000000.25"', "true", '"2024-01-02T25:00:00"',
          '"2024-01-02T03:04:05+24:00"', '"2024-01-02t03:04:05z"', '"2024-01-02_03:04:05"', '"2024-01-02T03:04:05.Z"',
          '"2024-01-02T03:04:60"', '"2024-01-02T03:04:05-05:30"', '"2024-01-02T03:04:05+05:60"', '"2024-01-02T03:04:05,5"',
          '"2024-01-02X03:04:05"', '"nope"', "-1", "1700000000123", "NaN", "1e300", '"2024-01-02T03:04:05\u221201:00"',
          '"2024-01-02T03:4:05"', "[]", '"0000-01-01T00:00:00"', '"2024-01-02T03:04:05.000000Z"', "20000000001"]:
    case(f"datetime {v}", "/times", '{"dt":' + v + "}")
for v in ['"03:04:05"', '"03:04"', '"03:04:05.5"', '"03:04:05Z"', '"03:04:05+01:00"', "3600", "3600.5", '"25:00"',
          "86400", "-1", "true", '"3:04"', '"03:04:05.1234567"', '"03:04:5"', '""', "null", '"03-04"', '"03:04:05 "']:
    case(f"time {v}", "/times", '{"t":' + v + "}")
for v in ['"12345678-1234-5678-1234-567812345678"', '"12345678123456781234567812345678"',
          '"{12345678-1234-5678-1234-567812345678}"', '"urn:uuid:12345678-1234-5678-1234-567812345678"',
          '"X2345678-1234-5678-1234-567812345678"', '"1234"', '"12345678-1234-5678-1234-56781234567"', '"12345678-1234-5678-1234"',
          '"ABCDEF78-1234-5678-1234-567812345678"', "1", '"é2345678-1234-5678-1234-567812345678"', '""', "null",
          '"1234567-81234-5678-1234-567812345678"', '"{12345678-1234-5678-1234-56781234567}"', '"123456781234567812345678123456789"',
          '"1234567812345678123456781234567g"', '"12345678-1234-5678-1234-5678123456789"', '"urn:uuid:12345678"', "[]"]:
    case(f"uuid {v}", "/times", '{"u":' + v + "}")
case("times all unset", "/times", "{}")
for v in ['"2024-01-02T00:00:00Z"', '"2024-01-02T03:04:05.5+05:30"', "-1700000000123", "-1.5", '"2024-01-02T03:04:05.123"',
          '"2024-12-31T23:59:59.999999-23:59"', '"2024-01-02T03:04:05+00:60"', '"2024-01-02T03:04:05 +01:00"', "1e10", "2e10",
          "20000000000.5", "99999999999999999999"]:
    case(f"datetime more {v}", "/times", '{"dt":' + v + "}")
for v in ['"03:04:05-0130"', '"03:04:05+01"', '"03:04:05.123Z"', '"23:59:59.999999"', "86399.9999999", "0.5", "1e20", '"03:04:05,25"']:
    case(f"time more {v}", "/times", '{"t":' + v + "}")

# --- More of Python's JSON: escapes, numbers, white space, big objects.
case("escapes in a string", "/scalars", '{"req":null,"s":"a\\/b\\\\c\\"d\\b\\f\\n\\r\\t\\u0000\\u007f\\u2028\\u00e9"}')
case("white space everywhere", "/scalars", ' \r\n\t{ "req" :\tnull ,\n"i" : 1 }\r\n ')
for v in ["-0.0", "1E+2", "1e-400", "0.1e1", "1.7976931348623157e309", "123456789012345678901234567890", "2.5e-5", "1e16", "1e15"]:
    case(f"float literal {v}", "/scalars", '{"req":null,"f":' + v + "}")
case("many keys with a duplicate", "/scalars", "{" + ",".join(f'"k{i}":{i}' for i in range(30)) + ',"req":"r","k3":"x","i":2,"i":"3"}')
case("UTF-16 with non-BMP text", "/scalars", '{"req":null,"s":"🎬 Björk"}'.encode("utf-16"))
for v in ['"\u00a012"', '"\u3000 5 "', '"1\u00a0"']:
    case(f"int from a string with Unicode space {v}", "/scalars", '{"req":null,"i":' + v + "}")
for v in ['"\u00a01.5"', '"1.5\u2003"']:
    case(f"float from a string with Unicode space {v}", "/scalars", '{"req":null,"f":' + v + "}")
case("nodef given", "/scalars", '{"req":null,"nodef":"x"}')
case("nodef null", "/scalars", '{"req":null,"nodef":null}')

# --- Lone surrogates reaching a validator that must encode them: a 500.
for field, v in [("mood", '"\ud800"'), ("genre", '"\ud800"'), ("stars", '"\ud800"'), ("rating", '"\udfff"'),
                 ("score", '"\ud800"'), ("spoiler", '"\ud800"')]:
    case(f"surrogate in {field}", "/reviews", '{"movie_id":"tt42","rating":5,"content":"c","' + field + '":' + v + "}")
for field in ["d", "dt", "t", "u"]:
    case(f"surrogate in {field}", "/times", '{"' + field + '":"\ud800"}')
case("surrogate key in a bare dict", "/scalars", '{"req":null,"d":{"\ud800":1}}')
case("surrogate key in Any", "/scalars", '{"req":null,"a":{"\ud800":1}}')
case("Any Infinity", "/scalars", '{"req":null,"a":[Infinity,-Infinity]}')
case("float from a big int that fits", "/scalars", '{"req":null,"f":' + "1" + "0" * 30 + "}")

# --- Literal values as Python repr()s them, constrained list items, big bounds, recursion.
for v in ['"x"', '"👍"', '"it\'s"', '"tab\\t"']:
    case(f"quirky emoji {v}", "/quirky", '{"emoji":' + v + "}")
for v in ['["", "abcd", "a"]', '["a","b"]', '[1]']:
    case(f"quirky tags {v}", "/quirky", '{"tags":' + v + "}")
for v in ["0", "1001", '"5"', "1000", "null"]:
    case(f"quirky runtime {v}", "/quirky", '{"runtime":' + v + "}")
for v in ["1" + "0" * 30, "1" + "0" * 29 + "1", "-" + "9" * 40]:
    case(f"quirky big {v[:3]}…{v[-3:]} ({len(v)} chars)", "/quirky", '{"big":' + v + "}")
for v in ["1.5", "-0.0", "1"]:
    case(f"quirky ratio {v}", "/quirky", '{"ratio":' + v + "}")
case("tree valid", "/tree", '{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}')
case("tree errors deep", "/tree", '{"name":"a","children":[{"name":"b","children":[{"children":[1]}]},{"name":2}]}')

# --- An optional body that is not Optional[...]: r: Author = None.
for body in ["", "null", '{"name":"Ann"}', "[]"]:
    case(f"maybe body {body!r}", "/maybe", body)

# --- Sets (uniqueItems): duplicates dropped, not refused; too_long as soon
# as the set outgrows max_length; too_short on the distinct items.
for v in ['["a","a","a"]', '[]', '"abc"', '{"a":1}', '["a",1]', '[1,2,null]', 'null']:
    case(f"set tags {v}", "/sets", '{"tags":' + v + "}")
for v in ['[1,1,"1",1.0,true]', '[1,2,3,3]', '[1,2,3,4]', '[1,2,2,3,"x"]', '[1,2,3,"x",4]', '["x",1,2,3,4]',
          '["x","y"]', '[1,1,1]', '[]', '["1","2"]', '[1.5]', '[1,2,3,3,3,3]']:
    case(f"set nums {v}", "/sets", '{"nums":' + v + "}")
for v in ['[1,1.0,"1"]', '[0.5,0.5]']:
    case(f"set floats {v}", "/sets", '{"floats":' + v + "}")
case("list of sets", "/sets", '{"models":[[1,1],[2,"x"],"y"]}')

# --- URLs (HttpUrl, AnyUrl): parsed and written back as the url crate does.
for v in ["http://example.com", "HTTP://EXAMPLE.COM:80/a/../b/./c?x=1 2#f g", "https://example.com:443",
          "https://example.com:8443/", "http://a b.com", "http://", "http:/example.com", "http:\\\\example.com\\x",
          "  http://x.com  ", "http://x.com/\t\nq", "ftp://x.com", "mailto:a@b.c", "x", "%é12", "\\", "..", "",
          "http://[::1]:8000/", "http://[::1", "http://1.2.3.4.5/", "http://256.0.0.1/", "http://0x7f.1/",
          "http://127.1/", "http://user:pa ss@x.com/", "http://x.com:99999", "http://x.com:ab", "http://x.com:/p",
          "http://exa%41mple.com/", "http://ex<ample.com", "http://ex^ample.com", "http://EXAMPLE.com./",
          "http://bücher.de/ü?ü#ü", "http://x.com/a\"b<c>`{}|^", "http://x.com/?a'b\"c<d>`", "http://x.com/#a'b\"c<d>`",
          "https://localhost", "http://x.com/%zz", "http://x.com/%2e%2E/a", "http://x.com?", "http://x.com#",
          "http://@x.com", "http://:@x.com", "http://x.com:0", "file:///etc/passwd", "http://-x.com", "http://x_y.com",
          "http://1.2.3", "http://x.com/" + "a" * 2100, "http://x.com/" + "é" * 2060, "1http://x", "ht tp://x",
          "http://x.com\u0000", "http:// x.com", "http://x.com/\u00a0", "//x.com", "/path",
          "https://example.com/items/foo?q=1&r=%20", "http://[v1.x]/", "http://[::ffff:1.2.3.4]/",
          "http://[0:0:0:0:0:0:0:1]/", "http://1.2.3.4:8080", "http://[1:0:0:2:0:0:0:3]/", "http://x.com/a/..",
          "http://x.com/a/.", "https://images.example.org/photos/12.png"]:
    case(f"url {v[:60]!r}", "/links", '{"url":' + json.dumps(v, ensure_ascii=False) + "}")
for v in ["5", "null", '["x"]', '{"u":1}']:
    case(f"url not a string {v}", "/links", '{"url":' + v + "}")
for v in ["ftp://x.com", "mailto:a@b.c", "urn:isbn:123", "git+ssh://git@github.com/a.git", "data:text/plain,hi",
          "x", "", "a:b", "http://x.com", "file:///etc/passwd", "foo://h/p?q#f", "foo:/p", "FOO:X"]:
    case(f"any url {v!r}", "/links", '{"url":"http://a.b","any":' + json.dumps(v) + "}")
case("url list errors", "/links", '{"url":"http://a.b","urls":["http://c.d","x",5,"ftp://e"]}')

# --- timedelta: ISO 8601, HH:MM:SS, "N days, ..." and numbers (seconds).
for v in ["PT3H", "P1D", "P1DT2H3M4.5S", "PT0S", "P0D", "-PT1H", "PT-1H", "P1W", "P1Y", "P1M", "P1Y2M3DT4H5M6S",
          "P1.5D", "PT1.5H", "PT1,5S", "1 day, 2:03:04", "2:03:04", "01:02:03.123456", "-1 day, 23:00:00", "P", "PT",
          "3600", "3600.5", "-1", "1e3", "", "abc", "PT36H", "P400D", "PT0.000001S", "PT0.0000001S", "P2W3D", "p1d",
          "PT1H1H", "P1DT", "1d", "1 day", "10:00", "1:2:3", "P999999999D", "P1000000000D", "+PT1H", "P-1D",
          "PT1M60S", "PT100000000000S", "1.5", "inf", "nan", " PT1H", "PT1H ", "P1.5DT1H", "PTT1H", "P1H", "PT1D",
          "2 days, 25:00:00", "100:00:00", "1:00", "12:30:45.5", "3 DAYS", "3 dx", "1 day 01:00:00",
          "01:00:00Z", "01:00:00+01:00", "01:60:00", "1 d, 1:00"]:
    case(f"duration {v!r}", "/durations", '{"d":' + json.dumps(v) + "}")
for v in ["3600", "1.5", "-86400.5", "true", "null", "[1]", "1" + "0" * 20, "86399999999999", "86400000000000",
          "0", "-0.0", "1e300", "0.0000004", "0.0000005"]:
    case(f"duration number {v}", "/durations", '{"d":' + v + "}")

# --- bytes: base64 with val_json_bytes/ser_json_bytes "base64", else UTF-8.
for v in ["aGVsbG8=", "aGVsbG8", "a", "ab", "abc", "abcd", "abcde", "ab=", "ab==", "ab===", "abc=", "abc==", "abcd=",
          "abcd====", "=", "==", "a===", "ab=c", "ab==cd", "abcd\n", "aGVsbG9", "aGVsbG9=", "YQ", "YR", "YQ=", "/_",
          "é", "abc\u00e9", "abcdé", "a b", "ab+_", "a=b=", "abc=d", "=abc", "ab=\n", "_-_-", "/+/+", "/w==", "",
          "xxxxxxxx=", "xxxxxxxxx==", "!!!", "aGVsbG8=aGVsbG8=", "aGVs bG8="]:
    case(f"base64 {v!r}", "/blobs", '{"data":' + json.dumps(v) + "}")
for v in ["5", "null", "[1]"]:
    case(f"base64 not a string {v}", "/blobs", '{"data":' + v + "}")
for v in ['"hello"', '"é\u0000"', "5", '""']:
    case(f"utf8 bytes {v}", "/rawbytes", '{"data":' + v + "}")

# --- EmailStr: email-validator's syntax rules, pydantic's normalisation.
for v in ["a@example.com", "A@Example.COM", "  a@example.com  ", "John <a@example.com>", '"John Doe" <a@b.com>', "a",
          "a@", "@b.com", "a@b", "a@b.c", "a@localhost", "a..b@example.com", ".a@example.com", "a.@example.com",
          "a b@example.com", "a@exa mple.com", "a@-example.com", "a@example-.com", "a@example..com", "a@.example.com",
          "a@example.com.", "a+tag@example.com", "a!#$%&'*+/=?^_`{|}~-@example.com", '"quoted"@example.com',
          "a@[1.2.3.4]", "a@b@c.com", "x" * 65 + "@example.com", "a@" + "b" * 64 + ".com",
          "a@" + ("b" * 60 + ".") * 5 + "com", "a@example.invalid", "a@example.test", "a@example.local",
          "a@example.onion", "a@123.com", "a@example.123", "a@ex_ample.com", "a\u200b@example.com", "a@example.com\n",
          "", "a@EXAMPLE.COM", "Ab@Ex.CoM", "Postmaster@Example.com", "a@com", "mailto:a@b.com",
          "a(comment)@example.com", "a@example.arpa", "a@sub.example.co.uk", "<a@example.com>",
          "John Smith <john@example.com", "ünïcödé@example.com", "a@exämple.com", "a@example.com" + "x" * 2048,
          "-a@example.com", "a@ex--ample.com", "a@ｅxample.com", "a\\b@example.com", "a\u00a0b@example.com",
          "a＠example.com", "a@example.c0m", "a@example.com-"]:
    case(f"email {v[:50]!r} ({len(v)} chars)", "/emails", '{"email":' + json.dumps(v, ensure_ascii=False) + "}")
for v in ["5", "null", "[]"]:
    case(f"email not a string {v}", "/emails", '{"email":' + v + "}")

# --- EmailStr = Field(min_length=…, max_length=…): the length of the address kept, after validation.
for body in ['{"email":"ab@example.com"}', '{"email":"a@example.com"}', '{"email":"abcdefgh@example.com"}',
             '{"email":"abcdefghi@example.com"}', '{"email":"  ABCDEFGH@EXAMPLE.COM  "}', '{"email":"John <ab@example.com>"}',
             '{"email":"üb@example.com"}', '{"email":"nope"}', '{"email":5}', '{"email":"ab@example.com","other":null}',
             '{"email":"ab@example.com","other":"abcd@example.com"}', '{"email":"ab@example.com","other":"abcde@example.com"}',
             '{"email":"a@example.com","other":"abcde@example.com"}']:
    case(f"sized email {body}", "/sized-emails", body)


# --- Bodies that are not models: lists, dicts, scalars (loc from ["body"]).
for body in ["[]", "[1,2]", '[1,"2"," 3 ",4.0,true]', '[1,"x",2.5,null,[],{}]', '{"a":1}', '"1"', "1", "null", "",
             "[" + "1," * 50 + "1]", '[1,"' + "9" * 4301 + '"]', "[1e400]"]:
    case(f"list[int] body {body[:40]!r}", "/ints", body)
case("list[int] body text/plain", "/ints", "[1]", "text/plain")
case("list[int] body no content type", "/ints", "[1]", None)
for body in ["{}", '{"a":1,"b":"2.5","c":true}', '{"a":"x","b":null,"c":[]}', '{"1":1.0,"":-0.0}', "[]", '"x"', "null",
             '{"a":"inf"}', '{"a":NaN}', '{"\ud800":1}', '{"a":1,"a":"y"}']:
    case(f"dict[str, float] body {body!r}", "/weights", body)
case("dict[str, float] body text/plain", "/weights", '{"a":1}', "text/plain")
for body in ["[]", '[{"label":"a"},{"label":"b","weight":2}]', '[{"label":"a","x":1},3,{"weight":"w"}]', "{}", "null",
             '[{"label":"\ud800"}]', '[null]']:
    case(f"list[Tag] body {body!r}", "/taglist", body)
for body in ["1", "0", '"5"', "2.0", "2.5", "true", "null", "", '"x"', "[1]", "{}"]:
    case(f"int body {body!r}", "/count", body)
for body in ["", "null", "[]", "[1]", '["x"]', "{}"]:
    case(f"optional list body {body!r}", "/maybe-ints", body)
for body in ['["a"]', "[]", '["a","b","c"]', '["abc"]', '["abc","abcd","x"]', '[1]']:
    case(f"bounded list body {body!r}", "/bounded", body)


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    status, doc = asyncio.run(call("/openapi.json", None, None))
    assert status == 200
    with open(os.path.join(here, "jsonbody_openapi.json"), "wb") as f:
        f.write(doc)
    records = []
    seen = set()
    for name, path, content_type, body in CASES:
        assert name not in seen, name
        seen.add(name)
        raw = body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
        ct = None if content_type is None else content_type.encode("latin-1")
        status, out = asyncio.run(call(path, ct, raw))
        rec = {"name": name, "path": path, "content_type": content_type}
        try:
            rec["body"] = raw.decode("utf-8")
        except UnicodeDecodeError:
            rec["body_b64"] = base64.b64encode(raw).decode()
        rec["status"] = status
        rec["response"] = out.decode("utf-8")
        records.append(rec)
    with open(os.path.join(here, "jsonbody_cases.json"), "w", encoding="utf-8") as f:
        json.dump(records, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(records)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()

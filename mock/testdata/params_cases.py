"""Ground truth for the mock's list parameters, files and form models: run
the real FastAPI on a table of requests and record exactly what it answers.

    PYTHONPATH=../../testdata/fastapi-stack python3 params_cases.py

(from mock/testdata; the stack is FastAPI 0.141.1, Starlette 1.3.1,
pydantic 2.13.4 on Python 3.11). It writes params_openapi.json, the
document the app serves, and params_cases.json, one record per case:
method, path, headers (name, value pairs, sent as they are), body, status
and response (the body FastAPI sent). The app runs under uvicorn and is
called over HTTP, so the headers are those a client really sends.
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import time

APP = '''
from enum import Enum, IntEnum
from typing import Annotated, Literal
from fastapi import FastAPI, Query, Header, Cookie, File, UploadFile, Form
from pydantic import BaseModel

app = FastAPI()

@app.get("/q")
def q(q: Annotated[list[str] | None, Query()] = None, n: Annotated[list[int], Query()] = [],
      r: Annotated[list[int] | None, Query(max_length=2)] = None, s: Annotated[list[str] | None, Query(min_length=2)] = None):
    return "ok"

@app.get("/qreq")
def qreq(q: Annotated[list[int], Query()]):
    return "ok"

@app.get("/h")
def h(x_token: Annotated[list[str] | None, Header()] = None, x_n: Annotated[list[int], Header()] = []):
    return "ok"

@app.get("/hreq")
def hreq(x_token: Annotated[list[str], Header()], host: Annotated[str, Header()]):
    return "ok"

@app.get("/c")
def c(c: Annotated[list[str] | None, Cookie()] = None, d: Annotated[str | None, Cookie()] = None):
    return "ok"

@app.post("/fu")
def fu(file: UploadFile, token: Annotated[str, Form()]):
    return "ok"

@app.post("/ful")
def ful(files: list[UploadFile]):
    return "ok"

@app.post("/fo")
def fo(file: UploadFile | None = None):
    return "ok"

@app.post("/ffl")
def ffl(tags: Annotated[list[str], Form()], n: Annotated[list[int], Form()] = []):
    return "ok"

class FM(BaseModel):
    name: str
    age: int = 3
    nick: str | None = None
    tags: list[str] = []

@app.post("/fm")
def fm(data: Annotated[FM, Form()]):
    return "ok"

class Strict(BaseModel):
    model_config = {"extra": "forbid"}
    name: str
    code: str

@app.post("/fs")
def fs(data: Annotated[Strict, Form()]):
    return "ok"

class Color(str, Enum):
    red = "red"
    blue = "blue"

@app.get("/lit")
def lit(order_by: Literal["created_at", "updated_at"] = "created_at", color: Color = Color.red,
        opt: Literal["a", "b"] | None = None, many: Annotated[list[Literal["x", "y"]], Query()] = [],
        colors: Annotated[list[Color], Query()] = [], maybe: Color | None = None):
    return "ok"

class N(IntEnum):
    one = 1
    two = 2

@app.get("/lit2")
def lit2(a: Literal[1, 2] = 1, n: N = N.one, b: Literal[True] | None = None):
    return "ok"

@app.post("/flit")
def flit(kind: Annotated[Literal["a", "b"], Form()], color: Annotated[Color, Form()] = Color.red):
    return "ok"

class Headers(BaseModel):
    save_data: bool
    x_tag: list[int] = []
    traceparent: str | None = None

@app.get("/hm")
def hm(h: Annotated[Headers, Header()]):
    return "ok"

@app.get("/hp")
def hp(save_data: Annotated[bool, Header()], x_tag: Annotated[list[int], Header()] = []):
    return "ok"
'''

B = "mmboundary"


def multipart(*parts):
    """parts: (name, value) for a text field, (name, filename, content) for a file."""
    out = []
    for p in parts:
        if len(p) == 2:
            out.append(f'--{B}\r\nContent-Disposition: form-data; name="{p[0]}"\r\n\r\n{p[1]}\r\n')
        else:
            out.append(f'--{B}\r\nContent-Disposition: form-data; name="{p[0]}"; filename="{p[1]}"\r\n'
                       f'Content-Type: text/plain\r\n\r\n{p[2]}\r\n')
    return "".join(out) + f"--{B}--\r\n"


MP = [("Content-Type", f"multipart/form-data; boundary={B}")]
UE = [("Content-Type", "application/x-www-form-urlencoded")]

CASES = [
    ("list query absent", "GET", "/q", [], None),
    ("list query repeated", "GET", "/q?q=a&q=b&n=1&n=%202", [], None),
    ("list query bad items", "GET", "/q?q=a&n=1&n=x&n=2.0&n=y", [], None),
    ("list query empty item", "GET", "/q?q=&n=", [], None),
    ("list query too long", "GET", "/q?r=1&r=2&r=3", [], None),
    ("list query too long wins over items", "GET", "/q?r=1&r=x&r=3", [], None),
    ("list query item error within length", "GET", "/q?r=1&r=x", [], None),
    ("list query too short", "GET", "/q?s=a", [], None),
    ("list query long enough", "GET", "/q?s=a&s=b", [], None),
    ("required list query missing", "GET", "/qreq", [], None),
    ("required list query empty item", "GET", "/qreq?q=", [], None),
    ("required list query", "GET", "/qreq?q=1&q=2", [], None),
    ("list header lines", "GET", "/h", [("X-Token", "a, b"), ("X-Token", "c"), ("X-N", "1,2")], None),
    ("list header bad second line", "GET", "/h", [("X-N", "1"), ("X-N", "a")], None),
    ("required list header missing", "GET", "/hreq", [], None),
    ("required list header empty", "GET", "/hreq", [("X-Token", "")], None),
    ("list cookie", "GET", "/c", [("Cookie", "c=a; c=b")], None),
    ("list cookie absent", "GET", "/c", [("Cookie", "d=x")], None),
    ("cookie last of several", "GET", "/c", [("Cookie", "d=x; c=1; d=y; c=2")], None),
    ("cookie over two lines", "GET", "/c", [("Cookie", "c=a"), ("Cookie", "d=x; c=b")], None),
    ("cookie quoted", "GET", "/c", [("Cookie", 'c="a\\"b\\012\\\\x"')], None),
    ("cookie odd chunks", "GET", "/c", [("Cookie", "x; c = é\t; =y;;")], None),
    ("cookie no name", "GET", "/c", [("Cookie", "c; d")], None),
    ("header read as latin-1", "GET", "/h", [("X-N", "é")], None),
    ("upload file", "POST", "/fu", MP, multipart(("file", "f.txt", "hello\n"), ("token", "t"))),
    ("upload text", "POST", "/fu", MP, multipart(("file", "text"), ("token", "t"))),
    ("upload empty text", "POST", "/fu", MP, multipart(("file", ""), ("token", ""))),
    ("upload urlencoded", "POST", "/fu", UE, "file=x&token=t"),
    ("upload file as token", "POST", "/fu", MP, multipart(("file", "f.txt", "ab\ncd\n"), ("token", "g.txt", "ab\ncd\n"))),
    ("upload list", "POST", "/ful", MP, multipart(("files", "f.txt", "a"), ("files", "g.txt", "b"))),
    ("upload list with text", "POST", "/ful", MP, multipart(("files", "a"), ("files", "g.txt", "b"), ("files", ""))),
    ("upload list missing", "POST", "/ful", MP, multipart(("other", "x"))),
    ("upload optional text", "POST", "/fo", MP, multipart(("file", "x"))),
    ("upload optional empty", "POST", "/fo", MP, multipart(("file", ""))),
    ("form list", "POST", "/ffl", UE, "tags=a&tags=b&n=1&n=2"),
    ("form list empty item", "POST", "/ffl", UE, "tags=&n=x"),
    ("form list missing", "POST", "/ffl", UE, "n=1"),
    ("form list file item", "POST", "/ffl", MP, multipart(("tags", "a"), ("tags", "f.txt", "x"))),
    ("form model empty", "POST", "/fm", UE, ""),
    ("form model extras", "POST", "/fm", UE, "age=x&zzz=1&nick=n&zzz=2"),
    ("form model empty values", "POST", "/fm", UE, "name=&age=&tags=a&tags=b"),
    ("form model empty list item", "POST", "/fm", UE, "name=u&tags="),
    ("form model json", "POST", "/fm", [("Content-Type", "application/json")], "{}"),
    ("form model file", "POST", "/fm", MP, multipart(("age", "f.txt", "x"), ("tags", "g.txt", "y"))),
    ("strict form extras", "POST", "/fs", UE, "zz=1&code=p&zz=2&aa=3"),
    ("strict form empty values", "POST", "/fs", UE, "name=&code="),
    ("literal and enum query refused", "GET", "/lit?order_by=x&color=x&opt=c&many=x&many=z&colors=green&maybe=x", [], None),
    ("literal and enum query accepted", "GET", "/lit?order_by=updated_at&color=blue&opt=a&many=y&colors=red", [], None),
    ("int literal refuses every string", "GET", "/lit2?a=1", [], None),
    ("int literal and int enum refused", "GET", "/lit2?a=01&n=x&b=true", [], None),
    ("int enum reads a lax int", "GET", "/lit2?n=%2001", [], None),
    ("int enum out of range", "GET", "/lit2?n=3&b=True", [], None),
    ("literal form field refused", "POST", "/flit", UE, "kind=c&color=green"),
    ("header model bool and list items", "GET", "/hm", [("save-data", "maybe"), ("x-tag", "1"), ("x-tag", "x")], None),
    ("header model accepted", "GET", "/hm", [("save-data", "yes"), ("x-tag", "1")], None),
    ("header params bool and list items", "GET", "/hp", [("save-data", "maybe"), ("x-tag", "x")], None),
]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    work = os.path.join(here, "_params_app")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "params_app.py"), "w") as f:
        f.write(APP)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([work, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "params_app:app", "--port", str(port), "--log-level", "warning"], env=env)
    try:
        doc = None
        for _ in range(900):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port)
                conn.request("GET", "/openapi.json")
                doc = conn.getresponse().read()
                break
            except OSError:
                time.sleep(0.1)
        if doc is None:
            sys.exit("the app did not start")
        with open(os.path.join(here, "params_openapi.json"), "wb") as f:
            f.write(doc)
        out = []
        for name, method, path, headers, body in CASES:
            conn = http.client.HTTPConnection("127.0.0.1", port)
            conn.putrequest(method, path, skip_accept_encoding=True)
            for k, v in headers:
                conn.putheader(k, v.encode())
            data = body.encode() if body is not None else None
            if data is not None:
                conn.putheader("Content-Length", str(len(data)))
            conn.endheaders(data)
            resp = conn.getresponse()
            out.append({"name": name, "method": method, "path": path, "headers": headers, "body": body,
                        "status": resp.status, "response": resp.read().decode()})
        with open(os.path.join(here, "params_cases.json"), "w") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")
    finally:
        proc.terminate()
        proc.wait()
        for fn in os.listdir(work):
            if fn.endswith(".py"):
                os.remove(os.path.join(work, fn))
        import shutil
        shutil.rmtree(work, ignore_errors=True)


main()

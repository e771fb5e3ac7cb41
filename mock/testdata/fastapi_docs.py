"""FastAPI's own routes, as a FastAPI app titled sys.argv[1] answers them.

Prints a JSON object: for each of /docs, /redoc, /docs/oauth2-redirect and
/openapi.json, the status, headers and body of GET, HEAD and POST. The app
is driven in-process through ASGI, as a server would drive it, so nothing
listens. Run by mock's tests (go test ./mock/ -run FastAPI -update) with
PYTHONPATH pointing at a FastAPI install and PYTHONHASHSEED=0 (Starlette's
Allow header order depends on the hash seed).
"""

import asyncio
import json
import sys

from fastapi import FastAPI

app = FastAPI(title=sys.argv[1])


async def call(method, path):
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
        "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
        "root_path": "", "query_string": b"", "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
    }
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return {
        "status": sent[0]["status"],
        "headers": {k.decode(): v.decode() for k, v in sent[0]["headers"]},
        # A server sends no body for HEAD, whatever the app gives it.
        "body": "" if method == "HEAD" else b"".join(m.get("body", b"") for m in sent[1:]).decode(),
    }


async def main():
    out = {}
    for path in ["/docs", "/redoc", "/docs/oauth2-redirect", "/openapi.json"]:
        out[path] = {method: await call(method, path) for method in ["GET", "HEAD", "POST"]}
    print(json.dumps(out, indent=1))


asyncio.run(main())

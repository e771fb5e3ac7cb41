"""Rewrite this corpus's manifest and documents from its sources.

Every module under docs_src/ that defines a FastAPI application with at least
one path operation, and imports with nothing beyond FastAPI, Starlette,
pydantic, python-multipart and the standard library, is an app of the corpus:
apps.json lists them, and openapi/<name>.json is the document the app serves
at /openapi.json. A module that needs more is tried again with Debian's
python3-* packages (/usr/lib/python3/dist-packages, e.g. python3-email-validator
for pydantic's EmailStr) at the end of its path; if that works, apps.json says
which modules it requires. Run from this directory with the FastAPI stack on
the path:

    PYTHONPATH=../../fastapi-stack:. python3 refresh.py
"""

import glob
import importlib
import json
import os
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.getcwd())

from fastapi import FastAPI  # noqa: E402

SYSTEM = "/usr/lib/python3/dist-packages"

# Run in a fresh interpreter with SYSTEM last on the path: the top-level
# packages the module loaded from there.
PROBE = """
import importlib, json, sys, warnings
warnings.filterwarnings("ignore")
sys.path.extend([%r])
before = set(sys.modules)
importlib.import_module(%r)
print(json.dumps(sorted({n.split(".")[0] for n in set(sys.modules) - before
      if (getattr(sys.modules[n], "__file__", None) or "").startswith(%r)})))
"""


def system_requires(module):
    if not os.path.isdir(SYSTEM):
        return None
    r = subprocess.run([sys.executable, "-c", PROBE % (SYSTEM, module, SYSTEM)], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return json.loads(r.stdout.strip().splitlines()[-1]) or None


def served(app, path):
    """GET path of app through ASGI, as uvicorn would ask it: the bytes of
    a 200 answer, or None. The document FastAPI serves can differ from
    app.openapi() (root_path adds servers)."""
    import asyncio

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": b"", "headers": [(b"host", b"127.0.0.1:8000")],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {}}
    out = {"status": None, "body": b""}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(msg):
        if msg["type"] == "http.response.start":
            out["status"] = msg["status"]
        elif msg["type"] == "http.response.body":
            out["body"] += msg.get("body", b"")

    try:
        asyncio.run(app(scope, receive, send))
    except Exception:
        return None
    return out["body"] if out["status"] == 200 else None
# What the documentation tells its reader to give an app to run it: the
# settings it reads from the environment, the host its middleware trusts.
SETUP = {
    "docs_src.settings.%s.main" % v: {"env": ["ADMIN_EMAIL=deadpool@example.com"]}
    for v in ("app02_py310", "app02_an_py310", "app03_py310", "app03_an_py310")
}
SETUP["docs_src.advanced_middleware.tutorial002_py310"] = {"args": ["--header", "Host: example.com"]}

apps, skipped = [], {}
for path in sorted(glob.glob("docs_src/**/*.py", recursive=True)):
    if path.endswith("__init__.py"):
        continue
    module = path[:-3].replace("/", ".")
    requires = None
    try:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            requires = system_requires(module)
            if not requires:
                raise
            sys.path.append(SYSTEM)
            try:
                mod = importlib.import_module(module)
            finally:
                sys.path.remove(SYSTEM)
        app = getattr(mod, "app", None)
        if not isinstance(app, FastAPI):
            continue
        doc = app.openapi()
    except BaseException as e:  # an app that needs what the stack lacks
        skipped[module] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:160] if str(e) else "")
        continue
    if not doc.get("paths"):
        skipped[module] = "no path operations"
        continue
    name = module[len("docs_src."):]
    os.makedirs("openapi", exist_ok=True)
    body = served(app, app.openapi_url) if app.openapi_url else None
    if body is None:
        # Not served, or a middleware answers instead: the app's own
        # document as Starlette's JSONResponse writes it.
        body = json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    with open("openapi/%s.json" % name, "wb") as f:
        f.write(body)
    entry = {"name": name, "module": module}
    if app.openapi_url != "/openapi.json":
        entry["openapi_url"] = app.openapi_url or ""
    if requires:
        entry["requires"] = requires
    entry.update(SETUP.get(module, {}))
    apps.append(entry)

with open("apps.json", "w") as f:
    json.dump({"apps": apps, "skipped": skipped}, f, indent=1, sort_keys=True)
    f.write("\n")
print("%d apps, %d modules skipped" % (len(apps), len(skipped)))

"""Rewrite this corpus's manifest and documents from its sources.

Every module under docs_src/ that defines a FastAPI application with at least
one path operation, and imports with nothing beyond FastAPI, Starlette,
pydantic, python-multipart and the standard library, is an app of the corpus:
apps.json lists them, and openapi/<name>.json is the document the app serves
at /openapi.json. Run from this directory with the FastAPI stack on the path:

    PYTHONPATH=../../../../shared/fastapi-stack:. python3 refresh.py
"""

import glob
import importlib
import json
import os
import sys
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.getcwd())

from fastapi import FastAPI  # noqa: E402

apps, skipped = [], {}
for path in sorted(glob.glob("docs_src/**/*.py", recursive=True)):
    if path.endswith("__init__.py"):
        continue
    module = path[:-3].replace("/", ".")
    try:
        app = getattr(importlib.import_module(module), "app", None)
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
    with open("openapi/%s.json" % name, "w", encoding="utf-8") as f:
        # As FastAPI serves it (Starlette's JSONResponse): compact, UTF-8.
        f.write(json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")))
    apps.append({"name": name, "module": module})

with open("apps.json", "w") as f:
    json.dump({"apps": apps, "skipped": skipped}, f, indent=1, sort_keys=True)
    f.write("\n")
print("%d apps, %d modules skipped" % (len(apps), len(skipped)))

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

    PYTHONPATH=../../../../shared/fastapi-stack:. python3 refresh.py
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
    with open("openapi/%s.json" % name, "w", encoding="utf-8") as f:
        # As FastAPI serves it (Starlette's JSONResponse): compact, UTF-8.
        f.write(json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")))
    entry = {"name": name, "module": module}
    if requires:
        entry["requires"] = requires
    apps.append(entry)

with open("apps.json", "w") as f:
    json.dump({"apps": apps, "skipped": skipped}, f, indent=1, sort_keys=True)
    f.write("\n")
print("%d apps, %d modules skipped" % (len(apps), len(skipped)))

"""What every reference app shares that is not the app itself.

The reference apps (main.py, movies.py, tasks.py) are written as their
backend teams would write them; this module holds the parts a test harness
needs around them, so that each is written once: fixture files read from a
directory, timestamps normalised to UTC, CORS configured from the
environment, and routes for tests that no document shows.

Configuration comes from the environment, read once at import:

  MOVIEMOCK_REFERENCE_FIXTURES      directory of fixture files, one a collection
                                    (<collection>.yaml, .yml or .json)
  MOVIEMOCK_REFERENCE_CORS          "0": no CORSMiddleware at all
  MOVIEMOCK_REFERENCE_CORS_ORIGINS  comma-separated allow_origins; default "*"
  MOVIEMOCK_REFERENCE_CORS_EXPOSE   comma-separated expose_headers; default none
  MOVIEMOCK_REFERENCE_TEST_ROUTES   "1": add the crash routes under /__reference/
"""

import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml
from fastapi import FastAPI, HTTPException
from fastapi.middleware.cors import CORSMiddleware

CORS_ENABLED = os.environ.get("MOVIEMOCK_REFERENCE_CORS", "1") != "0"
TEST_ROUTES = os.environ.get("MOVIEMOCK_REFERENCE_TEST_ROUTES") == "1"


def _env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


CORS_ORIGINS = _env_list("MOVIEMOCK_REFERENCE_CORS_ORIGINS", "*")
CORS_EXPOSE = _env_list("MOVIEMOCK_REFERENCE_CORS_EXPOSE", "")


def fixtures_dir(default: str) -> Path:
    """The fixture directory: $MOVIEMOCK_REFERENCE_FIXTURES, else default."""
    return Path(os.environ.get("MOVIEMOCK_REFERENCE_FIXTURES", default))


def read_records(directory: Path, collection: str) -> list[dict[str, Any]]:
    """The records of <collection>.yaml (or .yml, .json); none if there is no file."""
    for suffix in (".yaml", ".yml", ".json"):
        path = directory / (collection + suffix)
        if path.is_file():
            with path.open(encoding="utf-8") as f:
                records = json.load(f) if suffix == ".json" else yaml.safe_load(f)
            return records or []
    return []


def utc(value: datetime) -> datetime:
    """value in UTC: timestamps are stored and served in UTC, whatever offset a file used."""
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def install(app: FastAPI, reset: Callable[[], None] | None = None) -> None:
    """Add CORS as the environment says, the crash routes when asked for,
    and POST /__reference/reset when the app has data to restore.

    None of these routes is in the OpenAPI document: no real backend
    documents them.
    """
    if CORS_ENABLED:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=CORS_ORIGINS,
            allow_credentials=True,
            allow_methods=["*"],
            allow_headers=["*"],
            expose_headers=CORS_EXPOSE,
            max_age=600,
        )

    if reset is not None:

        @app.post("/__reference/reset", status_code=204, include_in_schema=False)
        async def reference_reset() -> None:
            """Restore the records loaded at start, and the id counters."""
            reset()

    if TEST_ROUTES:
        # Failures on purpose, for tests of how the stack answers them.

        @app.get("/__reference/crash", include_in_schema=False)
        async def crash() -> None:
            raise RuntimeError("crash on purpose")

        @app.get("/__reference/http500", include_in_schema=False)
        async def http500() -> None:
            raise HTTPException(status_code=500, detail="Internal Server Error")

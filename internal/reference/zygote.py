"""Fork FastAPI apps from one interpreter that has imported the stack.

Importing FastAPI, Starlette, pydantic and uvicorn takes most of an app's
start-up; the corpus starts hundreds of apps. This process imports them once,
then reads one JSON request a line from standard input and forks a child per
request that runs `uvicorn <target>` exactly as `python3 -m uvicorn` would,
with the request's directory first on its path, in the request's working
directory (a fresh one: apps write files there) and environment, its output
to the request's log file. It answers each request with the child's pid, or an error. The child
is the leader of a session of its own, so that killing its process group ends
it. Nothing here runs a thread before forking, so the fork is safe.
"""

import json
import os
import signal
import sys
import traceback

import fastapi  # noqa: F401
import fastapi.responses  # noqa: F401
import fastapi.security  # noqa: F401
import pydantic  # noqa: F401
import python_multipart  # noqa: F401
import starlette  # noqa: F401
import uvicorn.lifespan.on  # noqa: F401
import uvicorn.loops.asyncio  # noqa: F401
import uvicorn.main
import uvicorn.protocols.http.h11_impl  # noqa: F401

signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel


def child(req):
    code = 1
    try:
        os.setsid()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        log = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        sys.stdin = open(os.devnull)
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        sys.dont_write_bytecode = True
        os.environ.clear()
        os.environ.update(req["env"])
        os.chdir(req["cwd"])
        sys.path.insert(0, req["dir"])
        if req.get("path_append"):
            sys.path.append(req["path_append"])
        uvicorn.main.main(args=[req["target"], "--host", "127.0.0.1", "--port", "0", "--no-access-log", "--no-use-colors"])
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    try:
        req = json.loads(line)
        pid = os.fork()
    except Exception as e:
        print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}), flush=True)
        continue
    if pid == 0:
        child(req)
    print(json.dumps({"pid": pid}), flush=True)

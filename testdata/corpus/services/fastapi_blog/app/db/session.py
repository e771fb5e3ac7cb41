import atexit
import os
import tempfile
from typing import Any

from sqlalchemy import create_engine, engine
from sqlalchemy.ext.declarative import declarative_base
from sqlalchemy.orm import sessionmaker

from app.config import settings

# adaptation (ADAPTED.md): a fresh SQLite file per start instead of settings.SQLALCHEMY_DATABASE_URI (PostgreSQL):
# <tmp>/fastapi-blog-<pid>.db, removed at exit; files of processes that are gone are removed at start
# (uvicorn ends on SIGTERM by re-raising the signal, so atexit does not always run)
def _fresh_db_path() -> str:
    tmp = tempfile.gettempdir()
    for name in os.listdir(tmp):
        if name.startswith("fastapi-blog-") and name.endswith(".db"):
            try:
                pid = int(name[len("fastapi-blog-") : -len(".db")])
                if pid != os.getpid():
                    os.kill(pid, 0)
                    continue
            except ProcessLookupError:
                pass
            except (ValueError, OSError):
                continue
            os.remove(os.path.join(tmp, name))
    return os.path.join(tmp, f"fastapi-blog-{os.getpid()}.db")


_db_path = _fresh_db_path()
atexit.register(lambda: os.path.exists(_db_path) and os.remove(_db_path))
engine = create_engine(  # noqa
    f"sqlite:///{_db_path}",
    connect_args={"check_same_thread": False},
    pool_pre_ping=True,
)
SessionLocal: Any = sessionmaker(
    autocommit=False, autoflush=False, bind=engine
)

Base: Any = declarative_base()

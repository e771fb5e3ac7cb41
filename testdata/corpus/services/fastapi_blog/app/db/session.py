import atexit
import os
import tempfile
from typing import Any

from sqlalchemy import create_engine, engine
from sqlalchemy.ext.declarative import declarative_base
from sqlalchemy.orm import sessionmaker

from app.config import settings

# adaptation (ADAPTED.md): a fresh SQLite file per start instead of settings.SQLALCHEMY_DATABASE_URI (PostgreSQL)
_db_fd, _db_path = tempfile.mkstemp(prefix="fastapi-blog-", suffix=".db")
os.close(_db_fd)
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

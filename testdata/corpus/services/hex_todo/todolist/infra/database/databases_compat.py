"""The part of the `databases` API the app uses, on SQLite (adaptation, see ADAPTED.md).

The original runs `databases.Database(DATABASE_PG_URL)` (asyncpg, PostgreSQL). This keeps the same calls —
connect, disconnect, execute, execute_many, fetch_one, fetch_all and transaction() as a decorator — on one
in-memory SQLite database through SQLAlchemy 1.4, so the repositories' SQLAlchemy Core queries run unchanged.
The URL is ignored: every start is a fresh, empty database.
"""

import functools

from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool


class Database:
    def __init__(self, url, **options):
        self.url = url
        self.engine = create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
        self._connection = None

    def _conn(self):
        if self._connection is None:
            self._connection = self.engine.connect()
        return self._connection

    async def connect(self):
        self._conn()

    async def disconnect(self):
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    async def execute(self, query, values=None):
        result = self._conn().execute(query, values or {})
        if result.returns_rows:
            row = result.fetchone()
            return row[0] if row is not None else None
        if result.is_insert:
            return result.inserted_primary_key[0]
        return None

    async def execute_many(self, query, values):
        self._conn().execute(query, values)

    async def fetch_one(self, query, values=None):
        row = self._conn().execute(query, values or {}).fetchone()
        return row._mapping if row is not None else None

    async def fetch_all(self, query, values=None):
        return [row._mapping for row in self._conn().execute(query, values or {}).fetchall()]

    def transaction(self):
        return Transaction(self)


class Transaction:
    def __init__(self, database):
        self._database = database
        self._transaction = None

    async def __aenter__(self):
        self._transaction = self._database._conn().begin()
        return self

    async def __aexit__(self, exc_type, exc, tb):
        transaction, self._transaction = self._transaction, None
        if exc_type is None:
            transaction.commit()
        else:
            transaction.rollback()

    def __call__(self, func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            async with Transaction(self._database):
                return await func(*args, **kwargs)

        return wrapper

from contextlib import asynccontextmanager

from todolist.infra.database import databases_compat as databases
from sqlalchemy.schema import MetaData

from todolist.config.environment import get_settings

_SETTINGS = get_settings()


database = databases.Database(_SETTINGS.DATABASE_PG_URL)
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


@asynccontextmanager
async def database_context():
    await connect_database()
    yield database
    await disconnect_database()


async def connect_database():
    await database.connect()


async def disconnect_database():
    await database.disconnect()


def init_database() -> None:
    import todolist.infra.database.models  # noqa: F401

    metadata.create_all(database.engine)  # adaptation: no migrations on in-memory SQLite


async def truncate_database() -> None:
    await database.execute(
        """TRUNCATE {} RESTART IDENTITY""".format(
            ",".join(f'"{table.name}"' for table in reversed(metadata.sorted_tables))
        )
    )

"""Task Tracker: projects and their tasks, a small CRUD API without accounts.

A reference backend for the contract testdata/contracts/tasks/openapi.json,
which is this app's own /openapi.json: an API unrelated to movies, written as
a FastAPI developer would write it, that keeps to the conventions a
contract-driven mock derives from such a document, so that the two can be
compared answer by answer:

- records live in memory, in the order they were loaded, then created;
- a query parameter named like a property filters by equality, then the
  list pages: page/size (1-based, an envelope with the total) for projects,
  offset/limit (0-based, a bare list) for tasks;
- ids are uuid4; a task's project must exist when there are projects at all;
- no cascades: deleting a project leaves its tasks.

Two operations fall outside those conventions on purpose: GET /stats (its
response declares an example, the statistics of the committed fixtures)
and GET /health (a response model, no example).

Configuration comes from the environment, read once at import:

  MOVIEMOCK_REFERENCE_FIXTURES  directory with projects and tasks (.yaml, .yml
                                or .json); default testdata/contracts/tasks/fixtures
  MOVIEMOCK_REFERENCE_CHANGE    changes to the contract to make, by name (see
                                CHANGES below), comma-separated; default none:
                                the app serves testdata/contracts/tasks. An
                                unknown name stops the app at start.

and the CORS and test-route settings harness.py reads. POST /__reference/reset
restores the loaded records.

Run it from the module root with:

  PYTHONPATH=testdata/fastapi-stack python3 -m uvicorn tasks:app \\
      --app-dir internal/reference/app --host 127.0.0.1 --port 8000
"""

import copy
import math
import os
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timezone
from enum import Enum
from typing import Annotated, Any, Generic, TypeVar
from uuid import UUID

import harness
from fastapi import Depends, FastAPI, Header, HTTPException, Path, Query, status
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, Field

FIXTURES_DIR = harness.fixtures_dir("testdata/contracts/tasks/fixtures")

# --- Changes to the contract ------------------------------------------------
#
# The next version of the service, one change at a time: each is what the
# backend team would write to make it, and the app's answers follow. Switched
# on by name with MOVIEMOCK_REFERENCE_CHANGE, one or several (comma-separated);
# every branch that makes one is marked "CHANGE <name>". The documents the app
# serves under each are testdata/changes/tasks/<name>.json, with what a client
# of the old contract suffers from it in testdata/changes/tasks/expected.json.
CHANGES = {
    # responses
    "task_tags_removed": "tasks have no tags any more, in answers or requests",
    "project_color_nullable": "a project's colour may be null (no label colour), and is unless one is sent",
    "stats_done_float": "GET /stats counts done as a number with decimals (float)",
    "task_due_datetime": "a task is due at a date and time, not on a date",
    "tasks_paged": "GET /tasks answers a page object {items, total, offset, limit} instead of a list",
    "task_create_200": "POST /projects/{project_id}/tasks answers 200 instead of 201",
    # requests
    "tasks_offset_renamed": "GET /tasks takes skip instead of offset",
    "project_owner_required": "creating or replacing a project needs an owner (and Project shows it)",
    "priority_narrowed": "priority urgent is gone (the stored urgent tasks became high)",
    "projects_workspace_header": "GET /projects needs an X-Workspace header",
    "projects_archived_required": "GET /projects needs archived=true|false",
    "project_name_max_length": "project names are at most 50 characters, not 100",
    "projects_size_max_lowered": "GET /projects takes size up to 50, not 100",
    "tasks_limit_default": "GET /tasks answers 20 tasks unless told otherwise, not 50",
    "priority_added": "a new priority, critical, in answers and requests",
    # operations
    "task_delete_removed": "DELETE /tasks/{task_id} is gone",
    "project_create_secured": "POST /projects needs an API key (X-API-Key)",
    "health_path_renamed": "GET /health moved to /healthz",
    # safe
    "task_estimate_added": "tasks gain an optional estimate_hours, in answers and requests",
    "project_tasks_done_filter": "GET /projects/{project_id}/tasks takes an optional done filter",
    "project_archive_added": "a new operation, POST /projects/{project_id}/archive",
    "health_description_changed": "GET /health is described differently",
    "task_delete_deprecated": "DELETE /tasks/{task_id} is deprecated (tasks are to be marked done instead)",
}
CHANGE = frozenset(name.strip() for name in os.environ.get("MOVIEMOCK_REFERENCE_CHANGE", "").split(",") if name.strip())
for _name in sorted(CHANGE - CHANGES.keys()):
    raise SystemExit(f"MOVIEMOCK_REFERENCE_CHANGE: {_name!r} names no change; known: {', '.join(sorted(CHANGES))}")
if {"tasks_offset_renamed", "tasks_paged"} <= CHANGE:
    raise SystemExit("MOVIEMOCK_REFERENCE_CHANGE: tasks_offset_renamed and tasks_paged rewrite GET /tasks each its own way: name one")


def unless(change: str, route: Any) -> Any:
    """The route decorator, unless CHANGE change removes or rewrites the route.

    A rewritten route is defined again under the change, by the same name:
    FastAPI names an operation without an operation_id after its function.
    """
    return (lambda endpoint: endpoint) if change in CHANGE else route


# --- Models -----------------------------------------------------------------


class Priority(str, Enum):
    low = "low"
    medium = "medium"
    high = "high"
    if "priority_narrowed" not in CHANGE:  # CHANGE priority_narrowed
        urgent = "urgent"
    if "priority_added" in CHANGE:
        critical = "critical"  # CHANGE priority_added


class Project(BaseModel):
    id: UUID
    name: str
    description: str | None = None
    if "project_color_nullable" in CHANGE:
        color: str | None = Field(default=None, description="Hex colour of the project's label")  # CHANGE project_color_nullable
    else:
        color: str = Field(default="#64748b", description="Hex colour of the project's label")
    archived: bool = False
    if "project_owner_required" in CHANGE:
        owner: str | None = None  # CHANGE project_owner_required: the loaded projects have none
    created_at: datetime
    updated_at: datetime


NAME_MAX_LENGTH = 50 if "project_name_max_length" in CHANGE else 100  # CHANGE project_name_max_length


class ProjectIn(BaseModel):
    """A project as created (POST) or replaced (PUT)."""

    name: str = Field(min_length=1, max_length=NAME_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=1000)
    if "project_color_nullable" in CHANGE:
        color: str | None = Field(default=None, pattern=r"^#[0-9a-f]{6}$")  # CHANGE project_color_nullable
    else:
        color: str = Field(default="#64748b", pattern=r"^#[0-9a-f]{6}$")
    archived: bool = False
    if "project_owner_required" in CHANGE:
        owner: str = Field(min_length=1, max_length=100)  # CHANGE project_owner_required


class ProjectPatch(BaseModel):
    # Fields a project never holds as null may be left out, not sent as null.
    name: str = Field(default=None, min_length=1, max_length=NAME_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=1000)
    if "project_color_nullable" in CHANGE:
        color: str | None = Field(default=None, pattern=r"^#[0-9a-f]{6}$")  # CHANGE project_color_nullable
    else:
        color: str = Field(default=None, pattern=r"^#[0-9a-f]{6}$")
    archived: bool = None


Tag = Annotated[str, Field(min_length=1, max_length=30)]
DueDate = datetime if "task_due_datetime" in CHANGE else date  # CHANGE task_due_datetime


class Task(BaseModel):
    id: UUID
    project_id: UUID
    title: str
    description: str | None = None
    priority: Priority = Priority.medium
    done: bool = False
    due_date: DueDate | None = None
    if "task_tags_removed" not in CHANGE:  # CHANGE task_tags_removed
        tags: list[str] = []
    if "task_estimate_added" in CHANGE:
        estimate_hours: float | None = None  # CHANGE task_estimate_added
    created_at: datetime
    updated_at: datetime


class TaskCreate(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    priority: Priority = Priority.medium
    due_date: DueDate | None = None
    if "task_tags_removed" not in CHANGE:  # CHANGE task_tags_removed
        tags: list[Tag] = Field(default=[], max_length=10)
    if "task_estimate_added" in CHANGE:
        estimate_hours: float | None = Field(default=None, ge=0)  # CHANGE task_estimate_added


class TaskUpdate(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    priority: Priority = Priority.medium
    done: bool = False
    due_date: DueDate | None = None
    if "task_tags_removed" not in CHANGE:  # CHANGE task_tags_removed
        tags: list[Tag] = Field(default=[], max_length=10)
    if "task_estimate_added" in CHANGE:
        estimate_hours: float | None = Field(default=None, ge=0)  # CHANGE task_estimate_added


class TaskPatch(BaseModel):
    title: str = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    priority: Priority = None
    done: bool = None
    due_date: DueDate | None = None
    if "task_tags_removed" not in CHANGE:  # CHANGE task_tags_removed
        tags: list[Tag] = Field(default=None, max_length=10)
    if "task_estimate_added" in CHANGE:
        estimate_hours: float | None = Field(default=None, ge=0)  # CHANGE task_estimate_added


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    page: int
    size: int
    pages: int


class OffsetPage(BaseModel, Generic[T]):
    """For CHANGE tasks_paged: a page by offset, and the total."""

    items: list[T]
    total: int
    offset: int
    limit: int


class Stats(BaseModel):
    projects: int
    tasks: int
    if "stats_done_float" in CHANGE:
        done: float  # CHANGE stats_done_float
    else:
        done: int
    by_priority: dict[str, int]


class Health(BaseModel):
    status: str


# --- Data -------------------------------------------------------------------


@dataclass
class Store:
    """The records, each collection a dict in store order (loaded, then created)."""

    projects: dict[UUID, Project]
    tasks: dict[UUID, Task]


def _load() -> Store:
    projects = {}
    for record in harness.read_records(FIXTURES_DIR, "projects"):
        project = Project.model_validate(record)
        project.created_at = harness.utc(project.created_at)
        project.updated_at = harness.utc(project.updated_at)
        projects[project.id] = project
    tasks = {}
    for record in harness.read_records(FIXTURES_DIR, "tasks"):
        if "priority_narrowed" in CHANGE and record.get("priority") == "urgent":
            record = {**record, "priority": "high"}  # CHANGE priority_narrowed: the data migrated
        task = Task.model_validate(record)
        if projects and task.project_id not in projects:
            raise ValueError(f"task {task.id}: no project has id {task.project_id}")
        task.created_at = harness.utc(task.created_at)
        task.updated_at = harness.utc(task.updated_at)
        tasks[task.id] = task
    return Store(projects=projects, tasks=tasks)


loaded = _load()
db = copy.deepcopy(loaded)


def export() -> dict[str, list[dict[str, Any]]]:
    """The loaded records, as fixture files hold them: under a change that
    migrates them, the fixtures of the NEW contract (testdata/changes)."""
    return {
        "projects": [p.model_dump(mode="json") for p in loaded.projects.values()],
        "tasks": [t.model_dump(mode="json") for t in loaded.tasks.values()],
    }


def reset() -> None:
    global db
    db = copy.deepcopy(loaded)


def now() -> datetime:
    return datetime.now(timezone.utc)


def find_project(project_id: UUID) -> Project:
    project = db.projects.get(project_id)
    if project is None:
        raise HTTPException(status_code=404, detail="Project not found")
    return project


def check_project(project_id: UUID) -> None:
    # Only when there are projects at all: run on a directory without a
    # projects file, tasks may name any project.
    if db.projects and project_id not in db.projects:
        raise HTTPException(status_code=404, detail="Project not found")


def find_task(task_id: UUID) -> Task:
    task = db.tasks.get(task_id)
    if task is None:
        raise HTTPException(status_code=404, detail="Task not found")
    return task


def compute_stats() -> Stats:
    tasks = list(db.tasks.values())
    return Stats(
        projects=len(db.projects),
        tasks=len(tasks),
        # CHANGE stats_done_float
        done=float(sum(t.done for t in tasks)) if "stats_done_float" in CHANGE else sum(t.done for t in tasks),
        by_priority={p.value: sum(t.priority == p for t in tasks) for p in Priority},
    )


# The statistics of the committed fixtures: what GET /stats answers until
# the data changes, and so what a mock that serves the example answers too.
STATS_EXAMPLE = {
    "projects": 12,
    "tasks": 40,
    "done": 14,
    "by_priority": {"low": 10, "medium": 14, "high": 11, "urgent": 5},
}
if "priority_narrowed" in CHANGE:
    STATS_EXAMPLE["by_priority"] = {"low": 10, "medium": 14, "high": 16}  # CHANGE priority_narrowed


# --- Application ------------------------------------------------------------

app = FastAPI(
    title="Task Tracker",
    description="Projects and their tasks: priorities, due dates, tags and a done flag.",
    version="2.3.0",
)

ProjectID = Annotated[UUID, Path(description="Unique identifier of a project")]
TaskID = Annotated[UUID, Path(description="Unique identifier of a task")]


# Projects


PageNumber = Annotated[int, Query(ge=1, description="Page number, from 1")]
# CHANGE projects_size_max_lowered
PageSize = Annotated[int, Query(ge=1, le=50 if "projects_size_max_lowered" in CHANGE else 100, description="Projects per page")]


async def workspace(x_workspace: Annotated[str, Header(description="The workspace the projects belong to")]) -> None:
    """For CHANGE projects_workspace_header: the client must name its workspace."""


# CHANGE projects_workspace_header
PROJECTS_LIST_DEPENDENCIES = [Depends(workspace)] if "projects_workspace_header" in CHANGE else None


def projects_page(archived: bool | None, page: int, size: int) -> Page[Project]:
    projects = [p for p in db.projects.values() if archived is None or p.archived == archived]
    start = (page - 1) * size
    return Page[Project](
        items=projects[start : start + size],
        total=len(projects),
        page=page,
        size=size,
        pages=math.ceil(len(projects) / size),
    )


@unless("projects_archived_required", app.get("/projects", tags=["projects"], dependencies=PROJECTS_LIST_DEPENDENCIES))
async def list_projects(archived: bool | None = None, page: PageNumber = 1, size: PageSize = 20) -> Page[Project]:
    """List projects, a page at a time."""
    return projects_page(archived, page, size)


if "projects_archived_required" in CHANGE:

    @app.get("/projects", tags=["projects"], dependencies=PROJECTS_LIST_DEPENDENCIES)
    async def list_projects(archived: bool, page: PageNumber = 1, size: PageSize = 20) -> Page[Project]:  # noqa: F811
        """List projects, a page at a time."""
        # CHANGE projects_archived_required: archived and active projects are listed apart.
        return projects_page(archived, page, size)


# The API key of CHANGE project_create_secured.
API_KEY = "tasks-development-key"
api_key_header = APIKeyHeader(name="X-API-Key")


async def check_api_key(api_key: Annotated[str, Depends(api_key_header)]) -> None:
    """For CHANGE project_create_secured: writes need the service's API key."""
    if api_key != API_KEY:
        raise HTTPException(status_code=status.HTTP_401_UNAUTHORIZED, detail="Invalid API key")


@app.post(
    "/projects",
    status_code=status.HTTP_201_CREATED,
    tags=["projects"],
    dependencies=[Depends(check_api_key)] if "project_create_secured" in CHANGE else None,  # CHANGE project_create_secured
)
async def create_project(project_in: ProjectIn) -> Project:
    """Create a project."""
    created = now()
    project = Project(id=uuid.uuid4(), **project_in.model_dump(), created_at=created, updated_at=created)
    db.projects[project.id] = project
    return project


@app.get("/projects/{project_id}", tags=["projects"])
async def get_project(project_id: ProjectID) -> Project:
    """Read one project."""
    return find_project(project_id)


@app.put("/projects/{project_id}", tags=["projects"])
async def replace_project(project_id: ProjectID, project_in: ProjectIn) -> Project:
    """Replace a project: fields left out take their defaults."""
    project = find_project(project_id)
    project = project.model_copy(update={**project_in.model_dump(), "updated_at": now()})
    db.projects[project_id] = project
    return project


@app.patch("/projects/{project_id}", tags=["projects"])
async def update_project(project_id: ProjectID, project_in: ProjectPatch) -> Project:
    """Change some fields of a project."""
    project = find_project(project_id)
    project = project.model_copy(update={**project_in.model_dump(exclude_unset=True), "updated_at": now()})
    db.projects[project_id] = project
    return project


@app.delete("/projects/{project_id}", status_code=status.HTTP_204_NO_CONTENT, tags=["projects"])
async def delete_project(project_id: ProjectID) -> None:
    """Delete a project. Its tasks stay."""
    find_project(project_id)
    del db.projects[project_id]


if "project_archive_added" in CHANGE:

    @app.post("/projects/{project_id}/archive", tags=["projects"])
    async def archive_project(project_id: ProjectID) -> Project:
        """CHANGE project_archive_added: archive a project."""
        project = find_project(project_id)
        project = project.model_copy(update={"archived": True, "updated_at": now()})
        db.projects[project_id] = project
        return project


@unless("project_tasks_done_filter", app.get("/projects/{project_id}/tasks", tags=["projects", "tasks"]))
async def list_project_tasks(project_id: ProjectID) -> list[Task]:
    """List the tasks of one project."""
    check_project(project_id)
    return [t for t in db.tasks.values() if t.project_id == project_id]


if "project_tasks_done_filter" in CHANGE:

    @app.get("/projects/{project_id}/tasks", tags=["projects", "tasks"])
    async def list_project_tasks(project_id: ProjectID, done: bool | None = None) -> list[Task]:  # noqa: F811
        """List the tasks of one project."""
        # CHANGE project_tasks_done_filter
        check_project(project_id)
        return [t for t in db.tasks.values() if t.project_id == project_id and (done is None or t.done == done)]


@app.post(
    "/projects/{project_id}/tasks",
    # CHANGE task_create_200: the status_code left out.
    status_code=None if "task_create_200" in CHANGE else status.HTTP_201_CREATED,
    tags=["projects", "tasks"],
)
async def create_project_task(project_id: ProjectID, task_in: TaskCreate) -> Task:
    """Add a task to a project."""
    check_project(project_id)
    created = now()
    task = Task(
        id=uuid.uuid4(),
        project_id=project_id,
        **task_in.model_dump(),
        created_at=created,
        updated_at=created,
    )
    db.tasks[task.id] = task
    return task


# Tasks


TasksLimit = Annotated[int, Query(ge=1, le=200)]
TASKS_LIMIT_DEFAULT = 20 if "tasks_limit_default" in CHANGE else 50  # CHANGE tasks_limit_default


def tasks_matching(project_id: UUID | None, priority: Priority | None, done: bool | None) -> list[Task]:
    return [
        t
        for t in db.tasks.values()
        if (project_id is None or t.project_id == project_id)
        and (priority is None or t.priority == priority)
        and (done is None or t.done == done)
    ]


@unless("tasks_offset_renamed", unless("tasks_paged", app.get("/tasks", tags=["tasks"])))
async def list_tasks(
    project_id: UUID | None = None,
    priority: Priority | None = None,
    done: bool | None = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: TasksLimit = TASKS_LIMIT_DEFAULT,
) -> list[Task]:
    """List tasks across projects, optionally filtered."""
    return tasks_matching(project_id, priority, done)[offset : offset + limit]


if "tasks_offset_renamed" in CHANGE:

    @app.get("/tasks", tags=["tasks"])
    async def list_tasks(  # noqa: F811
        project_id: UUID | None = None,
        priority: Priority | None = None,
        done: bool | None = None,
        skip: Annotated[int, Query(ge=0)] = 0,
        limit: TasksLimit = TASKS_LIMIT_DEFAULT,
    ) -> list[Task]:
        """List tasks across projects, optionally filtered."""
        # CHANGE tasks_offset_renamed: offset is now skip, as in the other services.
        return tasks_matching(project_id, priority, done)[skip : skip + limit]

elif "tasks_paged" in CHANGE:

    @app.get("/tasks", tags=["tasks"])
    async def list_tasks(  # noqa: F811
        project_id: UUID | None = None,
        priority: Priority | None = None,
        done: bool | None = None,
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: TasksLimit = TASKS_LIMIT_DEFAULT,
    ) -> OffsetPage[Task]:
        """List tasks across projects, optionally filtered."""
        # CHANGE tasks_paged: the page in an object that also says the total.
        tasks = tasks_matching(project_id, priority, done)
        return OffsetPage[Task](items=tasks[offset : offset + limit], total=len(tasks), offset=offset, limit=limit)


@app.get("/tasks/{task_id}", tags=["tasks"])
async def get_task(task_id: TaskID) -> Task:
    """Read one task."""
    return find_task(task_id)


@app.put("/tasks/{task_id}", tags=["tasks"])
async def replace_task(task_id: TaskID, task_in: TaskUpdate) -> Task:
    """Replace a task: fields left out take their defaults."""
    task = find_task(task_id)
    task = task.model_copy(update={**task_in.model_dump(), "updated_at": now()})
    db.tasks[task_id] = task
    return task


@app.patch("/tasks/{task_id}", tags=["tasks"])
async def update_task(task_id: TaskID, task_in: TaskPatch) -> Task:
    """Change some fields of a task, e.g. {"done": true}."""
    task = find_task(task_id)
    task = task.model_copy(update={**task_in.model_dump(exclude_unset=True), "updated_at": now()})
    db.tasks[task_id] = task
    return task


@unless(
    "task_delete_removed",
    app.delete(
        "/tasks/{task_id}",
        status_code=status.HTTP_204_NO_CONTENT,
        tags=["tasks"],
        deprecated=True if "task_delete_deprecated" in CHANGE else None,  # CHANGE task_delete_deprecated
    ),
)
async def delete_task(task_id: TaskID) -> None:
    """Delete a task."""
    find_task(task_id)
    del db.tasks[task_id]


# Outside the conventions


@app.get(
    "/stats",
    tags=["meta"],
    responses={200: {"content": {"application/json": {"example": STATS_EXAMPLE}}}},
)
async def get_stats() -> Stats:
    """Count projects and tasks: all tasks, the done ones, and tasks by priority."""
    return compute_stats()


@app.get(
    "/healthz" if "health_path_renamed" in CHANGE else "/health",  # CHANGE health_path_renamed
    tags=["meta"],
    # CHANGE health_description_changed
    description="Tell a load balancer or an uptime check that the service answers." if "health_description_changed" in CHANGE else None,
)
async def health() -> Health:
    """Tell a load balancer the service is up."""
    return Health(status="ok")


# CORS as the environment says, the crash routes when asked for, and
# POST /__reference/reset.
harness.install(app, reset)

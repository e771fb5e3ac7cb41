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

and the CORS and test-route settings harness.py reads. POST /__reference/reset
restores the loaded records.

Run it from the module root with:

  PYTHONPATH=../shared/fastapi-stack python3 -m uvicorn tasks:app \\
      --app-dir internal/reference/app --host 127.0.0.1 --port 8000
"""

import copy
import math
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timezone
from enum import Enum
from typing import Annotated, Generic, TypeVar
from uuid import UUID

import harness
from fastapi import FastAPI, HTTPException, Path, Query, status
from pydantic import BaseModel, Field

FIXTURES_DIR = harness.fixtures_dir("testdata/contracts/tasks/fixtures")


# --- Models -----------------------------------------------------------------


class Priority(str, Enum):
    low = "low"
    medium = "medium"
    high = "high"
    urgent = "urgent"


class Project(BaseModel):
    id: UUID
    name: str
    description: str | None = None
    color: str = Field(default="#64748b", description="Hex colour of the project's label")
    archived: bool = False
    created_at: datetime
    updated_at: datetime


class ProjectIn(BaseModel):
    """A project as created (POST) or replaced (PUT)."""

    name: str = Field(min_length=1, max_length=100)
    description: str | None = Field(default=None, max_length=1000)
    color: str = Field(default="#64748b", pattern=r"^#[0-9a-f]{6}$")
    archived: bool = False


class ProjectPatch(BaseModel):
    # Fields a project never holds as null may be left out, not sent as null.
    name: str = Field(default=None, min_length=1, max_length=100)
    description: str | None = Field(default=None, max_length=1000)
    color: str = Field(default=None, pattern=r"^#[0-9a-f]{6}$")
    archived: bool = None


Tag = Annotated[str, Field(min_length=1, max_length=30)]


class Task(BaseModel):
    id: UUID
    project_id: UUID
    title: str
    description: str | None = None
    priority: Priority = Priority.medium
    done: bool = False
    due_date: date | None = None
    tags: list[str] = []
    created_at: datetime
    updated_at: datetime


class TaskCreate(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    priority: Priority = Priority.medium
    due_date: date | None = None
    tags: list[Tag] = Field(default=[], max_length=10)


class TaskUpdate(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    priority: Priority = Priority.medium
    done: bool = False
    due_date: date | None = None
    tags: list[Tag] = Field(default=[], max_length=10)


class TaskPatch(BaseModel):
    title: str = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    priority: Priority = None
    done: bool = None
    due_date: date | None = None
    tags: list[Tag] = Field(default=None, max_length=10)


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    page: int
    size: int
    pages: int


class Stats(BaseModel):
    projects: int
    tasks: int
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
        task = Task.model_validate(record)
        if projects and task.project_id not in projects:
            raise ValueError(f"task {task.id}: no project has id {task.project_id}")
        task.created_at = harness.utc(task.created_at)
        task.updated_at = harness.utc(task.updated_at)
        tasks[task.id] = task
    return Store(projects=projects, tasks=tasks)


loaded = _load()
db = copy.deepcopy(loaded)


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
        done=sum(t.done for t in tasks),
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


# --- Application ------------------------------------------------------------

app = FastAPI(
    title="Task Tracker",
    description="Projects and their tasks: priorities, due dates, tags and a done flag.",
    version="2.3.0",
)

ProjectID = Annotated[UUID, Path(description="Unique identifier of a project")]
TaskID = Annotated[UUID, Path(description="Unique identifier of a task")]


# Projects


@app.get("/projects", tags=["projects"])
async def list_projects(
    archived: bool | None = None,
    page: Annotated[int, Query(ge=1, description="Page number, from 1")] = 1,
    size: Annotated[int, Query(ge=1, le=100, description="Projects per page")] = 20,
) -> Page[Project]:
    """List projects, a page at a time."""
    projects = [p for p in db.projects.values() if archived is None or p.archived == archived]
    start = (page - 1) * size
    return Page[Project](
        items=projects[start : start + size],
        total=len(projects),
        page=page,
        size=size,
        pages=math.ceil(len(projects) / size),
    )


@app.post("/projects", status_code=status.HTTP_201_CREATED, tags=["projects"])
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


@app.get("/projects/{project_id}/tasks", tags=["projects", "tasks"])
async def list_project_tasks(project_id: ProjectID) -> list[Task]:
    """List the tasks of one project."""
    check_project(project_id)
    return [t for t in db.tasks.values() if t.project_id == project_id]


@app.post("/projects/{project_id}/tasks", status_code=status.HTTP_201_CREATED, tags=["projects", "tasks"])
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


@app.get("/tasks", tags=["tasks"])
async def list_tasks(
    project_id: UUID | None = None,
    priority: Priority | None = None,
    done: bool | None = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[Task]:
    """List tasks across projects, optionally filtered."""
    tasks = [
        t
        for t in db.tasks.values()
        if (project_id is None or t.project_id == project_id)
        and (priority is None or t.priority == priority)
        and (done is None or t.done == done)
    ]
    return tasks[offset : offset + limit]


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


@app.delete("/tasks/{task_id}", status_code=status.HTTP_204_NO_CONTENT, tags=["tasks"])
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


@app.get("/health", tags=["meta"])
async def health() -> Health:
    """Tell a load balancer the service is up."""
    return Health(status="ok")


# CORS as the environment says, the crash routes when asked for, and
# POST /__reference/reset.
harness.install(app, reset)

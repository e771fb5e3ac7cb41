"""Parameters declared as Literals of ints and bools, as FastAPI 0.141 reads
them: every value sent as text is refused ("1" is not 1), so a correct app
answers 422 to any request that sends one."""

from typing import Literal

from fastapi import FastAPI, Header, HTTPException
from pydantic import BaseModel

app = FastAPI()


class Thing(BaseModel):
    id: int
    level: Literal[1, 2]
    name: str


THINGS = [Thing(id=1, level=1, name="one"), Thing(id=2, level=2, name="two")]


@app.get("/things", response_model=list[Thing])
def things(level: Literal[1, 2] | None = None, name: str | None = None):
    return [t for t in THINGS if (level is None or t.level == level) and (name is None or t.name == name)]


@app.get("/things/{thing_id}", response_model=Thing)
def thing(thing_id: int):
    for t in THINGS:
        if t.id == thing_id:
            return t
    raise HTTPException(status_code=404, detail="Thing not found")


@app.get("/opt")
def opt(n: Literal[1, 2] = 1, b: Literal[True] | None = None, s: Literal["a", "b"] = "a"):
    return {"n": n, "b": b, "s": s}


@app.get("/req")
def req(n: Literal[1, 2]):
    return {"n": n}


@app.get("/path/{n}")
def path(n: Literal[1, 2]):
    return {"n": n}


@app.get("/head")
def head(x_n: Literal[1, 2] = Header(1), x_b: Literal[False] = Header(False)):
    return {"n": x_n}

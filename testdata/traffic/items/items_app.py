"""The items contract of the replay tests: Optional fields, an int | str union,
an Any field and a dict of Optional values. openapi.json is app.openapi().
ITEMS_FILE names a JSON list of the records it serves (other/items.json)."""

import json
import os
from typing import Any, Optional

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel


class Poster(BaseModel):
    url: str
    width: Optional[int] = None


class Item(BaseModel):
    id: int
    name: str
    note: Optional[str] = None
    code: int | str
    rating: float
    extra: Any = None
    poster: Optional[Poster] = None
    tags: list[str] = []
    scores: dict[str, Optional[float]] = {}


app = FastAPI(title="items")
ITEMS: dict[int, Item] = {}
if os.environ.get("ITEMS_FILE"):
    with open(os.environ["ITEMS_FILE"]) as f:
        ITEMS = {r["id"]: Item(**r) for r in json.load(f)}


@app.get("/items", response_model=list[Item])
def list_items() -> list[Item]:
    return list(ITEMS.values())


@app.get("/items/{item_id}", response_model=Item)
def read_item(item_id: int) -> Item:
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="Item not found")
    return ITEMS[item_id]

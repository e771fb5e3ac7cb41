"""The FastAPI app whose document is formats_openapi.json:

    PYTHONPATH=../../testdata/fastapi-stack python3 -c "import json, formats_app; print(json.dumps(formats_app.app.openapi()))"

(from contract/testdata)
"""
from datetime import date, datetime, time, timedelta
from typing import Optional
from fastapi import FastAPI
from pydantic import AnyUrl, BaseModel, ConfigDict, HttpUrl

app = FastAPI()


class Image(BaseModel):
    url: HttpUrl
    name: str


class Item(BaseModel):
    model_config = ConfigDict(val_json_bytes="base64", ser_json_bytes="base64")
    name: str
    tags: set[str] = set()
    image: Optional[Image] = None
    every: timedelta
    blob: bytes


@app.get("/search")
def search(u: HttpUrl, d: date, du: timedelta, a: Optional[AnyUrl] = None, t: Optional[time] = None, dt: Optional[datetime] = None):
    return {"u": u, "d": d, "du": du, "a": a, "t": t, "dt": dt}


@app.post("/items")
def create(item: Item) -> Item:
    return item

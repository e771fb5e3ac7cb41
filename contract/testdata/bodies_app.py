"""The FastAPI app behind bodies_openapi.json: request bodies that are not
pydantic models, and bodies FastAPI does not read (openapi_extra).

    PYTHONPATH=../../testdata/fastapi-stack python3 bodies_app.py > bodies_openapi.json

(from contract/testdata; FastAPI 0.141.1, pydantic 2.13.4).
"""

import json
import sys

from fastapi import Body, FastAPI, Request
from pydantic import BaseModel

app = FastAPI()


class Item(BaseModel):
    name: str
    price: float


@app.post("/sum")
def sum_numbers(numbers: list[int] = Body()):
    return {"sum": sum(numbers)}


@app.post("/weights")
def weights(w: dict[int, float]):
    return w


@app.post("/items")
def items(items: list[Item]):
    return items


@app.post("/count")
def count(n: int = Body(ge=1)):
    return n


@app.post(
    "/yaml",
    openapi_extra={
        "requestBody": {"content": {"application/x-yaml": {"schema": Item.model_json_schema()}}, "required": True},
    },
)
async def yaml_item(request: Request):
    return {"size": len(await request.body())}


@app.post(
    "/raw",
    openapi_extra={
        "requestBody": {"content": {"application/json": {"schema": Item.model_json_schema()}}, "required": True},
    },
)
async def raw_item(request: Request):
    return {"size": len(await request.body())}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(app.openapi(), ensure_ascii=True, separators=(",", ":")))

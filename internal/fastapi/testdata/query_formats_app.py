"""The app behind query_formats_openapi.json and query_formats_cases.json:
query parameters of the types whose string format pydantic validates.
The cases are each GET /q?PARAM=VALUE against it under uvicorn, with the
422 body FastAPI 0.141.1 sent (empty when it accepted the value)."""
from datetime import date, datetime, time, timedelta
from typing import Optional
from fastapi import FastAPI
from pydantic import HttpUrl, AnyUrl
app = FastAPI()
@app.get("/q")
def q(u: Optional[HttpUrl] = None, a: Optional[AnyUrl] = None, d: Optional[date] = None, dt: Optional[datetime] = None, t: Optional[time] = None, du: Optional[timedelta] = None):
    return {"u": u, "a": a, "d": d, "dt": dt, "t": t, "du": du}

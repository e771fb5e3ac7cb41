"""Credentials in path parameters, as FastAPI apps declare them: a reset
token and an invitation token by name, a code as a SecretStr (its schema
format: password, writeOnly). It remembers the values it got, outside the
contract, so that a test sees what was sent."""

from fastapi import FastAPI
from pydantic import BaseModel, SecretStr

app = FastAPI()
seen: list[str] = []


class Ok(BaseModel):
    ok: bool


@app.get("/reset-password/{token}", response_model=Ok)
def check_reset_token(token: str):
    seen.append(token)
    return {"ok": True}


@app.post("/invitations/{invite_token}/accept", response_model=Ok)
def accept_invitation(invite_token: str):
    seen.append(invite_token)
    return {"ok": True}


@app.get("/codes/{code}", response_model=Ok)
def check_code(code: SecretStr):
    seen.append(code.get_secret_value())
    return {"ok": True}


@app.get("/__seen", include_in_schema=False)
def seen_values():
    return seen

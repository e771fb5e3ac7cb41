from pydantic import BaseModel, Field

from todolist.email_compat import EmailStr


class Credentials(BaseModel):
    email: EmailStr
    password: str = Field(..., min_length=8, max_length=128)

    class Config:
        allow_mutation = False
        orm_mode = True


class User(BaseModel):
    id: int
    email: EmailStr
    password_hash: str

    class Config:
        allow_mutation = False
        orm_mode = True


class UserRegistry(BaseModel):
    id: int
    email: EmailStr

    class Config:
        allow_mutation = False
        orm_mode = True

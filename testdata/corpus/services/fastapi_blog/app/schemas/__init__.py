from .post import PostCreate, PostInDB, Posts, PostUpdate
from .token import Token, TokenData
from .user import User, UserBase, UserCreate, UserInDB, UserPassword, Users

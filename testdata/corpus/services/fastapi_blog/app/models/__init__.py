from .post import Post
from .user import User

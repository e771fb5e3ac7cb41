__all__ = (
    "TodoItem",
    "User",
)


from .todo_item import TodoItem
from .user import User

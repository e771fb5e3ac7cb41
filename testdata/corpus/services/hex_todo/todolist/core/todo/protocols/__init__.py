__all__ = ("TodoItemRepo",)


from .todo_item_repo import TodoItemRepo

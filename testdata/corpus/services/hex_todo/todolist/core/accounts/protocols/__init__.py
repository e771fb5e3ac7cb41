__all__ = ("UserRepo",)


from .user_repo import UserRepo

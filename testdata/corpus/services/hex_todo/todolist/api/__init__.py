__all__ = ("init_app",)


from todolist.api.app import init_app

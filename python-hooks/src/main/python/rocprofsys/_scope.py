"""How a profiler or a region is used: as a decorator, a context manager or around one call."""

from functools import wraps


class Scope:
    """The uses of an object with start() and stop(): each one starts it and stops it again."""

    def __call__(self, func):
        @wraps(func)
        def function_wrapper(*args, **kwargs):
            self.start()
            try:
                return func(*args, **kwargs)
            finally:
                self.stop()

        return function_wrapper

    def __enter__(self, *args, **kwargs):
        self.start()
        return self

    def __exit__(self, exec_type, exec_value, exec_tb):
        self.stop()
        return False

    def runcall(self, func, *args, **kwargs):
        self.start()
        try:
            return func(*args, **kwargs)
        finally:
            self.stop()

"""Run a registration once a third-party module is imported, in either order with darray."""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable
from typing import Any


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs ``register`` right after module ``trigger`` is first imported (then leaves ``sys.meta_path``)."""

    def __init__(self, trigger: str, register: Callable[[], None]) -> None:
        self.trigger, self.register = trigger, register

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != self.trigger:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run, register = loader.exec_module, self.register

        def exec_module(module: Any) -> None:
            run(module)
            register()

        loader.exec_module = exec_module  # type: ignore[method-assign]  # wraps this one loader's method
        return spec


def on_import(trigger: str, register: Callable[[], None]) -> None:
    """``register()`` now when ``trigger`` is already imported, else right after it is (once)."""
    if trigger in sys.modules:
        register()
    elif not any(isinstance(f, _AfterImport) and f.trigger == trigger for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(trigger, register))


__all__ = ["on_import"]

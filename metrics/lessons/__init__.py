"""Teaching material built on the metrics: the documents' worked examples and a judge for every
printed number (``examples``), the library conventions (``libraries``), the catalogue of the ways a
student goes wrong (``misconceptions``), the diagnosis of a hand calculation (``diagnose``), seeded
practice exercises (``exercises``) and which convention gives a number somebody got (``match``)."""
import importlib

# Each module is imported when one of its names is first used (PEP 562): the playground needs the
# worked examples on its first screen, not the diagnosis, the exercises or the library conventions.
# ``metrics.lessons.diagnose`` is the module once imported (``metrics.diagnose`` is the function).
_MODULES = ("diagnose", "examples", "exercises", "libraries", "match", "misconceptions")


def __getattr__(name: str):
    if name in _MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "__all__":
        value = globals()["__all__"] = [
            n for sub in _MODULES for n in importlib.import_module(f"{__name__}.{sub}").__all__]
        return value
    if not name.startswith("_"):
        for sub in _MODULES:
            module = importlib.import_module(f"{__name__}.{sub}")
            if name in module.__all__:
                value = globals()[name] = getattr(module, name)
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__getattr__("__all__")))

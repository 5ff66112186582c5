"""Teaching material built on the metrics: the documents' worked examples and a judge for every
printed number (``examples``), the library conventions (``libraries``), the diagnosis of a hand
calculation (``diagnose``), seeded practice exercises (``exercises``) and which convention gives a
number somebody got (``match``)."""
from . import diagnose, examples, exercises, libraries, match

# Captured before the star imports: afterwards ``diagnose`` is the function, not the module.
_MODULES = (diagnose, examples, exercises, libraries, match)
from .diagnose import *  # noqa: F401,F403
from .examples import *  # noqa: F401,F403
from .exercises import *  # noqa: F401,F403
from .libraries import *  # noqa: F401,F403
from .match import *  # noqa: F401,F403

__all__ = [name for module in _MODULES for name in module.__all__]

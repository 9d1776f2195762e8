"""A Python callable as the model: ``module:function`` or a function object.

The callable takes a list of strings and returns a list of the same length, one entry per input:

* a string: the reply text, read by the parse rules like any model's reply; or
* a list of extractions, used directly (no parsing): each a sequence of strings (subject,
  relation, objects...) or ``{"arguments": [...], "confidence": x}`` (the arity rule still
  applies and rejected ones are counted).

What it receives (``receives``): ``texts``, the items' texts (an extractor from training code:
``extract(texts) -> triples per text``), or ``prompts``, the prompt rendered in the completion
layout (a wrapper around some other model). It is called with up to ``batch_size`` inputs at a
time, from one thread.

Replies of a callable are not cached unless ``cache=True``: the same name may stand for a model
that changed since (a training loop evaluating every epoch).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...errors import InputError
from ...http import printable
from ..exchange import Reply
from ..prompts import Prompt
from .base import Adapter

#: what a callable may receive
RECEIVES = ("texts", "prompts")


def load_callable(spec: str) -> Callable:
    """Import ``module:function`` (the function may be a dotted attribute path).

    Parameters
    ----------
    spec : str
        ``package.module:function`` or ``package.module:Class.method``.

    Returns
    -------
    callable
        The object named.

    Raises
    ------
    InputError
        Not of that form, the module cannot be imported, or the name is not a callable in it.

    Examples
    --------
    >>> load_callable("os.path:basename")("/a/b")
    'b'
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InputError.option("model", f"py:{spec}", "py:module:function")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part, None)
            if target is None:
                raise InputError.option("model", f"py:{spec}", f"a name defined in {module_name} (no {attr})")
    except InputError:
        raise
    except ImportError as exc:
        raise InputError.option("model", f"py:{spec}", f"an importable module ({printable(str(exc))})") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's module: whatever it raises is one line
        raise InputError.option("model", f"py:{spec}", f"a module that imports without error; importing {module_name} "
                                f"raised {type(exc).__name__}: {printable(str(exc))}") from None
    if not callable(target):
        raise InputError.option("model", f"py:{spec}", f"a callable ({attr} is a {type(target).__name__})")
    return target


class CallableAdapter(Adapter):
    """Ask a Python callable (see the module docstring).

    Parameters
    ----------
    function : callable or str
        The callable, or ``module:function``.
    receives : {'texts', 'prompts'}
        What it is given.
    name : str or None
        Its name in identities and signatures (default ``module:qualname``).
    batch_size : int
        Most inputs per call.
    cache : bool
        Store and reuse its replies (only for a callable whose name pins its behaviour).

    Raises
    ------
    InputError
        A bad ``receives``, ``batch_size`` or ``module:function``.
    """

    kind = "py"
    max_workers = 1

    def __init__(self, function: Callable | str, *, receives: str = "texts", name: str | None = None, batch_size: int = 64,
                 cache: bool = False) -> None:
        if receives not in RECEIVES:
            raise InputError.option("receives", receives, "texts or prompts")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise InputError.option("batch_size", batch_size, "an integer >= 1")
        self.function = load_callable(function) if isinstance(function, str) else function
        if not callable(self.function):
            raise InputError.option("model", function, "a callable or module:function")
        default = function if isinstance(function, str) else \
            f"{getattr(self.function, '__module__', '?')}:{getattr(self.function, '__qualname__', type(self.function).__name__)}"
        self.name = name or default
        self.receives, self.batch_size, self.cacheable = receives, batch_size, cache

    def identity(self) -> dict[str, Any]:
        """Return kind, the callable's name and what it receives.

        Returns
        -------
        dict
            ``kind``, ``url`` (empty), ``model``, ``receives``, ``decoding`` (empty).
        """
        return {"kind": self.kind, "url": "", "model": self.name, "receives": self.receives, "decoding": {}}

    def render(self, prompt: Prompt, text: str, fields: Mapping[str, str]) -> str:
        """Return the item's text, or its prompt in the completion layout.

        Parameters
        ----------
        prompt : Prompt
            The task's prompt.
        text : str
            The item's text.
        fields : mapping of str to str
            The item's other fields.

        Returns
        -------
        str
            What the callable receives.
        """
        return text if self.receives == "texts" else prompt.completion(text, **fields)

    def complete(self, inputs: Sequence[str]) -> list[Reply]:
        """Call the function once with ``inputs``.

        Parameters
        ----------
        inputs : sequence of str
            Texts or prompts.

        Returns
        -------
        list of Reply
            Text replies, or replies carrying the extractions returned.

        Raises
        ------
        InputError
            It returned something other than a list of the same length of strings or lists.
        """
        got = self.function(list(inputs))
        if isinstance(got, (str, bytes)) or not isinstance(got, Sequence) or len(got) != len(inputs):
            size = len(got) if isinstance(got, Sequence) else type(got).__name__
            raise InputError(self.name, None, f"expected a list of {len(inputs)} replies (one per input), got {size}",
                             field="return value")
        out = []
        for number, value in enumerate(got, 1):
            if isinstance(value, str):
                out.append(Reply(value))
            elif isinstance(value, Sequence) and not isinstance(value, bytes):
                out.append(Reply("", "stop", extractions=tuple(dict(e) if isinstance(e, Mapping) else list(e) if isinstance(e, tuple) else e
                                                                    for e in value)))
            else:
                raise InputError(self.name, number, f"expected a string or a list of extractions, got {type(value).__name__}",
                                 field="return value")
        return out

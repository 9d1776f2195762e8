"""Model adapters: OpenAI-compatible servers, local Hugging Face models, Python callables.

:class:`Adapter` is the interface (:mod:`.base`); :func:`adapter_from_spec` reads the ``MODEL``
argument (:mod:`.spec`). The Hugging Face adapter (:mod:`.hf`) imports ``transformers`` only when
it is made.
"""

from __future__ import annotations

from .base import Adapter, Decoding
from .function import CallableAdapter
from .server import ServerAdapter
from .spec import FORMS, adapter_from_spec, as_adapter

__all__ = ["FORMS", "Adapter", "CallableAdapter", "Decoding", "ServerAdapter", "adapter_from_spec", "as_adapter"]

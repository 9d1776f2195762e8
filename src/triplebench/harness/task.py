"""The :class:`Task` interface: one benchmark input set that ``run`` can put a model through.

A benchmark's folder implements it (its inputs, prompt, parse mode, prediction records, native
file writer and scorer call); the harness names no benchmark. The flow for one task::

    items = task.inputs()                          # Item(id, text, fields)
    items, why = task.sample(items, limit)         # with --limit: the sample, decided before anything is asked
    reply per item  <- model(task.prompt rendered)
    parsed per item <- parse_reply(reply, arity=task.arity)  (confidence filled in)
    records = task.predictions(items, parsed)      # the scorer's input records
    path = task.write_predictions(records, folder) # the benchmark's native file
    task.check()                                   # before the first request: what scoring needs is here
    result = task.score(records, asked=None)       # the benchmark's Result (asked: the items of a --limit sample)

Every extraction handed to :meth:`Task.predictions` has a float confidence: from the token
log-probabilities of its span where known (:mod:`.confidence`), the callable's own, else
:data:`CONSTANT_CONFIDENCE`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .parse import ARITIES, Parsed, parse_reply, prompt_shown
from .prompts import Prompt

if TYPE_CHECKING:
    from ..scoring.result import Result

#: the confidence of an extraction whose own is unknown
CONSTANT_CONFIDENCE = 1.0


class NoDemonstrations(InputError):
    """``shots`` > 0 asked of a benchmark that has no demonstrations to draw (no dev split, a published prompt with its own).

    :func:`~triplebench.task_lookup.find_tasks` runs such a benchmark's tasks at 0 shots beside the
    tasks that take demonstrations, each with a warning (:attr:`Task.warnings`).

    Parameters
    ----------
    shots : int
        The demonstrations asked for.
    why : str
        Why the benchmark has none (``BenchIE has no dev split (...)``).
    """

    def __init__(self, shots: int, why: str) -> None:
        super().__init__(None, None, f"expected 0, got {shots}: {why}", field="shots")
        self.shots, self.why = shots, why


@dataclass(frozen=True)
class Item:
    """One input of a task.

    Parameters
    ----------
    id : str
        Unique within the task (a sentence id, a text's index); names the item in replies.jsonl and batch files.
    text : str
        The text the prompt's ``{text}`` receives.
    fields : mapping of str to str
        Further template fields (a relation inventory, a language name, ...).
    """

    id: str
    text: str
    fields: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))


class Task(ABC):
    """One benchmark input set run through a model.

    Attributes
    ----------
    name : str
        ``<benchmark>/<set>`` (``carb/test``); also the task's folder in a run directory.
    benchmark : str
        The benchmark's registry name.
    prompt : Prompt
        The versioned prompt.
    arity : {'triple', 'nary'}
        The parse mode (:data:`~triplebench.harness.parse.PARSE_RULES`, rule 6).
    ranked_scores : tuple of str
        The scores of the task's result that rank extractions by confidence (CaRB's and OIE2016's
        ``auc``): with constant confidences they are not the published quantity. Empty elsewhere.
    takes : tuple of str
        The scorer options the command may set for this task (``triplebench run --minilm-dir``):
        :meth:`configure` keeps those given in :attr:`settings`.
    settings : mapping of str to object
        The scorer options given (:meth:`configure`); empty by default.
    warnings : tuple of str
        What the run must say about how the task was made, before anything is asked (``--shots``
        not applied: the benchmark has no demonstrations); the runner adds them to the task's warnings.
    """

    name: str
    benchmark: str
    prompt: Prompt
    arity: str = "triple"
    ranked_scores: tuple[str, ...] = ()
    takes: tuple[str, ...] = ()
    settings: Mapping[str, Any] = MappingProxyType({})
    warnings: tuple[str, ...] = ()

    @property
    def uses_confidence(self) -> bool:
        """Whether the scorer ranks extractions by confidence (some :attr:`ranked_scores`)."""
        return bool(self.ranked_scores)

    def configure(self, options: Mapping[str, Any]) -> None:
        """Keep the scorer options of ``options`` this task :attr:`takes` (:attr:`settings`).

        Parameters
        ----------
        options : mapping of str to object
            Scorer options by name (the command's, None for those not given are left out by the caller).
        """
        self.settings = MappingProxyType({name: options[name] for name in self.takes if name in options})

    def check(self) -> None:
        """Refuse, before the first request, to run a task whose scoring would fail on something knowable now.

        The runner calls it for every task before asking anything. A task names what it needs and
        lacks (an extra, model files, a topic model, data, an option) and how to get it.

        Raises
        ------
        TripleBenchError
            Something the scorer will need is missing (the default checks nothing: the inputs
            and the gold were read when the task was made).
        """
        return None

    def sample(self, items: Sequence[Item], limit: int) -> tuple[list[Item], str | None]:
        """The items a ``--limit`` sample asks, decided before anything is asked: by default the first ``limit``.

        A task whose scorer needs whole units (ROBUST scores a clique by its worst sentence) takes
        more, to the end of the last unit the first ``limit`` items start, and says why: a sample
        the scorer would refuse is never asked.

        Parameters
        ----------
        items : sequence of Item
            Every item of the task (:meth:`inputs`), in order.
        limit : int
            The items asked for (>= 1).

        Returns
        -------
        list of Item
            The items to ask.
        str or None
            Why they are more than the first ``limit`` (the run's warning and manifest say it); None
            when they are exactly those.
        """
        return list(items[:limit]), None

    def parse(self, text: str, finish_reason: str | None, item: Item | None = None) -> Parsed:
        """Read one reply: :func:`~triplebench.harness.parse.parse_reply` with the task's arity and what its prompt showed.

        Tuples the prompt shows (its placeholders, examples and demonstrations'
        outputs) are rejected as copies unless ``item``'s text supports them, and the reply is read
        up to a new input block the model invented (:func:`~triplebench.harness.parse.prompt_shown`).
        A benchmark whose replies follow a format of their own (a published prompt asking for
        ``relation(subject, object)``) overrides this with its reader; it must give every reply
        an outcome and a reason as :data:`~triplebench.harness.parse.PARSE_RULES` defines them.

        Parameters
        ----------
        text : str
            The reply.
        finish_reason : str or None
            Why the server stopped (``length``: cut at max_tokens).
        item : Item or None
            The item asked (its text supports a tuple the prompt shows); None: no tuple the prompt
            shows is supported.

        Returns
        -------
        Parsed
            The outcome, its reason and the extractions (with their spans in ``text``).
        """
        return parse_reply(text, arity=self.arity, finish_reason=finish_reason,
                           shown=prompt_shown(self.prompt, item.text if item is not None else ""))

    @abstractmethod
    def inputs(self) -> Sequence[Item]:
        """Return the items to ask about, in a fixed order.

        Returns
        -------
        sequence of Item
            Items with unique ids.
        """

    @abstractmethod
    def data_version(self) -> str:
        """Return the version of the data the inputs and the gold come from (for the manifest).

        Returns
        -------
        str
            E.g. the dataset card's version.
        """

    @abstractmethod
    def predictions(self, items: Sequence[Item], parsed: Sequence[Parsed]) -> list:
        """Return the scorer's input records for the parsed replies.

        Parameters
        ----------
        items : sequence of Item
            The items, in :meth:`inputs` order.
        parsed : sequence of Parsed
            One per item; every extraction has a float confidence.

        Returns
        -------
        list
            Records in the shape the benchmark's ``score`` reads.
        """

    @abstractmethod
    def write_predictions(self, records: list, folder: Path) -> Path:
        """Write ``records`` in the benchmark's native file format (the upstream scorer reads it).

        Parameters
        ----------
        records : list
            What :meth:`predictions` returned.
        folder : Path
            The task's folder in the run directory (it exists).

        Returns
        -------
        Path
            The file written.
        """

    def score_options(self) -> dict[str, Any]:
        """Return the scorer options that read this task's native file (what ``triplebench score`` needs).

        Returns
        -------
        dict
            E.g. ``{"fmt": "tabbed", "split": "test"}``; the report page scores the run's file with
            them beside the benchmark's published systems.
        """
        return {}

    @abstractmethod
    def score(self, records: list, asked: Sequence[Item] | None = None) -> Result:
        """Score ``records`` with the benchmark's scorer.

        Parameters
        ----------
        records : list
            What :meth:`predictions` returned.
        asked : sequence of Item, optional
            The items asked when they are a sample of :meth:`inputs` (``--limit``): the records are
            then scored against the gold of those items only, and the coverage counts what was
            asked. None: every input was asked.

        Returns
        -------
        Result
            The benchmark's result.
        """


def check_tasks(tasks: Sequence[Task]) -> None:
    """Refuse tasks that lack what the harness needs, or share a name.

    Parameters
    ----------
    tasks : sequence of Task
        The tasks of one run.

    Raises
    ------
    InputError
        Not a :class:`Task`, an empty or path-unsafe name, a missing prompt, an unknown arity,
        two tasks of the same name, or no task at all.
    """
    if not tasks:
        raise InputError.option("tasks", list(tasks), "at least one task")
    seen = set()
    for task in tasks:
        if not isinstance(task, Task):
            raise InputError.option("tasks", task, "Task instances (triplebench.harness.task.Task)")
        name = getattr(task, "name", "")
        parts = name.split("/") if isinstance(name, str) else []
        if not parts or any(p in ("", ".", "..") or "\\" in p for p in parts):
            raise InputError.option("task name", name, "a name like benchmark/set (no empty, . or .. parts)")
        if name in seen:
            raise InputError.option("tasks", name, "tasks with distinct names")
        seen.add(name)
        if not isinstance(getattr(task, "prompt", None), Prompt):
            raise InputError(None, None, f"task {name!r} has no Prompt", field="prompt")
        if task.arity not in ARITIES:
            raise InputError(None, None, f"task {name!r}: arity {task.arity!r}, expected one of {', '.join(ARITIES)}", field="arity")
        if not isinstance(getattr(task, "benchmark", None), str) or not task.benchmark:
            raise InputError(None, None, f"task {name!r} names no benchmark", field="benchmark")

"""Versioned prompts: what a model is asked, as data with a digest.

A :class:`Prompt` has a name and a version (what a person cites), a system text, a user
template, optional few-shot demonstrations and stop sequences (sent with every request, beside
the user's own: the labels that open a new input block, so that a model stops instead of
inventing the next item). It renders one input item either as chat
messages (:meth:`Prompt.messages`, for chat APIs and chat templates) or as one completion
string (:meth:`Prompt.completion`, for completions APIs and base models). Its
:attr:`Prompt.digest` is the SHA-256 of everything that changes what is sent (system text,
template, demonstrations, the completion layout, stop sequences when there are any), not of its
name, version or source: two prompts with the same digest send the same requests. Signatures carry the first 12 hex digits
(:attr:`Prompt.short_digest`).

Every prompt stops where a new block of its own begins: beside the stop sequences a prompt
declares, :attr:`Prompt.stop` holds the template's opening (:func:`block_opening`: its first line up
to the first placeholder) after a newline. In the completion layout each demonstration and the
item open with that line (the whole instruction is repeated before each), so a base model that
goes on to invent the next block writes it first: ``\nSentence:`` for a template opening with
``Sentence: {text}``, the instruction's first line for one that opens with the instruction.

Templates use Python's format-string syntax restricted to plain names: ``{text}`` (required)
and any other ``{field}`` an item provides; ``{{`` and ``}}`` write a literal brace (so a
JSON example in a prompt is written ``{{"subject": ...}}``). Attribute access, indexing,
conversions and format specs are refused when the prompt is made.

The completion layout (:data:`COMPLETION_LAYOUT`): the system text, then one block per
demonstration (its rendered user template, a newline, its output), then the item's rendered
user template followed by a newline; blocks are separated by a blank line and empty parts are
left out.

Prompt files are TOML (:func:`load_prompt`)::

    name = "openie-tuples"          # required
    version = "1"                   # required (a string)
    source = "where the wording comes from"   # optional; not part of the digest
    system = "You extract facts."   # optional
    user = '''Sentence: {text}
    Extractions:'''                 # required; must contain {text}
    stop = ["\nSentence:"]          # optional; stop sequences every request sends (beside the template's opening)

    [[demonstrations]]              # optional, repeated; each has `output` and the template's fields
    text = "Obama was born in Hawaii."
    output = "(Obama; was born in; Hawaii)"

TOML, not YAML or JSON: multi-line strings without indentation rules or escapes, no implicit
typing (a version ``1.10`` stays a string only when quoted, and TOML makes the quotes
visible), and the reader is in the standard library.
"""

from __future__ import annotations

import hashlib
import json
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputError

#: version of the way :meth:`Prompt.completion` flattens a prompt (part of every digest)
COMPLETION_LAYOUT = 1

#: keys a prompt file may have
FILE_KEYS = ("name", "version", "source", "system", "user", "demonstrations", "stop")


def template_fields(template: str, where: str = "user") -> tuple[str, ...]:
    """Return the placeholder names of a template, in order of first use.

    Parameters
    ----------
    template : str
        A format string with ``{name}`` placeholders (``{{``/``}}`` for literal braces).
    where : str
        What the template is, for messages (a field or file name).

    Returns
    -------
    tuple of str
        The distinct placeholder names.

    Raises
    ------
    InputError
        Unbalanced braces, or a placeholder that is not a plain name.

    Examples
    --------
    >>> template_fields("Sentence: {text}\\nRelations: {relations}\\n{{json}}")
    ('text', 'relations')
    """
    names: dict[str, None] = {}
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise InputError(None, None, f"expected a template with balanced braces ({exc}); write {{{{ and }}}} for literal braces",
                         field=where) from None
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise InputError(None, None, f"placeholder {{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}} "
                             "is not a plain name; expected {name}, or {{ and }} for literal braces", field=where)
        names.setdefault(name)
    return tuple(names)


def block_opening(template: str) -> str:
    """Return what every block rendered from ``template`` begins with: its first non-blank line up to the first placeholder.

    Parameters
    ----------
    template : str
        A user template (:func:`template_fields`' syntax).

    Returns
    -------
    str
        The literal text (``{{`` written ``{``), trailing spaces removed; empty when the first line
        opens with a placeholder or what comes before it holds no letter (a stop at ``[`` or ``1.``
        would end answers, not blocks).

    Examples
    --------
    >>> block_opening("Extract (a; b; c) {{tuples}}.\\nSentence: {text}")
    'Extract (a; b; c) {tuples}.'
    >>> block_opening("Sentence: {text}\\nTuples:"), block_opening("{text}"), block_opening("[{lang}] {text}")
    ('Sentence:', '', '')
    """
    literal = []
    for text, name, _, _ in string.Formatter().parse(template):
        literal.append(text)
        if name is not None:
            break
    lines = [line for line in "".join(literal).split("\n") if line.strip()]
    return lines[0].rstrip() if lines and any(c.isalpha() for c in lines[0]) else ""


@dataclass(frozen=True)
class Demonstration:
    """One few-shot example: the fields its input fills the template with, and the answer shown.

    Parameters
    ----------
    fields : mapping of str to str
        The template's fields for this example (``text`` and any other).
    output : str
        The reply the model is shown for it.
    """

    fields: Mapping[str, str]
    output: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))


@dataclass(frozen=True)
class Prompt:
    """A versioned prompt: system text, user template and demonstrations.

    Parameters
    ----------
    name : str
        What the prompt is called (``openie-tuples``).
    version : str
        Its version; bump it whenever the text changes.
    user : str
        The user template; must contain ``{text}``.
    system : str
        The system text (empty: none).
    demonstrations : tuple of Demonstration
        Few-shot examples, shown in order before the item.
    source : str
        Where the wording comes from (a paper, a file); not part of the digest.
    stop : tuple of str
        Stop sequences sent with every request (the adapters add the user's own); the template's
        opening after a newline (:func:`block_opening`) is added to them when it has one.

    Raises
    ------
    InputError
        An empty name or version, a template without ``{text}`` or with a bad
        placeholder, a demonstration missing one of the template's fields, a stop
        sequence that is not a non-empty string.

    Examples
    --------
    >>> p = Prompt("demo", "1", "Sentence: {text}\\nTriples:", system="Extract (subject; relation; object) triples.")
    >>> [m["role"] for m in p.messages("Obama was born in Hawaii.")]
    ['system', 'user']
    >>> print(p.completion("Obama was born in Hawaii."))
    Extract (subject; relation; object) triples.
    <BLANKLINE>
    Sentence: Obama was born in Hawaii.
    Triples:
    <BLANKLINE>
    >>> len(p.digest), p.short_digest == p.digest[:12]
    (64, True)
    """

    name: str
    version: str
    user: str
    system: str = ""
    demonstrations: tuple[Demonstration, ...] = ()
    source: str = field(default="", compare=False)
    stop: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise InputError.option("name", self.name, "a non-empty prompt name")
        if not self.version or not isinstance(self.version, str):
            raise InputError.option("version", self.version, "a non-empty version string")
        names = template_fields(self.user)
        if "text" not in names:
            raise InputError.option("user", self.user, "a user template containing {text}")
        template_fields(self.system, "system")
        object.__setattr__(self, "demonstrations", tuple(self.demonstrations))
        if isinstance(self.stop, str) or not all(isinstance(s, str) and s for s in self.stop):
            raise InputError.option("stop", self.stop, "a list of non-empty strings")
        opening = block_opening(self.user)
        object.__setattr__(self, "stop", tuple(dict.fromkeys((*self.stop, *(("\n" + opening,) if opening else ())))))
        for number, demo in enumerate(self.demonstrations, 1):
            missing = [n for n in names if n not in demo.fields]
            if missing:
                raise InputError(None, None, f"demonstration {number} lacks the template's field(s) {', '.join(missing)}",
                                 field="demonstrations")

    @property
    def fields(self) -> tuple[str, ...]:
        """The placeholders of the user template (``text`` among them).

        Returns
        -------
        tuple of str
            Placeholder names in order of first use.
        """
        return template_fields(self.user)

    @property
    def input_labels(self) -> tuple[str, ...]:
        """The line starts that open a new input block: the label before ``{text}``, and the stop sequences (the opening's too).

        A reply is read up to the first line that starts with one
        (:data:`~triplebench.harness.parse.PARSE_RULES`, rule 2).

        Returns
        -------
        tuple of str
            E.g. ``('Sentence:',)``; stripped, blank ones left out.

        Examples
        --------
        >>> Prompt("p", "1", "Extract.\\nSentence: {text}\\nTuples:", stop=("\\nSentence:", "\\nText:")).input_labels
        ('Sentence:', 'Text:', 'Extract.')
        """
        line = next(x for x in self.user.splitlines() if "{text}" in x)
        before = line[: line.index("{text}")].strip()
        labels = [before] if before.endswith(":") and "{" not in before else []
        return tuple(dict.fromkeys(x for x in (*labels, *(s.strip() for s in self.stop)) if x))

    def render_user(self, text: str, **fields: str) -> str:
        """Return the user template filled with ``text`` and ``fields``.

        Parameters
        ----------
        text : str
            The item's text.
        **fields : str
            The template's other fields.

        Returns
        -------
        str
            The filled template.

        Raises
        ------
        InputError
            A field of the template is not given.
        """
        values = {"text": text, **fields}
        missing = [n for n in self.fields if n not in values]
        if missing:
            raise InputError(None, None, f"prompt {self.name!r} needs the field(s) {', '.join(missing)} of its template; "
                             f"the item has {', '.join(sorted(values))}", field="fields")
        return self.user.format(**{n: values[n] for n in self.fields})

    def messages(self, text: str, **fields: str) -> list[dict[str, str]]:
        """Return the chat messages for one item.

        Parameters
        ----------
        text : str
            The item's text.
        **fields : str
            The template's other fields.

        Returns
        -------
        list of dict
            ``{"role", "content"}`` messages: the system text (if any), each demonstration as
            a user / assistant pair, then the item as a user message.
        """
        out = [{"role": "system", "content": self.system}] if self.system else []
        for demo in self.demonstrations:
            out.append({"role": "user", "content": self.render_user(**demo.fields)})
            out.append({"role": "assistant", "content": demo.output})
        out.append({"role": "user", "content": self.render_user(text, **fields)})
        return out

    def completion(self, text: str, **fields: str) -> str:
        """Return the prompt for one item as one string (the layout of :data:`COMPLETION_LAYOUT`).

        Parameters
        ----------
        text : str
            The item's text.
        **fields : str
            The template's other fields.

        Returns
        -------
        str
            System text, demonstrations and the item, separated by blank lines, ending with
            a newline after the item's rendered template.
        """
        blocks = [self.system] if self.system else []
        blocks += [f"{self.render_user(**demo.fields)}\n{demo.output}" for demo in self.demonstrations]
        blocks.append(self.render_user(text, **fields) + "\n")
        return "\n\n".join(blocks)

    @property
    def digest(self) -> str:
        """The SHA-256 (hex) of a canonical serialisation of everything that changes the text sent.

        Returns
        -------
        str
            64 hex digits; name, version and source are not part of it.
        """
        canonical = {
            "layout": COMPLETION_LAYOUT,
            "system": self.system,
            "user": self.user,
            "demonstrations": [{"fields": dict(sorted(d.fields.items())), "output": d.output} for d in self.demonstrations],
        }
        if self.stop:  # a prompt without stop sequences keeps the digest it had before they existed
            canonical["stop"] = list(self.stop)
        return hashlib.sha256(json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()

    @property
    def short_digest(self) -> str:
        """The first 12 hex digits of :attr:`digest` (what signatures carry).

        Returns
        -------
        str
            12 hex digits.
        """
        return self.digest[:12]

    @property
    def label(self) -> str:
        """``name@version#short_digest``: how manifests and signatures name the prompt.

        Returns
        -------
        str
            The label, e.g. ``openie-tuples@1#0123456789ab``.
        """
        return f"{self.name}@{self.version}#{self.short_digest}"


class _StopText(str):
    """A prompt string carrying its prompt's stop sequences (:func:`with_stop`)."""

    stop: tuple[str, ...] = ()


class _StopMessages(list):
    """Chat messages carrying their prompt's stop sequences (:func:`with_stop`)."""

    stop: tuple[str, ...] = ()


def with_stop(sent: Any, stop: tuple[str, ...]) -> Any:
    """Return ``sent`` (a prompt string or chat messages, equal to it) carrying the prompt's stop sequences.

    An adapter's :meth:`~triplebench.harness.adapters.Adapter.render` returns it so that the request it
    makes sends them (:func:`stop_of`, beside the user's own).

    Parameters
    ----------
    sent : str or list of dict
        What is sent.
    stop : tuple of str
        :attr:`Prompt.stop`.

    Returns
    -------
    str or list of dict
        ``sent``, unchanged as a value (the same text, the same JSON).

    Examples
    --------
    >>> sent = with_stop("Sentence: a b c\\n", ("\\nSentence:",))
    >>> sent == "Sentence: a b c\\n", stop_of(sent), stop_of("plain")
    (True, ('\\nSentence:',), ())
    """
    made = _StopText(sent) if isinstance(sent, str) else _StopMessages(sent)
    made.stop = tuple(stop)
    return made


def stop_of(sent: Any) -> tuple[str, ...]:
    """Return the prompt's stop sequences that ``sent`` carries (:func:`with_stop`); () when it carries none.

    Parameters
    ----------
    sent : object
        What an adapter rendered.

    Returns
    -------
    tuple of str
        The stop sequences.
    """
    return getattr(sent, "stop", ())


def _string(source: str, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InputError(source, None, f"expected a string, got {type(value).__name__}", field=key)
    return value


def prompt_from_dict(data: Mapping[str, Any], source: str = "<prompt>") -> Prompt:
    """Make a :class:`Prompt` from the keys of a prompt file.

    Parameters
    ----------
    data : mapping
        ``name``, ``version``, ``user`` and optionally ``system``, ``source``,
        ``demonstrations`` (a list of tables with ``output`` and the template's fields) and
        ``stop`` (a list of strings).
    source : str
        The file it came from, for messages.

    Returns
    -------
    Prompt
        The prompt.

    Raises
    ------
    InputError
        An unknown or missing key, a value of the wrong type, or a bad template.
    """
    unknown = [k for k in data if k not in FILE_KEYS]
    if unknown:
        raise InputError(source, None, f"unknown key(s) {', '.join(map(repr, unknown))}; expected {', '.join(FILE_KEYS)}")
    for key in ("name", "version", "user"):
        if key not in data:
            raise InputError(source, None, "is required", field=key)
    demos = data.get("demonstrations", [])
    if not isinstance(demos, list):
        raise InputError(source, None, "expected a list of tables ([[demonstrations]])", field="demonstrations")
    made = []
    for number, demo in enumerate(demos, 1):
        where = f"demonstrations[{number}]"
        if not isinstance(demo, Mapping) or "output" not in demo:
            raise InputError(source, None, "expected a table with an `output` key and the template's fields", field=where)
        made.append(Demonstration({k: _string(source, f"{where}.{k}", v) for k, v in demo.items() if k != "output"},
                                  _string(source, f"{where}.output", demo["output"])))
    stop = data.get("stop", [])
    if not isinstance(stop, list):
        raise InputError(source, None, "expected a list of strings", field="stop")
    try:
        return Prompt(_string(source, "name", data["name"]), _string(source, "version", data["version"]),
                      _string(source, "user", data["user"]), system=_string(source, "system", data.get("system", "")),
                      demonstrations=tuple(made), source=_string(source, "source", data.get("source", "")),
                      stop=tuple(_string(source, f"stop[{n}]", s) for n, s in enumerate(stop, 1)))
    except InputError as exc:
        if exc.source is not None:
            raise
        raise InputError(source, None, exc.detail, field=exc.field) from None


def load_prompt(path: str | Path) -> Prompt:
    """Read a prompt file (TOML, the layout of the module docstring).

    Parameters
    ----------
    path : str or path-like
        The ``.toml`` file.

    Returns
    -------
    Prompt
        The prompt it declares.

    Raises
    ------
    InputError
        The file cannot be read, is not TOML, or does not declare a valid prompt.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(path, None, f"cannot read the prompt file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(path, None, "expected UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        raise InputError(path, line, f"not TOML: {exc}") from None
    return prompt_from_dict(data, str(path))

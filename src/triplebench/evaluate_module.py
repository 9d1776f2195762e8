"""The ``evaluate.Metric`` behind every ``metrics/<benchmark>/<benchmark>.py``.

A module file there is an adapter of a few lines::

    from triplebench import evaluate_module

    class Carb(evaluate_module.TriplebenchMetric):
        BENCHMARK = "carb"

(the base is reached through its module because ``evaluate.load`` takes the first
``Metric`` class in the module file's namespace).

The config name of ``evaluate.load(path, config)`` sets the scorer's
``MetricSpec.config_option`` (CaRB split, BenchIE language, GenRES dataset);
keyword arguments of ``compute()`` are the scorer's options, validated by the
same layer as the API and the CLI; ``compute()`` returns ``Result.to_dict()``.

Inputs are checked before ``evaluate`` writes them to Arrow (``add``, ``add_batch``
and ``compute`` all pass through :meth:`TriplebenchMetric.add_batch`), so a bad
example is an :class:`~triplebench.errors.InputError` naming the input
(``<predictions>``), the example number (counted across batches) and the field,
never a traceback from inside ``datasets``. Each column is checked

1. as a list with one entry per example (the columns of equal length);
2. against the reader's JSON Schema of one entry, ``MetricSpec.schemas[column]``
   (the schema the file and record readers validate with: the same messages);
3. against a JSON Schema derived from the module's ``datasets`` features (what
   Arrow can hold: e.g. a string where the features declare a string);
4. for text that cannot be encoded as UTF-8 (lone surrogates).

numpy scalars and arrays and tuples are taken as the numbers and lists they hold,
and keys the features do not declare are dropped (the readers ignore them too).
A module whose spec declares no schema (ROBUST) still gets steps 1, 3 and 4.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import evaluate

from . import registry
from .errors import InputError
from .schemas import check_record, is_valid, load_schema


def reader_required(name: str) -> set[str]:
    """Return the top-level keys a reader's JSON Schema requires.

    Parameters
    ----------
    name : str
        The schema's name under ``schemas/`` (e.g. ``carb/prediction``).

    Returns
    -------
    set of str
        The schema's ``required`` keys (empty when it has none).

    Examples
    --------
    >>> sorted(reader_required("carb/prediction"))
    ['arguments', 'confidence', 'predicate', 'sentence']
    """
    return set(load_schema(name).get("required", ()))


def _python(value: Any) -> Any:
    """``value`` with numpy scalars and arrays and tuples as the Python numbers and lists they hold."""
    if isinstance(value, dict):
        return {k: _python(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_python(v) for v in value]
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return _python(value.tolist())
    return value


def feature_schema(feature: Any) -> dict[str, Any]:
    """The JSON Schema of the values a ``datasets`` feature holds (what Arrow can encode).

    Parameters
    ----------
    feature : datasets feature
        A ``Value``, ``List`` / ``Sequence``, ``LargeList``, a Python list of one
        feature, or a dict of features.

    Returns
    -------
    dict
        ``{"type": "string"}`` for a string value, ``{"type": "array", "items": ...}`` for a
        list, an object with every key required for a dict, ``{}`` for anything else.

    Examples
    --------
    >>> import datasets
    >>> feature_schema(datasets.Sequence(datasets.Value("string")))
    {'type': 'array', 'items': {'type': 'string'}}
    >>> feature_schema({"sentence": datasets.Value("string"), "confidence": datasets.Value("float64")})  # doctest: +NORMALIZE_WHITESPACE
    {'type': 'object', 'required': ['sentence', 'confidence'], 'additionalProperties': False,
     'properties': {'sentence': {'type': 'string'}, 'confidence': {'type': 'number'}}}
    """
    if isinstance(feature, dict):
        return {"type": "object", "required": list(feature), "additionalProperties": False,
                "properties": {k: feature_schema(v) for k, v in feature.items()}}
    if isinstance(feature, list) and len(feature) == 1:
        return {"type": "array", "items": feature_schema(feature[0])}
    inner = getattr(feature, "feature", None)
    if inner is not None:  # List / Sequence / LargeList
        schema = {"type": "array", "items": feature_schema(inner)}
        length = getattr(feature, "length", -1)
        if isinstance(length, int) and length >= 0:
            schema["minItems"] = schema["maxItems"] = length
        return schema
    dtype = str(getattr(feature, "dtype", ""))
    if dtype in ("string", "large_string"):
        return {"type": "string"}
    if dtype == "bool":
        return {"type": "boolean"}
    if dtype.startswith(("int", "uint")):
        return {"type": "integer"}
    if dtype.startswith("float") or dtype == "double":
        return {"type": "number"}
    return {}


def describe(feature: Any) -> str:
    """A feature in words, for messages.

    Parameters
    ----------
    feature : datasets feature
        As :func:`feature_schema` takes it.

    Returns
    -------
    str
        ``a string``, ``a list of strings``, ``a dict of sentence (a string), ...``.

    Examples
    --------
    >>> import datasets
    >>> describe({"sentence": datasets.Value("string"), "arguments": datasets.Sequence(datasets.Value("string"))})
    'a dict of sentence (a string), arguments (a list of strings)'
    """
    if isinstance(feature, dict):
        return "a dict of " + ", ".join(f"{k} ({describe(v)})" for k, v in feature.items())
    inner = feature[0] if isinstance(feature, list) and len(feature) == 1 else getattr(feature, "feature", None)
    if inner is not None:
        words = describe(inner)
        plural = {"a string": "strings", "a number": "numbers", "an integer": "integers", "True or False": "booleans"}
        return "a list of " + plural.get(words, words.replace("a list of", "lists of", 1).replace("a dict of", "dicts of", 1))
    schema = feature_schema(feature)
    return {"string": "a string", "number": "a number", "integer": "an integer", "boolean": "True or False"}.get(
        schema.get("type", ""), "a value")


def _rows(value: Any, column: str) -> list:
    """The entries of one input column as a list (a list, tuple, numpy array, Dataset column...)."""
    if value is None or isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        got = "None" if value is None else f"a {type(value).__name__}"
        raise InputError(f"<{column}>", None, f"expected a list with one entry per example, got {got}", field=column)
    return list(value)


def _encodable(column: list, column_name: str, start: int) -> None:
    """Refuse text that cannot be encoded as UTF-8 (a lone surrogate): Arrow cannot hold it."""
    import json

    try:
        json.dumps(column, ensure_ascii=False, default=repr).encode("utf-8")
        return
    except (UnicodeEncodeError, TypeError, ValueError):
        pass  # find the string (a TypeError or ValueError of an odd value: look for one anyway)
    for number, entry in enumerate(column, start=start):
        found = _bad_text(entry, [])
        if found is not None:
            path, text, at = found
            field = "/".join(path) if isinstance(entry, dict) else "/".join([column_name, *path])
            raise InputError(f"<{column_name}>", number, f"lone surrogate {text[at]!r} at character {at}: expected "
                             "valid Unicode text (it has no UTF-8 form)", field=field)


def _bad_text(value: Any, path: list[str]) -> tuple[list[str], str, int] | None:
    """(path, string, offset) of the first string in ``value`` that has no UTF-8 form."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return path, value, exc.start
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for key, item in items:
        found = _bad_text(item, [*path, str(key)])
        if found is not None:
            return found
    return None


class TriplebenchMetric(evaluate.Metric):
    """Base of the evaluate modules: an ``evaluate.Metric`` over one benchmark's scorer.

    A module file ``metrics/<benchmark>/<benchmark>.py`` subclasses it and sets
    ``BENCHMARK``; ``evaluate.load`` makes the instance. Examples are checked before
    ``evaluate`` stores them (see the module docstring), the keywords of ``compute()``
    are the scorer's options, and ``compute()`` returns
    :meth:`~triplebench.scoring.result.Result.to_dict` of the scorer's result.

    Parameters
    ----------
    config_name : str, optional
        Sets the scorer's ``MetricSpec.config_option`` (CaRB split, BenchIE language,
        GenRES dataset); ``None`` or ``"default"``: the scorer's default.
    keep_in_memory, cache_dir, num_process, process_id, seed, experiment_id, hash, max_concurrent_cache_files, timeout : optional
        As ``evaluate.EvaluationModule``: where and how the added examples are stored.
    **kwargs
        As ``evaluate.EvaluationModule``.

    Examples
    --------
    >>> import evaluate
    >>> carb = evaluate.load("metrics/carb")
    >>> isinstance(carb, TriplebenchMetric), carb.BENCHMARK
    (True, 'carb')
    """

    BENCHMARK: str = ""

    def _info(self) -> evaluate.MetricInfo:
        spec = registry.load(self.BENCHMARK).metric
        return evaluate.MetricInfo(
            description=spec.description,
            citation=spec.citation,
            inputs_description=spec.inputs,
            features=spec.features(),
            reference_urls=list(spec.reference_urls),
        )

    # -- input checks, before evaluate writes anything ------------------------------------------

    @property
    def _added(self) -> int:
        """Examples added since the last ``compute()``."""
        return getattr(self, "_examples", 0)

    def _feature_options(self) -> list:
        """The candidate ``datasets.Features`` (one, or the module's alternatives)."""
        if getattr(self, "writer", None) is not None and self.selected_feature_format is not None:
            return [self.selected_feature_format]  # fixed by the first batch: later ones must fit it
        return list(self.features) if isinstance(self.features, list) else [self.features]

    def _schemas(self, features: Any, column: str) -> tuple[str | None, dict[str, Any], bool]:
        """What an entry of ``column`` must fit: the reader's schema (or None), the features'
        schema, and whether the features' schema takes the entry wrapped as ``{column: entry}``.

        A bare value (not a dict) is checked wrapped so the field of an error starts with the
        column name (``predictions/0``).
        """
        reader = registry.load(self.BENCHMARK).metric.schemas.get(column)
        feature = features[column]
        title = f"{registry.entry(self.BENCHMARK).title} evaluate module: {column} entries are {describe(feature)}"
        if isinstance(feature, dict):
            schema = {**feature_schema(feature), "title": title}
            if reader is not None:  # keys the reader leaves optional are optional here too (filled with None)
                schema["required"] = [k for k in schema["required"] if k in reader_required(reader)]
            return reader, schema, False
        return reader, {"title": title, "type": "object", "required": [column],
                        "properties": {column: feature_schema(feature)}}, True

    def _fits(self, features: Any, column: str, entry: Any) -> bool:
        """Whether ``entry`` passes both schemas of ``column`` on the fast path."""
        reader, schema, wrapped = self._schemas(features, column)
        return (reader is None or is_valid(reader, entry)) and is_valid(schema, {column: entry} if wrapped else entry)

    def _check_column(self, features: Any, column: str, entries: list, start: int) -> None:
        """Check (and normalise in place) every entry of one column; the first bad one raises."""
        reader, schema, wrapped = self._schemas(features, column)
        feature = features[column]
        source = f"<{column}>"
        for offset, entry in enumerate(entries):
            if (reader is None or is_valid(reader, entry)) and is_valid(schema, {column: entry} if wrapped else entry):
                if isinstance(feature, dict) and isinstance(entry, dict) and len(entry) != len(feature):
                    entries[offset] = {k: entry.get(k) for k in feature}  # an optional key left out: None
                continue
            entry = _python(entry)
            try:
                if reader is not None:  # the readers' check first: the same message as the CLI and the API
                    check_record(reader, entry, source, start + offset, python_values=True)
                if isinstance(feature, dict) and isinstance(entry, dict):
                    entry = {k: entry[k] for k in feature if k in entry}  # keys the readers ignore dropped
                check_record(schema, {column: entry} if wrapped else entry, source, start + offset, python_values=True)
            except InputError as exc:
                if exc.field != "<record>":
                    raise
                raise InputError(source, start + offset, exc.detail, field=column) from None  # the entry itself
            entries[offset] = {k: entry.get(k) for k in feature} if isinstance(feature, dict) else entry
        _encodable(entries, column, start)

    def _checked(self, batch: dict[str, Any]) -> tuple[dict[str, list], int]:
        """The batch as lists of checked entries, and its size."""
        names = self._feature_names()
        columns = {name: _rows(batch.get(name), name) for name in names}
        sizes = {name: len(rows) for name, rows in columns.items()}
        if len(set(sizes.values())) > 1:
            first, *others = names
            other = next(n for n in others if sizes[n] != sizes[first])
            raise InputError(f"<{other}>", None, f"{sizes[other]} {other} for {sizes[first]} {first}: expected one per "
                             "example", field=other)
        size = sizes[names[0]]
        if not size:
            return columns, 0
        start = self._added + 1
        options = self._feature_options()
        if len(options) > 1:  # alternatives (ComBO: one id or a list of ids): the first example picks one
            fitting = [f for f in options if all(self._fits(f, n, _python(columns[n][0])) for n in names)]
            options = fitting[:1] or options[:1]
        for name in names:
            self._check_column(options[0], name, columns[name], start)
        return columns, size

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of examples, after every example is checked (see the module docstring).

        ``evaluate``'s ``add_batch``; ``compute()`` then scores every example added.

        Parameters
        ----------
        predictions : list
            One entry per example (the module's ``predictions`` feature).
        references : list, optional
            One entry per example, for a module with a ``references`` feature (ComBO);
            refused by the modules whose gold is built in.
        **kwargs
            Other input columns the module declares (no benchmark's module declares any).

        Raises
        ------
        InputError
            A column that is not a list of entries, columns of different lengths, or an
            entry that does not fit (naming the input, the example number and the field).

        Examples
        --------
        >>> import evaluate
        >>> carb = evaluate.load("metrics/carb")
        >>> record = {"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
        ...           "confidence": 0.9, "predicate": "forms",
        ...           "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}
        >>> carb.add_batch(predictions=[record, {**record, "confidence": "high"}])
        Traceback (most recent call last):
        ...
        triplebench.errors.InputError: <predictions>:2: field 'confidence': 'high' is not of type 'number' (schema carb/prediction)
        >>> carb.add_batch(predictions=[record])
        >>> carb.compute(subset=True)["scores"]["precision"]
        1.0
        """
        unknown = [k for k in kwargs if k not in self._feature_names()]
        if unknown:
            raise InputError(f"<{unknown[0]}>", None, "not an input of this module; expected "
                             + " and ".join(self._feature_names()), field=unknown[0])
        batch = {"predictions": predictions, "references": references, **kwargs}
        if "references" not in self._feature_names() and references is not None:
            self._refuse_references()
        columns, size = self._checked(batch)
        if not size:
            return  # an empty batch adds nothing (compute() refuses when nothing was added)
        super().add_batch(**columns)
        self._examples = self._added + size

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one example, checked as a batch of one (the same errors).

        ``evaluate``'s ``add``; ``compute()`` then scores every example added.

        Parameters
        ----------
        prediction : object
            The example's ``predictions`` entry.
        reference : object, optional
            Its ``references`` entry, for a module with a ``references`` feature (ComBO);
            refused by the modules whose gold is built in.
        **kwargs
            Other input columns the module declares (no benchmark's module declares any).

        Raises
        ------
        InputError
            An entry that does not fit, or a reference the module does not take.

        Examples
        --------
        >>> import evaluate
        >>> carb = evaluate.load("metrics/carb")
        >>> carb.add(prediction={"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
        ...                      "confidence": 0.9, "predicate": "forms",
        ...                      "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]})
        >>> carb.compute(subset=True)["scores"]["precision"]
        1.0
        """
        if reference is not None and "references" not in self._feature_names():
            self._refuse_references()
        columns = {name: [value] for name, value in {"predictions": prediction, "references": reference, **kwargs}.items()
                   if name in self._feature_names() or value is not None}
        self.add_batch(**columns)

    def _refuse_references(self) -> None:
        raise InputError(
            "<references>", None,
            f"{registry.entry(self.BENCHMARK).title} scores against its own built-in gold; references= is not used "
            "(pass gold=PATH to score against another gold file)", field="references",
        )

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """Score the examples given and added: ``evaluate``'s ``compute``.

        The inputs are checked first, ``references`` are refused where the gold is built
        in (never ignored), and nothing to score is an error.

        Parameters
        ----------
        predictions : list, optional
            One entry per example, scored with the ones added before.
        references : list, optional
            One entry per example, for a module with a ``references`` feature (ComBO).
        **kwargs
            The scorer's options (validated as the API and the CLI validate them), and
            inputs a module takes as keywords (GenRES ``texts``, ComBO ``subtask``).

        Returns
        -------
        dict or None
            :meth:`~triplebench.scoring.result.Result.to_dict` of the scorer's result;
            ``None`` in the processes of a distributed evaluation other than the first
            (as ``evaluate``).

        Raises
        ------
        InputError
            Bad inputs or options, references where the gold is built in, nothing to
            score; the scorer's errors (:class:`~triplebench.errors.CoverageError`).

        Examples
        --------
        >>> import evaluate
        >>> carb = evaluate.load("metrics/carb")
        >>> record = {"sentence": "A CEN forms an important but small part of a Local Strategic Partnership .",
        ...           "confidence": 0.9, "predicate": "forms",
        ...           "arguments": ["A CEN", "an important part of a Local Strategic Partnership"]}
        >>> out = carb.compute(predictions=[record], subset=True)
        >>> out["scores"]["precision"], out["coverage"]["gold_sentences"]
        (1.0, {'placed': 1, 'total': 1})
        >>> out["signature"]  # doctest: +ELLIPSIS
        'carb|split:test|matcher:binary_linient_tuple_match|binary:no|format:records|subset:yes|data:...'
        """
        names = self._feature_names()
        if references is not None and "references" not in names:
            self._refuse_references()
        given = {"predictions": predictions, "references": references}
        inputs = {name: given.get(name, kwargs.pop(name, None)) for name in names}
        if any(v is not None for v in inputs.values()):
            self.add_batch(**inputs)
        if not self._added:
            raise InputError("<predictions>", None, "no predictions: pass predictions= to compute(), or add examples "
                             "with add() / add_batch() first", field="predictions")
        try:
            return super().compute(**kwargs)
        finally:
            self._examples = 0

    def _compute(self, predictions: Any = None, references: Any = None, **options: Any) -> dict[str, Any]:
        """Score the stored examples: the hook ``evaluate``'s ``compute()`` calls.

        The scorer's ``from_evaluate`` with the config name as its ``config_option``.

        Parameters
        ----------
        predictions : list, optional
            Every stored ``predictions`` entry.
        references : list, optional
            Every stored ``references`` entry, for a module with that feature.
        **options
            The keywords of ``compute()``.

        Returns
        -------
        dict
            :meth:`~triplebench.scoring.result.Result.to_dict` of the scorer's result.

        Examples
        --------
        >>> import evaluate
        >>> benchie = evaluate.load("metrics/benchie", "en")
        >>> out = benchie._compute([{"sent_id": "1", "subject": "He", "relation": "served as", "object": "Prime Minister"}],
        ...                        subset=True)
        >>> out["scores"]["precision"], out["signature"].split("|")[1]
        (1.0, 'language:en')
        """
        benchmark = registry.load(self.BENCHMARK)
        spec = benchmark.metric
        if spec.config_option and self.config_name not in (None, "default") and spec.config_option not in options:
            options[spec.config_option] = self.config_name
        return benchmark.from_evaluate(list(predictions), None if references is None else list(references), **options).to_dict()

"""The gold a run is scored against: a suite of ontologies, each with its sentences and gold triples.

Two sources, one shape (:class:`Suite`):

* the built dataset (``gold=None``): the ``ontologies`` and ``gold`` configs of the chosen split,
  read through the :class:`~triplebench.location.DataLocation` once per process;
* a folder in upstream's ``data/<suite>/`` layout (``gold=DIR``), for a suite this package does
  not ship (the DBpedia-WebNLG half, CC BY-NC-SA, which is not republished): every
  ``ontologies/<o>_ontology.json`` is an ontology (ordered by its number, then name), whose gold is
  ``ground_truth/ont_<o>_ground_truth.jsonl`` (split ``test``, with
  ``manually_verified_sentences/selected_ont_<o>.txt`` when present) or
  ``unseen_sentences/ground_truth/ont_<o>_unseen_ground_truth.jsonl`` (split ``unseen``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from .formats import ONTOLOGIES, Ontology, read_ground_truth, read_ontology, read_verified

if TYPE_CHECKING:
    from ...location import DataLocation

NAME = "text2kg"
#: the splits of the built gold
SPLITS = ("test", "unseen")


@dataclass(frozen=True)
class OntologyGold:
    """One ontology of a suite with its gold.

    Attributes
    ----------
    ontology : Ontology
        Its concepts and relations.
    sentences : tuple of dict
        ``{id, sentence, triples: [[subject, relation, object]]}`` in ground-truth order.
    verified : tuple of str or None
        The lines of its manually verified id list (test); None: no list.
    """

    ontology: Ontology
    sentences: tuple[dict[str, Any], ...]
    verified: tuple[str, ...] | None

    @property
    def name(self) -> str:
        """The ontology's name (``1_movie``)."""
        return self.ontology.name


@dataclass(frozen=True)
class Suite:
    """The gold of one run: the chosen ontologies in scoring order.

    Attributes
    ----------
    split : str
        ``test`` or ``unseen``.
    source : str
        ``dataset`` (the built gold) or ``file@<sha256 prefix of the files read>``.
    ontologies : tuple of OntologyGold
        The ontologies scored, in upstream's order (their mean is the global score).
    known : dict
        Every sentence id of the suite's files read -> its ontology (chosen or not), for the hints
        of a coverage refusal.
    sample : int or None
        A part of a suite (:meth:`sample_of`): the number of gold sentences of the whole suite. None: whole.
    """

    split: str
    source: str
    ontologies: tuple[OntologyGold, ...]
    known: dict[str, str] = field(repr=False)
    sample: int | None = None

    def sample_of(self, ids: Iterable[str]) -> Suite:
        """The gold of the sentences ``ids`` (a ``triplebench run --limit`` sample): each ontology with the
        sentences asked (its means then divide by those), its verified list cut to them, and the ontologies
        none of whose sentences were asked left out.

        Parameters
        ----------
        ids : iterable of str
            Sentence ids of this suite.

        Returns
        -------
        Suite
            The part, with :attr:`sample` set.
        """
        asked = frozenset(ids)
        parts = []
        for onto in self.ontologies:
            sentences = tuple(s for s in onto.sentences if s["id"] in asked)
            if sentences:
                verified = None if onto.verified is None else tuple(i for i in onto.verified if i in asked)
                parts.append(OntologyGold(onto.ontology, sentences, verified))
        return replace(self, ontologies=tuple(parts), sample=sum(len(o.sentences) for o in self.ontologies))


def _rank(name: str) -> tuple[int, str]:
    number = re.match(r"\d+", name)
    return (int(number.group()) if number else 1 << 30, name)


def chosen_names(option: str, available: tuple[str, ...]) -> tuple[str, ...]:
    """The ontologies the ``ontology`` option names, in the suite's order.

    Parameters
    ----------
    option : str
        ``all``, or ontology names separated by commas.
    available : tuple of str
        The suite's ontologies, in order.

    Returns
    -------
    tuple of str

    Raises
    ------
    InputError
        A name the suite does not have (the message lists the names it has).

    Examples
    --------
    >>> chosen_names("9_nature,1_movie", ONTOLOGIES)
    ('1_movie', '9_nature')
    """
    if option.strip() == "all":
        return available
    names = {n.strip() for n in option.split(",")}
    if names - set(available):
        raise InputError.option("ontology", option, "all or a comma-separated list of " + ", ".join(available))
    return tuple(n for n in available if n in names)


def built_suite(split: str, option: str, location: DataLocation) -> Suite:
    """The built gold of ``split``, the ontologies of ``option`` chosen (read once per process).

    Raises
    ------
    InputError
        An unknown ontology name.
    TripleBenchError
        The built dataset is not found (the message says where it was looked for).
    """
    names = chosen_names(option, ONTOLOGIES)
    every = location.memo(NAME, ("suite", split), lambda: _read_built(split, location))
    return Suite(split, "dataset", tuple(o for o in every if o.name in names), _known(every))


def _read_built(split: str, location: DataLocation) -> tuple[OntologyGold, ...]:
    ontologies = {row["ontology"]: Ontology(row["ontology"], row["id"], row["title"], tuple(row["concepts"]),
                                            tuple(row["relations"]))
                  for row in location.records(NAME, "ontologies", "train")}
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in location.records(NAME, "gold", split):
        grouped.setdefault(row["ontology"], []).append(
            {"id": row["id"], "sentence": row["sentence"], "triples": _lists(row["triples"]),
             "verified": row["verified"]})
    return tuple(OntologyGold(ontologies[name], tuple(rows),
                              tuple(r["id"] for r in rows if r["verified"]) if split == "test" else None)
                 for name, rows in grouped.items())


def file_suite(folder: str | Path, split: str, option: str) -> Suite:
    """A suite read from a folder in upstream's layout (see the module docstring).

    Parameters
    ----------
    folder : path
        The suite's folder (``data/dbpedia_webnlg``).
    split : {'test', 'unseen'}
        Which ground truth.
    option : str
        The ``ontology`` option (``all`` or names).

    Returns
    -------
    Suite
        Only the chosen ontologies are read.

    Raises
    ------
    InputError
        Not a folder, no ontology in it, an unknown ontology name, a chosen ontology without its
        ground-truth file, or a bad file (file, line and field named).
    """
    root = Path(folder)
    if not root.is_dir():
        raise InputError(root, None, "expected a folder in Text2KGBench's layout (ontologies/, ground_truth/, ...)",
                         field="gold")
    found = sorted((p.name.removesuffix("_ontology.json") for p in (root / "ontologies").glob("*_ontology.json")), key=_rank)
    if not found:
        raise InputError(root / "ontologies", None, "no <name>_ontology.json file: expected Text2KGBench's layout",
                         field="gold")
    chosen = []
    digest = hashlib.sha256()
    for name in chosen_names(option, tuple(found)):
        paths = _files(root, name, split)
        if not paths["gold"].is_file():
            raise InputError(paths["gold"], None, f"no ground truth of ontology {name} for split {split} (choose "
                             "ontologies with --ontology)", field="gold")
        verified = paths["verified"] if paths["verified"] is not None and paths["verified"].is_file() else None
        for path in (paths["ontology"], paths["gold"], verified):
            if path is not None:
                digest.update(path.read_bytes())
        chosen.append(OntologyGold(read_ontology(paths["ontology"], name),
                                   tuple({**r, "triples": _lists(r["triples"])}
                                         for r in read_ground_truth(paths["gold"])),
                                   None if verified is None else tuple(read_verified(verified))))
    return Suite(split, f"file@{digest.hexdigest()[:12]}", tuple(chosen), _known(chosen))


def _files(root: Path, name: str, split: str) -> dict[str, Path | None]:
    if split == "test":
        gold = root / "ground_truth" / f"ont_{name}_ground_truth.jsonl"
        verified = root / "manually_verified_sentences" / f"selected_ont_{name}.txt"
    else:
        gold, verified = root / "unseen_sentences" / "ground_truth" / f"ont_{name}_unseen_ground_truth.jsonl", None
    return {"ontology": root / "ontologies" / f"{name}_ontology.json", "gold": gold, "verified": verified}


def _lists(triples: list[dict[str, str]]) -> list[list[str]]:
    return [[t["subject"], t["relation"], t["object"]] for t in triples]


def _known(ontologies: tuple[OntologyGold, ...] | list[OntologyGold]) -> dict[str, str]:
    return {s["id"]: o.name for o in ontologies for s in o.sentences}

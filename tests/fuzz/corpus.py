"""Bad inputs for every ``triplebench score`` entry point, made at run time from real files.

A *case* is one command line whose prediction (or gold) file is a mutation of a
baseline: a published upstream output from ``../shared/upstream`` or, where
upstream publishes none, a file written from the built gold. Nothing here is
stored: every mutated byte is made when the suite runs.

Each mutation family says what a correct outcome is:

``equal``
    the reading rule makes the input the baseline (a leading byte-order mark is not
    part of the text, in every format): exit 0 with the baseline's output, nothing else;
``same``
    the reading rule makes the input equal to the baseline (CRLF is a line end, NFD
    text is not normalised): exit 0 with the baseline's output, or a clear error.
``refuse``
    the input cannot mean a number: a clear error (exit 2) is the only pass.
``any``
    a number (documented acceptance: the reference's reading) or a clear error.

Every family shares the invariant: never a traceback, never a hang, and an error is
one ``triplebench: error:`` line naming the file (or the option).
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import random
import re
import signal
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

TIMEOUT = 60  # seconds per case before it counts as a hang


@dataclass(frozen=True)
class Baseline:
    """A file one entry point accepts, and how to score it."""

    benchmark: str
    name: str
    make: Callable[[Path], Path]  # writes (or finds) the baseline file under the given folder
    flags: tuple[str, ...]
    json: bool = False  # the file is JSON / JSON lines
    number: str | None = None  # regex of one numeric field (a confidence or a cluster id)
    #: the file is a gold given with --gold; this gives the predictions and their flags (files under the folder)
    gold_for: Callable[[Path], list[str]] | None = None
    #: more flags that need files of their own (written under the folder)
    extra: Callable[[Path], list[str]] | None = None
    #: the file's lines name its format: it scores the same without its ``--fmt``/``--format`` flag
    detected: bool = False


@dataclass(frozen=True)
class Family:
    """A mutation family: bytes -> bytes (or a path kind), and the correct outcome."""

    name: str
    expect: str  # equal | same | refuse | any
    mutate: Callable[[bytes, random.Random, Baseline], bytes | None]
    path_kind: str | None = None  # directory | missing | fifo | symlink_loop
    #: "number": a numeric field (Baseline.number); "json": a JSON format; "detected": a format the lines name
    needs: str | None = None
    drop_format: bool = False  # run without the baseline's format flag: the file's lines must name it
    #: what a refusal of this family must not say (the input is valid there): a refusal saying it is ``rejected``
    never: str | None = None

    def applies(self, base: Baseline) -> bool:
        """Whether this family can mutate ``base``'s format."""
        return ((self.needs != "number" or base.number is not None) and (self.needs != "json" or base.json)
                and (self.needs != "detected" or base.detected))


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _pick_line(data: bytes, rng: random.Random) -> tuple[list[bytes], int]:
    lines = _lines(data)
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return lines, rng.choice(filled)


def _insert_in_line(data: bytes, rng: random.Random, piece: bytes) -> bytes:
    lines, i = _pick_line(data, rng)
    cut = rng.randrange(1, max(2, len(lines[i])))
    lines[i] = lines[i][:cut] + piece + lines[i][cut:]
    return b"\n".join(lines)


def _number(value: str) -> Callable[[bytes, random.Random, Baseline], bytes | None]:
    def mutate(data: bytes, rng: random.Random, base: Baseline) -> bytes | None:
        if base.number is None:
            return None
        text = data.decode("utf-8")
        matches = list(re.finditer(base.number, text, flags=re.MULTILINE))
        if not matches:
            return None
        m = rng.choice(matches[: 50])
        return (text[: m.start(1)] + value + text[m.end(1):]).encode("utf-8")

    return mutate


def _json_only(mutate: Callable[[bytes, random.Random, Baseline], bytes]):
    return lambda data, rng, base: mutate(data, rng, base) if base.json else None


def _drop_field(data: bytes, rng: random.Random, base: Baseline) -> bytes:
    lines, i = _pick_line(data, rng)
    if base.json:
        lines[i] = re.sub(rb'"[a-z_]+"\s*:\s*("[^"]*"|[-0-9.eE]+|\[[^\]]*\]|null|true|false)\s*,?', b"", lines[i], count=1)
    else:
        lines[i] = b"\t".join(lines[i].split(b"\t")[:-1])
    return b"\n".join(lines)


def _nested(data: bytes, rng: random.Random, base: Baseline) -> bytes:
    lines, i = _pick_line(data, rng)
    lines[i] = b"[" * 100_000 + b"]" * 100_000
    return b"\n".join(lines)


def _nested_document(data: bytes, rng: random.Random, base: Baseline) -> bytes:
    """The whole file one deeply nested JSON document (on one line, or spread over lines): the
    "another benchmark's file" hints parse what a line could not be read as (issue 43)."""
    deep = b"[" * 100_000 + b"]" * 100_000
    return deep + b"\n" if rng.random() < 0.5 else b'{"a":\n' + deep + b"\n}\n"


def _in_first_string(piece: str) -> Callable[[bytes, random.Random, Baseline], bytes]:
    """``piece`` put at the start of the first string value of a JSON text."""
    def mutate(data: bytes, rng: random.Random, base: Baseline) -> bytes:
        text = data.decode("utf-8")
        at = text.find('"', text.find(":") + 1)
        return (text[: at + 1] + piece + text[at + 1:]).encode("utf-8")

    return mutate


def _long_element(size: int) -> Callable[[bytes, random.Random, Baseline], bytes]:
    def mutate(data: bytes, rng: random.Random, base: Baseline) -> bytes:
        if base.json:
            text = data.decode("utf-8")
            at = text.find('"', text.find(":") + 1)
            return (text[: at + 1] + "a" * size + text[at + 1:]).encode("utf-8")
        return _insert_in_line(data, rng, b"a" * size)

    return mutate


#: lines a flooded file has at least: more texts than every GenRES set together (3,000)
FLOOD_LINES = 3_001


def _flood(data: bytes, rng: random.Random, base: Baseline) -> bytes:
    """The file's lines repeated to at least :data:`FLOOD_LINES` lines (a JSON object: its
    members, renamed apart): many records must be refused or read without a memory spike."""
    text = data.decode("utf-8")
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None  # JSON lines
    if isinstance(whole, dict) and whole:
        members = list(whole.items())
        grown = {f"{k} #{i}": v for i in range(FLOOD_LINES // len(members) + 1) for k, v in members}
        return json.dumps(grown).encode("utf-8")
    lines = [line for line in text.splitlines() if line.strip()]
    return ("\n".join(lines * (FLOOD_LINES // len(lines) + 1)) + "\n").encode("utf-8")


BOM = b"\xef\xbb\xbf"

FAMILIES: tuple[Family, ...] = (
    Family("bom", "equal", lambda d, r, b: BOM + d),
    Family("bom_detected", "equal", lambda d, r, b: BOM + d, needs="detected", drop_format=True),
    Family("crlf", "same", lambda d, r, b: d.replace(b"\n", b"\r\n")),
    Family("nfd", "same", lambda d, r, b: unicodedata.normalize("NFD", d.decode("utf-8")).encode("utf-8")),
    Family("empty", "refuse", lambda d, r, b: b""),
    Family("blank", "refuse", lambda d, r, b: b"\n \n\t\n"),
    Family("binary", "refuse", lambda d, r, b: bytes(r.randrange(256) for _ in range(4096))),
    Family("invalid_utf8", "refuse", lambda d, r, b: _insert_in_line(d, r, b"\xff\xfe")),
    Family("nul", "any", lambda d, r, b: _insert_in_line(d, r, b"\x00")),
    Family("truncate", "any", lambda d, r, b: d[: r.randrange(1, len(d))]),
    Family("drop_field", "any", _drop_field),
    Family("duplicate", "any", lambda d, r, b: d + (b"" if d.endswith(b"\n") else b"\n") + d),
    Family("lowercase", "any", lambda d, r, b: d.decode("utf-8").lower().encode("utf-8")),
    Family("huge_number", "any", _number("1" * 400), needs="number"),
    Family("nan_number", "any", _number("NaN"), needs="number"),
    Family("inf_number", "any", _number("inf"), needs="number"),
    Family("underscore_number", "refuse", _number("1_0"), needs="number"),
    Family("fullwidth_number", "refuse", _number("\uff11"), needs="number"),
    Family("nested_json", "refuse", _json_only(_nested), needs="json"),
    Family("lone_surrogate", "any", _json_only(_in_first_string("\\ud800")), needs="json"),
    Family("nested_document", "refuse", _json_only(_nested_document), needs="json"),
    # a JSON string may hold U+2028 and U+0085 as they are: str.splitlines ended a line there (issue 43)
    Family("line_separator", "any", _json_only(_in_first_string("\u2028\x85")), needs="json", never="invalid JSON"),
    Family("long_element", "any", _long_element(2_000_000)),
    Family("flood", "any", _json_only(_flood), needs="json"),
    Family("directory", "refuse", lambda d, r, b: b"", path_kind="directory"),
    Family("missing", "refuse", lambda d, r, b: b"", path_kind="missing"),
    Family("fifo", "refuse", lambda d, r, b: b"", path_kind="fifo"),
    Family("symlink_loop", "refuse", lambda d, r, b: b"", path_kind="symlink_loop"),
)

def inputs(benchmark: str) -> ModuleType:
    """``tests/<benchmark>/fuzz_inputs.py`` of a benchmark: its baselines, compare pair and evaluate baseline.

    Raises
    ------
    AssertionError
        The benchmark has no such file (the message names the file to add).
    """
    path = Path(__file__).resolve().parents[1] / benchmark / "fuzz_inputs.py"
    assert path.is_file(), f"{benchmark}: add {path.relative_to(path.parents[2])} (its fuzz baselines)"
    name = f"fuzz_inputs_{benchmark}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _collect() -> tuple[dict[str, Baseline], tuple[str, ...]]:
    from triplebench.registry import BENCHMARKS

    baselines: dict[str, Baseline] = {}
    default: list[str] = []
    for benchmark in BENCHMARKS:
        found = inputs(benchmark)
        baselines.update(found.BASELINES)
        default.extend(found.DEFAULT)
    return baselines, tuple(default)


#: every benchmark's baselines; what the default test run samples (`make fuzz`, TRIPLEBENCH_FUZZ=full, runs all)
BASELINES, DEFAULT_BASELINES = _collect()


MODES = ("text", "json")


@dataclass(frozen=True)
class Case:
    """One command line to run: a baseline, a family, an output mode, and a seed for the mutation."""

    baseline: str
    family: str
    seed: int = 0
    mode: str = "text"  # text | json (--json)

    @property
    def id(self) -> str:
        """``carb/openie4:bom`` (``:json`` appended in JSON mode)."""
        return f"{self.baseline}:{self.family}" + (":json" if self.mode == "json" else "")

    @property
    def entry(self) -> str:
        """The entry point: ``score carb`` (``score carb --json``)."""
        return f"score {BASELINES[self.baseline].benchmark}" + (" --json" if self.mode == "json" else "")


def cases(full: bool) -> list[Case]:
    """Every (baseline, family, mode) of the run (the default samples :data:`DEFAULT_BASELINES`;
    JSON mode there only for the families whose outcome is a number or the baseline's numbers)."""
    chosen = list(BASELINES) if full else list(DEFAULT_BASELINES)
    out = []
    for b in chosen:
        for f in FAMILIES:
            if not f.applies(BASELINES[b]):
                continue
            for mode in MODES:
                if mode == "json" and not full and f.expect == "refuse":
                    continue  # a refusal is the same line in both modes: sampled by the full run only
                out.append(Case(b, f.name, mode=mode))
    return out


def family(name: str) -> Family:
    """The family called ``name``."""
    return next(f for f in FAMILIES if f.name == name)


def _placed(path_kind: str | None, data: bytes | None, folder: Path, name: str) -> Path:
    target = folder / name
    if path_kind == "directory":
        target.mkdir(exist_ok=True)
    elif path_kind == "missing":
        pass
    elif path_kind == "fifo":
        os.mkfifo(target)
    elif path_kind == "symlink_loop":
        os.symlink(folder / (name + ".other"), target)
        os.symlink(target, folder / (name + ".other"))
    else:
        target.write_bytes(data)
    return target


def argv_for(case: Case, folder: Path, mutated: bool = True) -> list[str] | None:
    """The command line of ``case`` (its files written under ``folder``); None if the family does not apply."""
    base = BASELINES[case.baseline]
    source = base.make(folder)
    fam = family(case.family)
    file = source
    if mutated:
        data = None
        if fam.path_kind is None:
            data = fam.mutate(source.read_bytes(), random.Random(f"{case.baseline}:{case.family}:{case.seed}"), base)
            if data is None:
                return None
        name = f"mutated-{case.baseline.replace('/', '-')}-{case.family}"
        target = folder / name
        if fam.path_kind is None or not (target.exists() or target.is_symlink()):
            file = _placed(fam.path_kind, data, folder, name)
        else:
            file = target  # the other mode's case placed it already
    flags = [*base.flags, *(base.extra(folder) if base.extra else [])]
    if fam.drop_format:
        at = next(i for i, flag in enumerate(flags) if flag in ("--fmt", "--format"))
        del flags[at: at + 2]
    json_flag = ["--json"] if case.mode == "json" else []
    if base.gold_for is not None:
        return ["score", base.benchmark, *base.gold_for(folder), *flags, "--gold", str(file), *json_flag]
    return ["score", base.benchmark, str(file), *flags, *json_flag]


# -- option values of `triplebench compare` -----------------------------------------------------------------

@dataclass(frozen=True)
class OptionFamily:
    """Option values given to ``triplebench compare``, and the correct outcome (``refuse`` or ``any``)."""

    name: str
    expect: str
    flags: tuple[str, ...]


OPTION_FAMILIES: tuple[OptionFamily, ...] = (
    OptionFamily("bootstrap_zero", "refuse", ("--bootstrap", "0")),
    OptionFamily("bootstrap_negative", "refuse", ("--bootstrap", "-5")),
    OptionFamily("bootstrap_huge", "refuse", ("--bootstrap", "1" + "0" * 30)),
    OptionFamily("bootstrap_text", "refuse", ("--bootstrap", "many")),
    OptionFamily("bootstrap_float", "refuse", ("--bootstrap", "1.5")),
    OptionFamily("bootstrap_empty", "refuse", ("--bootstrap", "")),
    OptionFamily("level_zero", "refuse", ("--level", "0")),
    OptionFamily("level_one", "refuse", ("--level", "1")),
    OptionFamily("level_above_one", "refuse", ("--level", "1.5")),
    OptionFamily("level_negative", "refuse", ("--level", "-0.5")),
    OptionFamily("level_nan", "refuse", ("--level", "nan")),
    OptionFamily("level_text", "refuse", ("--level", "high")),
    OptionFamily("seed_negative", "refuse", ("--seed", "-1")),
    OptionFamily("metric_unknown", "refuse", ("--metric", "accuracy")),
    OptionFamily("bootstrap_one", "any", ("--bootstrap", "1")),
)

def compare_baselines() -> dict[str, tuple[Callable[[], tuple[Path | str, Path | str]], tuple[str, ...]]]:
    """benchmark -> (the two files ``compare`` gets: paths or FILE:FORMAT, their flags), for those that have a pair."""
    from triplebench.registry import BENCHMARKS

    return {b: inputs(b).COMPARE for b in BENCHMARKS if inputs(b).COMPARE is not None}


@dataclass(frozen=True)
class CompareCase:
    """``triplebench compare <benchmark> A B`` with one option family, in one output mode."""

    benchmark: str
    family: str
    mode: str = "text"

    @property
    def id(self) -> str:
        return f"compare/{self.benchmark}:{self.family}" + (":json" if self.mode == "json" else "")

    @property
    def entry(self) -> str:
        return f"compare {self.benchmark}" + (" --json" if self.mode == "json" else "")

    def argv(self) -> list[str]:
        make, flags = compare_baselines()[self.benchmark]
        a, b = make()
        fam = next(f for f in OPTION_FAMILIES if f.name == self.family)
        return ["compare", self.benchmark, str(a), str(b), *flags, *fam.flags, *(["--json"] if self.mode == "json" else [])]


def compare_cases(full: bool) -> list[CompareCase]:
    """Every (benchmark, option family, mode); the default run: text mode, and the scoring family on BenchIE only."""
    out = []
    for bench in compare_baselines():
        for fam in OPTION_FAMILIES:
            for mode in MODES:
                scores = fam.expect == "any" or fam.name == "metric_unknown"  # these score both files first
                if not full and (mode == "json" or (scores and bench == "carb")):
                    continue
                out.append(CompareCase(bench, fam.name, mode))
    return out


# -- running and classifying ------------------------------------------------------------------------------------

#: peak-memory growth of one case beyond which it counts as ``memory`` (and the address-space cap while it runs)
MEMORY_LIMIT = 2 * 1024**3


@dataclass
class Outcome:
    """What one command line did."""

    kind: str  # ok | clear | vague | traceback | hang | memory
    status: int | None
    stdout: str
    stderr: str
    detail: str = ""


class _Hang(Exception):
    pass


@contextmanager
def guarded(timeout: int = TIMEOUT) -> Iterator[dict]:
    """Run a block with an alarm (:class:`_Hang` after ``timeout`` s) and an address-space cap of
    the current size + :data:`MEMORY_LIMIT` (a runaway allocation is a MemoryError, not the
    machine's OOM killer); the yielded dict gets ``grew``, the block's growth of the peak RSS."""
    import resource

    def alarm(signum, frame):
        raise _Hang()

    info: dict = {}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * resource.getpagesize()
        cap = size + MEMORY_LIMIT + 1024**3  # + 1 GB: the MemoryError must come before the count below
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    except (OSError, ValueError):
        pass
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(timeout)
    try:
        yield info
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except (OSError, ValueError):
            pass
        info["grew"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before


def run(argv: list[str], names: tuple[str, ...]) -> Outcome:
    """Run ``triplebench`` in this process; classify the result (``names``: what a clear error names)."""
    from triplebench.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with guarded() as info, redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:  # argparse usage errors
                status = exc.code if isinstance(exc.code, int) else 2
    except _Hang:
        return Outcome("hang", None, out.getvalue(), err.getvalue())
    except MemoryError:
        return Outcome("memory", None, out.getvalue(), err.getvalue(), "MemoryError")
    except Exception as exc:  # noqa: BLE001 - the point: anything else is a traceback
        return Outcome("traceback", None, out.getvalue(), err.getvalue(), f"{type(exc).__name__}: {exc}"[:300])
    if info["grew"] > MEMORY_LIMIT:
        return Outcome("memory", status, out.getvalue(), err.getvalue(), f"peak memory grew {info['grew'] / 1e9:.1f} GB")
    stderr = err.getvalue()
    if status == 0:
        return Outcome("ok", 0, out.getvalue(), stderr)
    first = [line for line in stderr.splitlines() if line.strip()]
    named = any(n in stderr for n in names) or "option '" in stderr or "usage:" in stderr
    one_line = len(first) == 1 or (first and first[0].startswith("usage:"))
    clear = status == 2 and first and named and one_line and len(stderr) < 5_000
    return Outcome("clear" if clear else "vague", status, out.getvalue(), stderr)


#: the outcome classes of the fuzz table, the two that pass first
VERDICTS = ("ok", "refused", "vague", "traceback", "silent", "changed", "rejected", "hang", "memory")


def verdict(kind: str, expect: str, same: bool | None = None, wrong_refusal: bool = False) -> str:
    """The class of one outcome.

    ``ok``: a number with exit 0 that is legitimate; ``refused``: exit 2 / InputError with a one-line
    message naming the input; ``vague``: a refusal that does not; ``traceback``; ``silent``: a number
    where the family must be refused; ``changed``: a reading rule (BOM, CRLF, NFD) changed the numbers;
    ``rejected``: a clear refusal of input the reading rules make the baseline, which scores (``equal``), or one
    that says what the family's input is not (``wrong_refusal``: :attr:`Family.never`);
    ``hang``: the timeout; ``memory``: a MemoryError or a peak-memory growth over :data:`MEMORY_LIMIT`.
    """
    if kind == "clear":
        return "rejected" if (expect == "equal" and same is False) or wrong_refusal else "refused"
    if kind != "ok":
        return kind
    if expect == "refuse":
        return "silent"
    if expect in ("equal", "same") and same is False:
        return "changed"
    return "ok"


#: (entry point, family, verdict, case id, detail) of every case run in this session, for the summary table
RESULTS: list[tuple[str, str, str, str, str]] = []


def record(entry: str, family_name: str, verdict_name: str, case_id: str, detail: str = "") -> str:
    """Remember one outcome for the table printed at the end of the run; returns ``verdict_name``."""
    RESULTS.append((entry, family_name, verdict_name, case_id, detail))
    return verdict_name


class FuzzTable:
    """A pytest plugin that prints the outcome table at the end of the run: one row per entry
    point x mutation family with the count of each verdict, then every case that failed.

    Registered by the fuzz test modules (a ``tests/fuzz/conftest.py`` would shadow the
    ``conftest`` module the tests import ``upstream_file`` from).
    """

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        if not RESULTS:
            return
        write = terminalreporter.write_line
        terminalreporter.section("fuzz outcomes (entry point x mutation family)")
        rows: dict[tuple[str, str], dict[str, int]] = {}
        for entry, family_name, verdict_name, _, _ in RESULTS:
            row = rows.setdefault((entry, family_name), dict.fromkeys(VERDICTS, 0))
            row[verdict_name] += 1
        width = max(len(entry) for entry, _ in rows) + 2
        fwidth = max(len(f) for _, f in rows) + 2
        write("entry point".ljust(width) + "family".ljust(fwidth) + "".join(v.rjust(10) for v in VERDICTS))
        totals = dict.fromkeys(VERDICTS, 0)
        for (entry, family_name), row in sorted(rows.items()):
            write(entry.ljust(width) + family_name.ljust(fwidth) + "".join(str(row[v] or ".").rjust(10) for v in VERDICTS))
            for v in VERDICTS:
                totals[v] += row[v]
        write("all".ljust(width + fwidth) + "".join(str(totals[v]).rjust(10) for v in VERDICTS))
        entries: dict[str, dict[str, int]] = {}
        for (entry, _), row in rows.items():
            for v in VERDICTS:
                entries.setdefault(entry, dict.fromkeys(VERDICTS, 0))[v] += row[v]
        write("")
        write("entry point (all families)".ljust(width + fwidth) + "".join(v.rjust(10) for v in VERDICTS))
        for entry, row in sorted(entries.items()):
            write(entry.ljust(width + fwidth) + "".join(str(row[v]).rjust(10) for v in VERDICTS))
        problems = [(case_id, verdict_name, detail) for _, _, verdict_name, case_id, detail in RESULTS
                    if verdict_name not in ("ok", "refused")]
        for case_id, verdict_name, detail in problems:
            write(f"{verdict_name}: {case_id} {detail[:200]}")


_TABLE = FuzzTable()


def register_table(config) -> None:
    """Register :class:`FuzzTable` once per session."""
    if not config.pluginmanager.is_registered(_TABLE):
        config.pluginmanager.register(_TABLE, "triplebench-fuzz-table")

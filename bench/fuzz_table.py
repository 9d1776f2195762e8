"""The fuzz outcome table of issue 14, re-measured: every baseline x every mutation family.

    .venv/bin/python bench/fuzz_table.py            (after `make`; ~1 min on 2 cores)

Columns: tried, clear error, vague error, traceback, silent (a number from a
`refuse` family), changed by encoding only (a `same` family scoring differently),
hang, accepted (a number where the family allows one).
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "fuzz")]

from corpus import BASELINES, argv_for, cases, family, run  # noqa: E402

COLUMNS = ("tried", "clear", "vague", "traceback", "silent", "changed", "hang", "accepted")


def main() -> int:
    table: dict[str, Counter] = {}
    problems = []
    baselines: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for case in cases(full=True):
            bench = BASELINES[case.baseline].benchmark
            row = table.setdefault(bench, Counter())
            argv = argv_for(case, folder)
            outcome = run(argv, tuple(a for a in argv if "/" in a))
            kind = outcome.kind
            if kind == "ok":
                expect = family(case.family).expect
                if expect == "refuse":
                    kind = "silent"
                elif expect == "same":
                    if case.baseline not in baselines:
                        baselines[case.baseline] = run(argv_for(case, folder, mutated=False), ()).stdout
                    output = outcome.stdout
                    for a, b in zip(argv, argv_for(case, folder, mutated=False)):
                        if a != b:
                            output = output.replace(Path(a).name, Path(b).name)
                    kind = "accepted" if output == baselines[case.baseline] else "changed"
                else:
                    kind = "accepted"
            row["tried"] += 1
            row[kind] += 1
            if kind in ("vague", "traceback", "silent", "changed", "hang"):
                problems.append(f"{case.id}: {kind} {outcome.detail or outcome.stderr[:200]}")
    print("| benchmark | " + " | ".join(COLUMNS) + " |")
    print("| --- |" + " ---: |" * len(COLUMNS))
    for bench, row in table.items():
        print(f"| {bench} | " + " | ".join(str(row[c]) for c in COLUMNS) + " |")
    total = Counter()
    for row in table.values():
        total.update(row)
    print("| all | " + " | ".join(str(total[c]) for c in COLUMNS) + " |")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

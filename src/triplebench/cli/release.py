"""Release the built datasets and evaluate modules as version VERSION (tag vVERSION).

    triplebench release 1.0.0 --to hf://ORG --dry-run     # print the exact Hub calls
    triplebench release 1.0.0 --to /srv/git/triplebench.git
    triplebench release 1.0.0 --to git@host:org/triplebench.git

Run inside the checkout after `make`. VERSION must be the installed package's
version (the data-version rule: package V reads release vV, and the Spaces pin
triplebench==V). The version rule is checked against the target's previous release
(gold rows changed: major; config added: minor; cards only: patch). TACRED text (LDC)
stays out unless --include-restricted. What the release needs (git and a git identity, a
readable target, a Hub token) is checked before anything is written; --dry-run checks it too.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import TripleBenchError
from ..io import scratch_directory
from ..location import hub_org, installed_version
from ..paths import project_root
from ..release import publish, tree


def configure(command: str, parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """Add the ``release`` arguments to ``parser``."""
    parser.set_defaults(func=run)
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("version", metavar="VERSION", help="MAJOR.MINOR.PATCH; tagged vVERSION")
    parser.add_argument("--to", default=None, metavar="hf://ORG | GIT_URL | PATH", help=f"where to publish (default hf://{hub_org()})")
    parser.add_argument("--dry-run", action="store_true", help="check all a release needs, print the operations (shell-quoted); change nothing")
    parser.add_argument("--include-restricted", action="store_true", help="keep TACRED (LDC) text; only for targets whose users hold the licence")
    parser.add_argument("--out", metavar="DIR", default=None, help="also keep the assembled release tree in DIR (must not exist)")


def run(args: argparse.Namespace) -> int:
    """Assemble the release tree from the checkout and publish it; return the exit status."""
    root = project_root()
    if not (root / "dvc.yaml").is_file():
        raise TripleBenchError(f"{root}: not a triplebench checkout; run `triplebench release` inside the built checkout")
    target = args.to or f"hf://{hub_org()}"
    if args.version != installed_version():
        raise TripleBenchError(
            f"release {args.version}: the installed package is {installed_version()}. A release is the data and "
            f"evaluate modules of exactly one package version (its Spaces pin triplebench=={args.version}, and "
            f"package {args.version} reads release v{args.version}): set the version in src/triplebench/_version.py, "
            "add its CHANGELOG section, reinstall, then release")
    if args.out and Path(args.out).exists():
        raise TripleBenchError(f"{args.out}: exists; --out needs a new directory")
    publish.preflight(target)  # git, identity, target, token: before anything is written, in a dry run too
    with scratch_directory("tree") as scratch:
        out = Path(args.out) if args.out else scratch / "tree"
        built = tree.assemble(root, out, args.version, include_restricted=args.include_restricted)
        for benchmark, configs in built.left_out.items():
            for name in configs:
                print(f"# left out: {benchmark}/{name} (restricted; --include-restricted keeps it)")
        for benchmark, configs in built.filtered.items():
            if configs:
                print(f"# restricted rows removed from {benchmark}: {', '.join(configs)}")
        if target.startswith("hf://"):
            changes = publish.to_hub(out, target.removeprefix("hf://").strip("/"), args.version, dry_run=args.dry_run, echo=print)
        else:
            changes = publish.to_git(out, target, args.version, dry_run=args.dry_run, echo=print)
    for line in changes:
        print(f"# {line}")
    print(f"{'would release' if args.dry_run else 'released'} v{args.version} to {target}")
    return 0

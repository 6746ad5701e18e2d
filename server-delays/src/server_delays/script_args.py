"""Arguments of this package's npm scripts (fidelity:delays, bench:delays), as profiler/src/script-args.ts takes
them for the TypeScript ones: `--help` / `-h` prints the usage on stdout and exits 0 before any work; anything
that is not one of the script's flags is one line on stderr (`NAME: unknown option '--x' (--help for usage)`),
exit 2."""

from __future__ import annotations

import sys


def script_flags(name: str, usage: str, argv: list[str], flags: tuple[str, ...] = ()) -> set[str]:
    """The FLAGS given in ARGV; --help and anything else end the script (exit 0 with USAGE, exit 2)."""
    if "--help" in argv or "-h" in argv:
        sys.stdout.write(usage.strip() + "\n")
        raise SystemExit(0)
    for arg in argv:
        if arg not in flags:
            what = f"unknown option '{arg}'" if arg.startswith("-") else f"unexpected argument '{arg}'"
            sys.stderr.write(f"{name}: {what} (--help for usage)\n")
            raise SystemExit(2)
    return set(argv)

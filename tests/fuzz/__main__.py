"""Long fuzz run: ``python -m tests.fuzz --cli 10000 --api 3000 --user-code 1000 --forged-npy 1000 --oracle 1000 --signals``
(from the checkout's root).

Prints the counts of tracebacks, hangs, memory failures and silent accepts with examples, the certified values
found unsafe or too wide by the mpmath oracle, and the worker processes that survived a signal; exits 1 if any.
Limits per call default to 20 s and 4 GiB, as the campaign that first measured them.
"""

from __future__ import annotations

import argparse
import json
import sys

from tests.fuzz.campaign import (
    ORACLE_FAILURES,
    as_json,
    oracle_summary,
    run_api_campaign,
    run_cli_campaign,
    run_forged_npy_campaign,
    run_oracle_campaign,
    run_user_code_campaign,
)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--cli", type=int, default=10_000, help="command lines to run (default 10000)")
    parser.add_argument("--api", type=int, default=3_000, help="public API calls to run (default 3000)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    parser.add_argument("--seconds", type=float, default=20.0, help="time limit per call (default 20)")
    parser.add_argument("--memory-gib", type=float, default=4.0, help="address-space limit per call (default 4)")
    parser.add_argument("--user-code", dest="user_code", type=int, default=0,
                        help="calls with misbehaving user functions (default 0)")
    parser.add_argument("--forged-npy", dest="forged_npy", type=int, default=0,
                        help="command lines given a forged .npy header (default 0)")
    parser.add_argument("--sweep", action="store_true",
                        help="every public function, one parameter at a time bad (NaN, inf, complex, string, empty, "
                             "wrong shape): refused in one line naming it")
    parser.add_argument("--oracle", type=int, default=0, help="certified values checked by the oracle (default 0)")
    parser.add_argument("--signals", action="store_true",
                        help="also kill each command that starts workers (SIGTERM, SIGINT, SIGKILL) and count survivors")
    parser.add_argument("--json", metavar="FILE", help="also write the tallies as JSON")
    args = parser.parse_args()
    tallies = {}
    if args.cli:
        tallies["cli"] = run_cli_campaign(args.cli, seed=args.seed, seconds=args.seconds,
                                          memory_gib=args.memory_gib, progress=True)
        print(tallies["cli"].summary("command line"), flush=True)
    if args.api:
        tallies["api"] = run_api_campaign(args.api, seed=args.seed, seconds=args.seconds,
                                          memory_gib=args.memory_gib, progress=True)
        print(tallies["api"].summary("public API"), flush=True)
    if args.user_code:
        tallies["user_code"] = run_user_code_campaign(args.user_code, seed=args.seed, seconds=args.seconds,
                                                      memory_gib=args.memory_gib, progress=True)
        print(tallies["user_code"].summary("misbehaving user code"), flush=True)
    if args.forged_npy:
        tallies["forged_npy"] = run_forged_npy_campaign(args.forged_npy, seed=args.seed, seconds=args.seconds,
                                                        memory_gib=args.memory_gib, progress=True)
        print(tallies["forged_npy"].summary("forged .npy headers"), flush=True)
    if args.sweep:
        from tests.fuzz.campaign import run_message_sweep

        tallies["sweep"] = run_message_sweep(seconds=args.seconds, memory_gib=args.memory_gib, progress=True)
        print(tallies["sweep"].summary("message sweep"), flush=True)
    failed = any(t.failures for t in tallies.values())
    if args.oracle:
        oracle = run_oracle_campaign(args.oracle, seed=args.seed, seconds=max(args.seconds, 120.0),
                                     memory_gib=args.memory_gib, progress=True)
        tallies["oracle"] = oracle
        print(oracle_summary(oracle), flush=True)
        failed = failed or any(oracle.counts[kind] for kind in ORACLE_FAILURES)
    if args.signals:
        import tempfile
        from pathlib import Path

        from tests.fuzz.signals import run_signal_campaign

        outcomes = run_signal_campaign(Path(tempfile.mkdtemp(prefix="reference-signals-")), progress=True)
        survivors = sum(outcome.survivors for outcome in outcomes)
        print(f"signals: {len(outcomes)} kills, surviving child processes {survivors}", flush=True)
        failed = failed or survivors > 0
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({name: as_json(t) for name, t in tallies.items()}, handle, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""How many times one public call validates its inputs: a count, not a timing.

    python benchmarks/validation_counts.py [--json]

Every input check of ``reference.core.validate`` (``check_depth``, ``check_positive_int``, ``positive_fraction``,
``open_unit_fraction``, ``to_fraction``, ``positive_real``, ``to_real``, ``check_neighbours``) and the KARY design
builders (``kary_design``, ``kary_noise_matrix``) are replaced, in every loaded module that holds them, by a
counting wrapper. A check called from inside another check (``positive_fraction`` reading its value with
``to_fraction``) is not counted again; a check inside a builder is (the builder re-validates what it was given).
Each check is reported with the parameter name it was given, so "ε checked 4 times" reads as ``positive_fraction(epsilon): 4``.

The calls counted are one ``calibrate_cascade(10, epsilon="1/2", delta="1e-6")`` and one
``audit_kary_noise(samples, 3, epsilon=1)`` on 2,000 runs of Algorithm 2's noise at horizon 9 (seeded). Run it
against another checkout with ``PYTHONPATH=<checkout> python benchmarks/validation_counts.py`` to compare.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

import reference.audit.samples.audit
import reference.cip.calibration
import reference.core.validate as validate

CHECKS = (
    "check_depth",
    "check_positive_int",
    "positive_fraction",
    "open_unit_fraction",
    "to_fraction",
    "positive_real",
    "to_real",
    "check_neighbours",
)
BUILDERS = ("kary_design", "kary_noise_matrix")


def _name_argument(function_name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    if "name" in kwargs:
        return str(kwargs["name"])
    if function_name == "check_depth":
        return str(args[1]) if len(args) > 1 else "depth"
    if function_name == "check_neighbours":
        return str(args[1]) if len(args) > 1 else "neighbours"
    return str(args[1]) if len(args) > 1 else "?"


@contextmanager
def counting(counts: Counter[str]) -> Iterator[None]:
    """Replace every check and builder, wherever a module imported it, by a counting wrapper."""
    import reference.audit.samples.design_audit as sample_design

    originals: dict[str, Callable[..., Any]] = {name: getattr(validate, name) for name in CHECKS}
    originals.update({name: getattr(sample_design, name) for name in BUILDERS})
    depth = [0]

    def wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def counted(*args: Any, **kwargs: Any) -> Any:
            if name in BUILDERS:
                counts[name] += 1
                return function(*args, **kwargs)
            if depth[0] == 0:
                counts[f"{name}({_name_argument(name, args, kwargs)})"] += 1
            depth[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1

        return counted

    wrappers = {name: wrap(name, function) for name, function in originals.items()}
    patched: list[tuple[object, str, object]] = []
    for module in list(sys.modules.values()):
        if module is None or not getattr(module, "__name__", "").startswith("reference"):
            continue
        for name, original in originals.items():
            if getattr(module, name, None) is original:
                patched.append((module, name, original))
                setattr(module, name, wrappers[name])
    try:
        yield
    finally:
        for module, name, original in patched:
            setattr(module, name, original)


def kary_samples() -> np.ndarray:
    from reference.kary.counters_runs import algorithm_2_runs

    stream = np.zeros(9, dtype=np.int64)
    return np.asarray(algorithm_2_runs(stream, 3, epsilon=1, runs=2000, seed=0))


def measure() -> dict[str, dict[str, int]]:
    samples = kary_samples()
    results = {}
    for label, call in (
        ('calibrate_cascade(10, epsilon="1/2", delta="1e-6")',
         lambda: reference.cip.calibration.calibrate_cascade(10, epsilon="1/2", delta="1e-6")),
        ("audit_kary_noise(samples, 3, epsilon=1)",
         lambda: reference.audit.samples.audit.audit_kary_noise(samples, 3, epsilon=1)),
    ):
        counts: Counter[str] = Counter()
        with counting(counts):
            call()
        results[label] = dict(sorted(counts.items()))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    options = parser.parse_args()
    results = measure()
    if options.json:
        print(json.dumps(results, indent=2))
        return
    print(f"reference loaded from {reference.cip.calibration.__file__}")
    for label, counts in results.items():
        print(f"\n{label}: {sum(counts.values())} checks")
        for check, count in counts.items():
            print(f"  {count:4d}  {check}")


if __name__ == "__main__":
    main()

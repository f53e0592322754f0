"""Write docs/measurements/scaling.md and docs/measurements/peers.md from their records.

    python benchmarks/render_measurements.py            # rewrite both pages
    python benchmarks/render_measurements.py --check    # exit 1 if a committed page differs from its rendering

The records (docs/measurements/scaling.json, peers.json) are written by the benchmarks themselves with ``--record``
(benchmarks/measurement_record.py); every measured number on the pages comes from them, next to the command, date
and commit of its run. What is not measured is computed here from the code at render time (the cascade audit's
power at depth 20, from ``reference.audit.samples``) or derived from a recorded number by the arithmetic shown
(the cluster estimate). The prose around the numbers is this file's.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measurement_record import MEASUREMENTS, ROOT, load_record  # beside this script

PAGES = {"scaling": MEASUREMENTS / "scaling.md", "peers": MEASUREMENTS / "peers.md"}
#: The cluster estimate's workload: depth 20 (2^20 leaves), 10^6 runs, 100 single-core workers, blocks of 1024 runs.
ESTIMATE_DEPTH, ESTIMATE_RUNS, ESTIMATE_WORKERS, ESTIMATE_BLOCK_RUNS = 20, 10**6, 100, 1024
#: The level of the audits whose power the scaling page states.
ALPHA = 1e-6
#: An assumed client bandwidth for the blocks' returned sums (not measured: stated as an assumption on the page).
ASSUMED_BYTES_PER_SECOND = 10**9


def _stamp(run: dict[str, Any]) -> str:
    return f"{run['date']}, commit {run['commit']}, load {run['load']}"


def _provenance(records: dict[str, Any]) -> list[str]:
    """One line per run: its command, when and where, and where its numbers came from."""
    lines = ["| run | command | measured | source |", "|---|---|---|---|"]
    for key, run in records["runs"].items():
        lines.append(f"| {key} | `{run['command']}` | {_stamp(run)} | {run['source']} |")
    return lines


def _sci(value: float) -> str:
    """Two significant digits as ``2.1·10^9``."""
    exponent = math.floor(math.log10(value))
    return f"{value / 10**exponent:.2g}·10^{exponent}"


def _percent(fraction: float) -> str:
    return f"{100 * fraction:.2g}%"


def _power_lines() -> list[str]:
    """The cascade audit's power at depth 20 and level ALPHA, computed now from the code that the audit runs."""
    from reference.audit.samples.cascade_stream import cascade_power
    from reference.audit.samples.power import cascade_deviation_detected

    small, large = (cascade_power(ESTIMATE_DEPTH, runs, ALPHA) for runs in (10**4, 10**6))
    per_node = cascade_deviation_detected(ESTIMATE_DEPTH, 10**4, ALPHA)
    return [
        "The cascade audit has, besides one chi-square test per node and per sibling pair, a *pooled scale* test: the",
        "root and the sibling differences are the Haar coefficients of the leaves, independent under the oracle, so",
        "`root²/σ² + Σ (L − R)²/(3σ²)` over all runs is chi-square with `runs × n` degrees of freedom. At depth 20 and",
        f"α = 10^-6 the per-node tests detect a {_percent(per_node)} scale error at 10^4 runs; the pooled test a "
        f"{_percent(small['scale_error'])} one ({_percent(large['scale_error'])} at 10^6 runs). Correlation errors",
        f"are still seen per sibling pair only ({small['correlation_error']:.2g} at 10^4 runs, "
        f"{large['correlation_error']:.2g} at 10^6). (Detection probability 99%; computed when this page was",
        "written, by `reference.audit.samples.cascade_stream.cascade_power` and",
        "`reference.audit.samples.power.cascade_deviation_detected`; `audit sampler-function` prints the same before",
        "it draws.) Both cascade audits of `audit samplers` run this test and state its power: the streamed one and",
        "the file audit at depth ≤ 8 (marginals, node variances, whitened covariance and pooled scale at α/4 each, the",
        "pooled statistic accumulated by the same code).",
        "",
    ]


def _batched_rows(run: dict[str, Any]) -> list[str]:
    values, command = run["values"], f"`{run['command']}`"
    samplers = values["samplers"]

    def ratios(names: list[str]) -> str:
        return ", ".join(f"{samplers[name]['ratio']:.2f}×" for name in names)

    cascade = samplers["batched Cascade Sampling"]
    kary = [name for name in samplers if name.startswith("KARY")]
    discrete = [name for name in samplers if name.startswith("discrete")]
    return [
        f"| batched cascade, {values['runs']:,} runs × 2^{values['depth']} leaves (in blocks of {values['block']} "
        f"runs) | {command} | {_stamp(run)} | {cascade['ns_per_value']} ns/value, **{cascade['ratio']:.2f}×** the "
        "normals of the same count (CPU seconds) |",
        f"| {'; '.join(kary)}; {values['small_runs']:,} runs × {values['horizon']:,} | same | same | "
        f"**{ratios(kary)}** the normals |",
        f"| {'; '.join(discrete)}; same size | same | same | **{ratios(discrete)}** the normals |",
    ]


def _sampler_function_row(run: dict[str, Any]) -> str:
    values = run["values"]
    leaves = 1 << values["depth"]
    count = values["runs"] * leaves
    block_mib = values["block_runs"] * leaves * 8 / 2**20
    one, two = values["seconds_1"], values["seconds_2"]
    parts = [
        f"1 worker {one} s ({_sci(count / one)} values/s), 2 workers {two} s ({_sci(count / two)} values/s): "
        f"**{one / two:.2f}×**, while two CPU-bound processes got {values['capacity']:.2f}× one's throughput",
        f"per value {values['target_ns']} ns sampling + {values['statistics_ns']} ns statistics (CPU)",
    ]
    if "traced_peak_mib" in values:
        parts.append(f"peak traced memory (1 worker) {values['traced_peak_mib']} MiB = "
                     f"{values['traced_peak_mib'] / block_mib:.2f} × one {block_mib:.0f} MiB block")
    if "worker_rss_mib" in values:
        parts.append(f"largest worker resident set (2 workers, interpreter included) {values['worker_rss_mib']} MiB")
    parts.append("identical verdict and digest" if values["identical"] else "**the verdicts or digests differ**")
    return (f"| `audit sampler-function`, own cascade, depth {values['depth']}, {values['runs']:,} runs "
            f"({_sci(count)} values), chunks of {values['chunk_runs']} runs, blocks of {values['block_runs']} | "
            f"`{run['command']}` | {_stamp(run)} | {'; '.join(parts)} |")


def _report_jobs_row(what: str, run: dict[str, Any]) -> str:
    values = run["values"]
    jobs, single, parallel = values["jobs"], values["seconds_1"], values["seconds_n"]
    same = ("report.md and claims.json identical but for the measured times" if values["identical"]
            else "**the outputs differ**")
    return (f"| {what} report, `--jobs {jobs}` / `--jobs 1` | `{run['command']}` | {_stamp(run)} | {parallel} s / "
            f"{single} s = **{parallel / single:.2f}×** ({values['busy_cores_n']:.2f} cores busy), while two "
            f"CPU-bound processes got {values['capacity']:.2f}× one's throughput; {same} |")


def _schedule_row(run: dict[str, Any]) -> str:
    values = run["values"]
    return (f"| the quick report's schedule on {values['jobs']} idle cores (a model from measured CPU seconds) | "
            f"`{run['command']}` | {_stamp(run)} | {values['tasks']} tasks {values['tasks_cpu']} s (longest "
            f"{values['longest']} s), the Coq check {values['coq']} s, worker start-up {values['startup']} s; "
            f"replayed in the pool's order: **{values['ratio_coq_after']:.2f}×** with the Coq check after the pool, "
            f"**{values['ratio_coq_first']:.2f}×** with it first (as the report does) |")


def _estimate_lines(run: dict[str, Any]) -> list[str]:
    """The 10^12-value cluster estimate, derived from the recorded per-value cost of the audit's blocks."""
    values = run["values"]
    per_value = (values["target_ns"] + values["statistics_ns"]) * 1e-9
    leaves = 1 << ESTIMATE_DEPTH
    total = ESTIMATE_RUNS * leaves
    core_seconds = total * per_value
    blocks = math.ceil(ESTIMATE_RUNS / ESTIMATE_BLOCK_RUNS)
    block_seconds = ESTIMATE_BLOCK_RUNS * leaves * per_value
    sums_bytes = 3 * leaves * 8  # the cascade's exact sums: three int64 per leaf-sized vector, whatever the block size
    returned = blocks * sums_bytes
    rounds = math.ceil(blocks / ESTIMATE_WORKERS)
    chunk_mib = values["chunk_runs"] * leaves * 8 / 2**20
    return [
        f"**Estimate: a 10^12-value cascade audit on a {ESTIMATE_WORKERS}-worker cluster** (derived, not measured).",
        f"Depth {ESTIMATE_DEPTH} (n = 2^{ESTIMATE_DEPTH}), {_sci(ESTIMATE_RUNS)} runs. Recorded per value above (depth "
        f"{values['depth']}): {values['target_ns']} + {values['statistics_ns']} ns to draw and fold into the statistics on one core, i.e.",
        f"{_sci(core_seconds)} core-seconds in all, or **about {core_seconds / ESTIMATE_WORKERS / 60:.1f} minutes on "
        f"{ESTIMATE_WORKERS} single-core workers** with perfect scaling. Each block returns its exact sums, 3 × "
        f"2^{ESTIMATE_DEPTH} int64 = {sums_bytes / 2**20:.0f} MiB whatever its size, so blocks must be large enough for",
        f"that to be negligible: with `--block-runs {ESTIMATE_BLOCK_RUNS}` (about {block_seconds:.0f} s of work per "
        f"block) there are {blocks} blocks, {returned / 1e9:.0f} GB returned to the client in total (about "
        f"{returned / ASSUMED_BYTES_PER_SECOND:.0f} s spread over the run at an assumed "
        f"{ASSUMED_BYTES_PER_SECOND / 1e9:.0f} GB/s); blocks go out in waves of twice the worker count, "
        f"{blocks} blocks "
        f"on {ESTIMATE_WORKERS} workers being {rounds} rounds of {block_seconds:.0f} s: **about "
        f"{rounds * block_seconds / 60:.1f} minutes** end to end, plus the cluster's start-up and the merges (not "
        f"measured). Each worker holds one chunk ({values['chunk_runs']} runs, {chunk_mib:.0f} MiB) and its sums.",
    ]


SCALING_INTRO = """\
Statistical audits gain power only with the square root of the number of draws, so a small error in a sampler
needs very many of them. Three pieces take an audit from one machine's memory to a cluster:

- **Batched samplers.** `cascade_leaves_runs` (`reference/cip/numeric/cascade_runs.py`), `algorithm_1_runs` and
  `algorithm_2_runs` (`reference/kary/counters_runs.py`, any supported arity, Laplace or discrete Laplace noise)
  and `laplace_runs`, `discrete_laplace_runs`, `discrete_gaussian_runs` (`reference/samplers/numeric_runs.py`)
  draw `runs × n` in one call. Run `i` equals the single-run sampler with `numpy.random.default_rng(s_i)`, `s_i`
  the `i`-th child `SeedSequence.spawn` gives the root seed (`reference.core.rng.run_seeds`), bit for bit (tested).
- **Sufficient statistics.** The sampler audits consume blocks of runs and keep only sums: per node of the cascade
  tree `Σ node²/σ²` and `Σ (L − R)²/(3σ²)` (`CascadeMoments`), per median-of-means group the sums of squares and
  cross products (`DesignMoments`, `reference/audit/samples/design_moments.py`), histogram counts for the discrete
  samplers; the small-depth cascade audit (depth <= 8) keeps leaf, node and whitened sums and pair products
  (`reference/audit/samples/whitened_moments.py`), its Kolmogorov–Smirnov part on a fixed 1024-cell grid of normal
  quantiles (the DKW bound still holds there). The sums are **exact integers**: each summand is rounded once to
  the grid 2^-24 (in units where the tested quantities are about 1) and the rounded values are added as integers;
  for cross products each factor is rounded to 2^-16 and the products of the rounded factors are summed by matrix
  products of integer-valued floats, exact because every partial sum stays an integer below 2^53
  (`reference/audit/samples/sufficient.py`). So any split into blocks and any merge order give the identical
  statistics and verdict (tested). Memory does not grow with the number of runs.
- **`audit sampler-function`** runs a user's sampler, a function `f(generator, runs)` returning `runs × n` (or
  `f(generator)` returning one run), in chunks with their own seeds (chunk `c` draws with child `c` of the root
  seed), in blocks of whole chunks on [Dask](https://www.dask.org): the synchronous scheduler for one worker, a
  local process pool for several (nothing to start), a `dask.distributed` cluster with `--scheduler ADDRESS`
  (`pip install distributed`; a test runs it against a `LocalCluster` when it is installed). Block results are
  merged as they return, so the verdict and every statistic (the JSON carries a SHA-256 of the exact sums) are
  the same for any `--workers`, `--block-runs` and scheduler. Before drawing, it prints (and puts in the JSON)
  the smallest deviation detected with probability 99% at the requested run count, and with
  `--runs-for-deviation X` the runs needed for `X`. Exit status 0 holds, 1 fails, 3 inconclusive, 2 bad input.
  Work is estimated first (from a fixed cost per value, a floor for any target) and refused past `--max-seconds`
  (default 20): the depth-20 audit with 10^4 runs below is about 10^10 values, so it says so and names the
  estimate.

```sh
reference audit sampler-function --target examples.batched_samplers:cascade_depth_20 --mechanism cascade --depth 20 --sigma 1 --runs 512 --seed 1 --workers 2 --json
reference audit sampler-function --target examples.batched_samplers:cascade_depth_20 --mechanism cascade --depth 20 --sigma 1 --runs 10000 --seed 1 --workers 2 --max-seconds 600   # long: not run by the tests
reference audit sampler-function --target reference_verification.planted.variance_for_std_cascade:faulty_cascade_batch --mechanism cascade --depth 6 --sigma 2 --runs 2000 --seed 3   # fails, exit 1
reference audit sampler-function --target examples.batched_samplers:kary_algorithm_2_arity_3 --mechanism kary --arity 3 --horizon 20 --epsilon 1 --runs 20000 --seed 1
reference audit sampler-function --target examples.batched_samplers:discrete_gaussian_9_over_2 --mechanism discrete-gaussian --sigma-squared 9/2 --runs 2000 --seed 1
reference report --jobs 2
```
"""

SCALING_MEASURED = """\
`report --jobs N` (default: all cores) runs the claims, audit cases and plots in `N` spawned processes and
assembles them in the report's order: the content is the same for any `N` (only measured times differ).

**Measured** (each row with its command, date, commit and the load average before the run; ratios within one
run; the batched samplers in CPU seconds, which other jobs on a shared machine disturb less than the wall clock,
the normals re-timed between each sampler's repeats, though a shared cache still raises the memory-bound
samplers' ratios under load (0.1–0.35 higher at load 12–14 than on a quiet machine, docs/performance.md): read
each row with its load; the parallel runs beside the machine's parallel capacity measured in the same run, two
CPU-bound processes against one, 2.0 on two idle cores):
"""


def render_scaling(records: dict[str, Any]) -> str:
    runs = records["runs"]
    lines = [
        "# Scaling: Monte Carlo audits at 10^12 values",
        "",
        "Written by `python benchmarks/render_measurements.py` from `scaling.json` (do not edit by hand): each",
        "measured number comes from a benchmark run recorded there with `--record`, shown with its command, date",
        "and commit; the power figures are computed from the code when the page is written.",
        "",
        SCALING_INTRO,
        *_power_lines(),
        SCALING_MEASURED,
        "| what | command | measured | result |",
        "|---|---|---|---|",
    ]
    if "bench_batched" in runs:
        lines += _batched_rows(runs["bench_batched"])
    if "bench_sampler_function" in runs:
        lines.append(_sampler_function_row(runs["bench_sampler_function"]))
    for key, what in (("bench_report_jobs --full", "full"), ("bench_report_jobs --quick", "quick")):
        if key in runs:
            lines.append(_report_jobs_row(what, runs[key]))
    if "bench_report_jobs --schedule" in runs:
        lines.append(_schedule_row(runs["bench_report_jobs --schedule"]))
    if "bench_sampler_function" in runs:
        lines += ["", *_estimate_lines(runs["bench_sampler_function"])]
    lines += ["", "Where the numbers come from:", "", *_provenance(records)]
    return "\n".join(lines) + "\n"


PEERS_INTRO = """\
The libraries people run instead, side by side on the same grids, one run per table, in a fresh environment
after `pip install '.[peers]'`. In each script the ground truth is the project's certified value, checked
against an independent mpmath formula at 50 digits (Balle–Wang δ(ε, σ) solved by `mpmath.findroot`; the CKS
Corollary 13 infimum over the Rényi order; the discrete Gaussian's hockey-stick sum); a script whose cross-check
fails exits 1. *Unsafe* means certainly on the wrong side of the truth, decided by the certified enclosure with the
library's float read exactly; excess and deficit are relative to the truth; *time × project* is the library's time
on the grid over the project's, in the same run (on a shared machine such ratios move by up to 2× between runs).

```sh
pip install '.[peers]'  # long
python benchmarks/peers/gaussian_sigma.py --record  # long: minutes, most of it the PLD and PRV searches
python benchmarks/peers/zcdp_conversion.py --record  # long
python benchmarks/peers/discrete_gaussian_delta.py --record  # long
python benchmarks/peers/discrete_gaussian_sampler.py --record  # long
python benchmarks/render_measurements.py  # rewrites this page from docs/measurements/peers.json
```
"""

PEERS_NOTES = {
    "zcdp_conversion": "Unsafe is below the exact ε of the Gaussian mechanism with the same ρ (no conversion from ρ "
                       "alone may go lower); \"below tight\" counts values under the certified lower end of the tight "
                       "conversion (by float rounding here). prv_accountant takes no ρ.",
    "discrete_gaussian_delta": "dp_accounting's truncated privacy-loss distributions (when installed) never report "
                               "a δ below the mass they truncate (large excesses where the exact δ is tiny); OpenDP's "
                               "δ is its zCDP bound.",
    "discrete_gaussian_sampler": "Each row's draws are fitted to the exact pmf (pooled chi-square with a rigorous "
                                 "p-value bound and exact per-cell binomial tests); the project's draws are seeded, "
                                 "OpenDP's come from OS entropy.",
}

PEERS_OUTRO = """\
Tumult Core is not in the `[peers]` extra: installing it (0.20.0) downgrades numpy and sympy. With it installed by
hand the σ and sampler scripts add its rows; no such run is recorded here (run them with `--record` in that
environment). Its zCDP → (ε, δ) conversion is a yes/no relation that sympy solves per call, too slow to search
over, so the zCDP script skips it.

To run the same audit on your own calibrator in a test suite, without any peer installed, see
`examples/test_calibration_example.py`: `reference.testing.assert_calibration_safe` over a grid catches a
deliberately unsafe calibrator written for it and passes `sigma_exact`. `tests/peers/` checks the scripts'
mpmath cross-checks and their skip lines without the peers.
"""


def render_peers(records: dict[str, Any]) -> str:
    lines = [
        "# Compared with other libraries",
        "",
        "Written by `python benchmarks/render_measurements.py` from `peers.json` (do not edit by hand): each table",
        "is the one its script printed, recorded with `--record`, shown with the command, date, commit and library",
        "versions of its run.",
        "",
        PEERS_INTRO,
    ]
    for key, run in records["runs"].items():
        values = run["values"]
        installed = ", ".join(f"{name} {version}" for name, version in values["versions"].items())
        lines += [f"**{values['title']}** (`{run['command']}`; {_stamp(run)}; {installed}):", ""]
        if values.get("not_installed"):
            lines += [f"Not installed in this run, so not in the table: {', '.join(values['not_installed'])} (their "
                      "rows from an earlier environment are dropped, not kept).", ""]
        if key in PEERS_NOTES:
            lines += [PEERS_NOTES[key], ""]
        lines += [*values["table"], ""]
        if values["summary"]:
            lines += [values["summary"].capitalize() + ".", ""]
    lines += [PEERS_OUTRO, "Where the numbers come from:", "", *_provenance(records)]
    return "\n".join(lines) + "\n"


RENDERERS = {"scaling": render_scaling, "peers": render_peers}


def rendered(page: str, record: Path | None = None) -> str:
    """The text of ``page`` ("scaling" or "peers") rendered from its record."""
    return RENDERERS[page](load_record(page, record))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed page is not its rendering")
    args = parser.parse_args(argv)
    stale = []
    for page, path in PAGES.items():
        text = rendered(page)
        if args.check:
            if path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print(f"not the rendering of its record: {', '.join(stale)} (run python benchmarks/render_measurements.py)")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

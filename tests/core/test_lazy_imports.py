"""``import reference`` and the command line's start-up load no symbolic or plotting library and no verification
code; every public name still resolves (imported on first use)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("sympy", "matplotlib", "dask", "scipy", "reference_verification")


def _loaded_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_import_reference_loads_no_heavy_module() -> None:
    loaded = _loaded_after("import reference")
    assert not [name for name in HEAVY if name in loaded]


@pytest.mark.parametrize("arguments", [["kary", "digits", "--arity", "3", "--value", "10", "--width", "4"],
                                       ["calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5",
                                        "--sensitivity", "1"]])
def test_the_command_line_starts_without_sympy(arguments: list[str]) -> None:
    loaded = _loaded_after(f"import sys\nsys.argv = ['reference', *{arguments!r}]\nfrom reference.cli.main import main\n"
                           "status = main()\nassert status == 0, status")
    # the verification adds its `report` command through an entry point: only that small module loads
    verification = {name for name in loaded if name.startswith("reference_verification")}
    assert "sympy" not in loaded and verification <= {"reference_verification", "reference_verification.cli"}


def test_every_public_name_resolves() -> None:
    import reference

    for name in reference.__all__:
        assert getattr(reference, name) is not None, name
    from reference import cip_errors

    assert cip_errors.__name__ == "reference.cip.exact.errors"
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        reference.not_a_name  # noqa: B018


def test_the_sampler_function_audit_module_loads_neither_scipy_stats_nor_dask() -> None:
    # the sample report's alpha check lives in a light module: importing the audit (as the command does before
    # it plans) costs neither scipy.stats (about a second) nor Dask
    loaded = _loaded_after("import reference.audit.samples.sampler_function")
    assert not [name for name in ("scipy.stats", "scipy.optimize", "dask", "distributed") if name in loaded]


def test_the_cascade_sampler_function_command_runs_without_scipy_stats() -> None:
    # its power line, scale tests and magnitude cells take their quantiles from scipy.special (reference.core.
    # quantiles): scipy.stats and what it pulls in (scipy.optimize, scipy.spatial) would cost more than 4 runs;
    # nothing in it is certified, so python-flint is not loaded either (the command line's handler of the
    # certified errors imports them from reference.core.certified_errors), nor multiprocessing (one worker)
    arguments = ["audit", "sampler-function", "--target", "examples.batched_samplers:cascade_depth_20",
                 "--mechanism", "cascade", "--depth", "20", "--sigma", "1", "--runs", "4", "--seed", "1"]
    loaded = _loaded_after(f"import sys\nsys.argv = ['reference', *{arguments!r}]\nfrom reference.cli.main import main\n"
                           "status = main()\nassert status == 0, status")
    assert not [name for name in ("scipy.stats", "scipy.optimize", "dask", "distributed", "flint", "multiprocessing")
                if name in loaded]

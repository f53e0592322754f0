"""Integer-valued noise: the lattice audit (reference.audit.lattice) and its use by the linear-noise audit.

The parity-leak counter of examples/ (integer noise doubled, so every output's noise is even) is private for
continuous noise and not private at all for integer noise; the audit must say so, with a decoder that works on
every draw, while the corrected counter gets its exact ε.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from examples import correct_integer_kary, parity_leak_kary
from reference.audit.lattice import lattice_audit, neighbouring_differences
from reference.audit.linear_noise import EXIT_STATUS, audit_linear_noise, exact_matrix, kary_prefix_workload
from reference.cli.main import main

WORKLOAD = kary_prefix_workload(parity_leak_kary.HORIZON)


def test_a_doubled_scalar_noise_leaks_the_parity() -> None:
    # y = x + 2 z: y mod 2 = x mod 2 for every integer z
    found = lattice_audit(exact_matrix([[2]], "B"), exact_matrix([[1]], "W"))
    assert not found.in_lattice and found.leak is not None
    assert (found.leak.functional, found.leak.modulus, found.leak.shift) == ((1,), 2, Fraction(1))


def test_coprime_columns_span_the_integers() -> None:
    # 2ℤ + 3ℤ = ℤ: every integer shift is reachable (u = (−1, 1) for shift 1), so there is no leak
    found = lattice_audit(exact_matrix([[2, 3]], "B"), exact_matrix([[1]], "W"))
    assert found.in_lattice and found.leak is None and found.integer_shifts is None  # B has a kernel


def test_rational_noise_matrices_are_scaled_to_the_integers() -> None:
    # B = 1/2: the lattice is ½ℤ, which contains the shift 1 (u = 2)
    found = lattice_audit(exact_matrix([["1/2"]], "B"), exact_matrix([[1]], "W"))
    assert found.in_lattice and found.integer_shifts == (((1,), (2,)),)
    # B = 2/3: the lattice (2/3)ℤ does not contain 1; the functional 2·y mod 4... any valid witness will do
    leak = lattice_audit(exact_matrix([["2/3"]], "B"), exact_matrix([[1]], "W")).leak
    assert leak is not None
    for z in range(-20, 21):  # the residue of the noise alone is 0, that of the shift is not
        assert leak.residue([Fraction(2, 3) * z]) == 0
    assert leak.residue([1]) == leak.shift != 0


def test_substitution_differences() -> None:
    assert neighbouring_differences(3, "substitution") == [(1, -1, 0), (1, 0, -1), (0, 1, -1)]
    # y = (x0 + x1, x0 − x1) + 2z: x0 + x1 ≡ x0 − x1 (mod 2), so a substitution e0 − e1 shifts (0, 2): reachable
    found = lattice_audit(exact_matrix([[2, 0], [0, 2]], "B"), exact_matrix([[1, 1], [1, -1]], "W"), "substitution")
    assert found.in_lattice
    assert not lattice_audit(exact_matrix([[2, 0], [0, 2]], "B"), exact_matrix([[1, 1], [1, -1]], "W")).in_lattice


def test_the_parity_leak_counter_is_caught_and_decoded_on_every_draw() -> None:
    verdict = audit_linear_noise(parity_leak_kary.noise_matrix(), WORKLOAD, "discrete-laplace",
                                 parity_leak_kary.noise_scale())
    assert not verdict.private and verdict.verdict(1) == "fails" and verdict.verdict() == "fails"
    leak = verdict.lattice_leak
    assert leak is not None and leak.modulus >= 2
    generator = random.Random(5)
    changed = leak.difference.index(1)
    for _ in range(200):
        x = [generator.randrange(2) for _ in range(parity_leak_kary.HORIZON)]
        neighbour = list(x)
        neighbour[changed] += 1
        draws = [generator.randrange(-50, 51) for _ in range(parity_leak_kary.HORIZON)]
        noise = parity_leak_kary.release_noise(draws)
        prefix = [sum(x[: t + 1]) for t in range(len(x))]
        prefix_neighbour = [sum(neighbour[: t + 1]) for t in range(len(x))]
        y = [c + e for c, e in zip(prefix, noise)]
        y_neighbour = [c + e for c, e in zip(prefix_neighbour, noise)]
        assert (leak.residue(y_neighbour) - leak.residue(y)) % leak.modulus == leak.shift


def test_the_same_matrix_with_continuous_noise_is_private() -> None:
    # why the lattice test is needed: the linear (continuous) audit alone calls the faulty counter private
    verdict = audit_linear_noise(parity_leak_kary.noise_matrix(), WORKLOAD, "laplace", parity_leak_kary.noise_scale())
    assert verdict.private and verdict.epsilon == Fraction(1, 2)


def test_the_corrected_integer_counter_gets_its_exact_epsilon() -> None:
    scale = correct_integer_kary.noise_scale()
    verdict = audit_linear_noise(correct_integer_kary.noise_matrix(), WORKLOAD, "discrete-laplace", scale)
    assert verdict.private and verdict.epsilon_exact
    assert verdict.epsilon == correct_integer_kary.CLAIMED_EPSILON  # h/b with b = h/ε
    assert verdict.verdict(1) == "holds" and verdict.verdict("1/2") == "fails"
    gaussian = audit_linear_noise(correct_integer_kary.noise_matrix(), WORKLOAD, "discrete-gaussian", 3)
    assert gaussian.rho == Fraction(correct_integer_kary.HEIGHT, 2 * 9)  # ‖u‖² = h for a 0/1 strategy column
    assert gaussian.verdict(1) == "fails"  # discrete Gaussian noise is never pure ε-DP


def _write(path, rows) -> str:  # type: ignore[no-untyped-def]
    path.write_text(json.dumps([[str(v) for v in row] for row in rows]), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("module", "noise", "claim", "expected"),
    [
        (parity_leak_kary, "discrete-laplace", ["--epsilon", "1"], "fails"),
        (correct_integer_kary, "discrete-laplace", ["--epsilon", "1"], "holds"),
        (correct_integer_kary, "discrete-laplace", ["--epsilon", "1/2"], "fails"),
        (parity_leak_kary, "laplace", [], "holds"),
        (correct_integer_kary, "discrete-gaussian", ["--epsilon", "1", "--delta", "1e-6"], "inconclusive"),
    ],
)
def test_command_line_verdicts_and_exit_codes(tmp_path, capsys, module, noise, claim, expected) -> None:  # type: ignore[no-untyped-def]
    noise_file = _write(tmp_path / "B.json", module.noise_matrix())
    workload_file = _write(tmp_path / "W.json", WORKLOAD)
    status = main(["audit", "linear-noise", "--noise-matrix", noise_file, "--workload", workload_file, "--noise", noise,
                   "--scale", str(module.noise_scale()), *claim, "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["verdict"] == expected
    assert status == EXIT_STATUS[expected] == printed["exit_status"]
    if expected == "fails" and module is parity_leak_kary:
        assert printed["witness"]["modulus"] == 2


def test_calibration_audit_exit_codes(capsys) -> None:  # type: ignore[no-untyped-def]
    fails = ["audit", "calibration", "--mechanism", "gaussian", "--sigma", "3", "--sensitivity-squared", "1",
             "--epsilon", "1", "--delta", "1e-5", "--json"]
    assert main(fails) == 1 and json.loads(capsys.readouterr().out)["verdict"] == "fails"
    holds = [*fails[:5], "4", *fails[6:]]
    assert main(holds) == 0 and json.loads(capsys.readouterr().out)["verdict"] == "holds"

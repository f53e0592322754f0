"""Every single decimal a command prints for a certified (or exact, non-terminating) value is rounded in the safe
direction it names, and every such decimal names one.

The check reads the decimal and the certified enclosure (or exact rational) from the command's own JSON and
compares them: ``"rounded": "up"`` needs decimal >= the enclosure's upper end, ``"down"`` decimal <= its lower
end. Nothing here trusts the printed decimal itself. Which direction is the safe one for each quantity (an ε or
δ achieved, a sufficient σ: up; a largest admissible ρ: down) is pinned separately, per command, from what the
quantity is.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import mpmath
import pytest

from reference.cli.main import main

#: A string that reads as a decimal with a fractional part or an exponent (an exact integer or "p/q" does not).
DECIMAL = re.compile(r"^-?\d+(\.\d*)?(e[+-]\d+)?$")
#: Keys whose values are random draws, not certified values (no direction applies).
RANDOM_DRAWS = frozenset({"noisy_prefix_counts", "values"})

COMMANDS: dict[str, list[str]] = {
    "calibrate laplace-l2": ["calibrate", "laplace-l2", "--l1", "100", "--l2", "10", "--scale", "200",
                             "--delta", "1e-10"],
    "calibrate laplace-l2 --vectors": ["calibrate", "laplace-l2", "--l1", "3", "--l2-squared", "3", "--scale",
                                       "5", "--delta", "1e-6", "--vectors", "1,1,1"],
    "calibrate cascade": ["calibrate", "cascade", "--depth", "3", "--epsilon", "1/2", "--delta", "1e-6"],
    "calibrate cascade substitution": ["calibrate", "cascade", "--depth", "2", "--epsilon", "1/3", "--delta",
                                       "1e-5", "--neighbours", "substitution"],
    "calibrate gaussian": ["calibrate", "gaussian", "--sensitivity", "1", "--epsilon", "1/3", "--delta", "1e-5"],
    "calibrate inftda": ["calibrate", "inftda", "--attributes", "3", "--rho", "1/7", "--delta", "1e-6"],
    "calibrate laplace": ["calibrate", "laplace", "--l1", "3", "--epsilon", "7/10"],
    "calibrate zcdp --rho": ["calibrate", "zcdp", "--rho", "1/7", "--delta", "1e-6"],
    "calibrate zcdp --epsilon": ["calibrate", "zcdp", "--epsilon", "1/3", "--delta", "1e-6"],
    "calibrate laplace-l2-scale": ["calibrate", "laplace-l2-scale", "--l2", "3", "--epsilon", "1/3", "--delta",
                                   "1e-6"],
    "audit calibration gaussian": ["audit", "calibration", "--mechanism", "gaussian", "--sigma", "3",
                                   "--sensitivity-squared", "1", "--epsilon", "1/2", "--delta", "1e-3"],
    "audit calibration laplace": ["audit", "calibration", "--mechanism", "laplace", "--scale", "7/3", "--epsilon",
                                  "1/2", "--delta", "1e-3", "--vectors", "1,1;2,0"],
    "audit calibration laplace-l2": ["audit", "calibration", "--mechanism", "laplace-l2", "--scale", "9", "--l1",
                                     "4", "--sensitivity-squared", "4", "--epsilon", "1", "--delta", "1e-6"],
    "audit calibration discrete-gaussian": ["audit", "calibration", "--mechanism", "discrete-gaussian",
                                            "--sigma-squared", "7/3", "--sensitivity", "1", "--epsilon", "1",
                                            "--delta", "1e-3"],
    "audit linear-noise gaussian": ["audit", "linear-noise", "--noise-matrix", "{noise}", "--workload", "{workload}",
                                    "--noise", "gaussian", "--scale", "3", "--epsilon", "1/2", "--delta", "1e-3"],
    "kary mse": ["kary", "mse", "--arity", "3", "--horizon", "10"],
    "kary mse no subtraction": ["kary", "mse", "--arity", "5", "--horizon", "7", "--no-subtraction"],
    "kary digits": ["kary", "digits", "--arity", "3", "--value", "7", "--width", "3"],
    "cascade ranges": ["cascade", "ranges", "--depth", "2"],
    "cascade matrix": ["cascade", "matrix", "--depth", "1"],
    "inftda intopt": ["inftda", "intopt", "--values", "-5,-5", "--total", "1"],
}

#: The safe direction of each quantity, from what it is (not from the code): achieved ε and δ and sufficient
#: noise up; a largest admissible ρ, a noise-to-spare ratio, the a of Lemma 5.5 (scale = Δ2/a) down.
EXPECTED_DIRECTIONS: dict[str, dict[str, str]] = {
    "calibrate laplace-l2": {"epsilon": "up", "epsilon_enclosure": "up", "epsilon_l2": "up"},
    "calibrate cascade": {"sigma_paper": "up", "sigma_exact": "up", "delta_at_sigma": "up",
                          "delta_at_sigma_below": "down"},
    "calibrate gaussian": {"sigma_exact": "up", "delta_at_sigma": "up"},
    "calibrate inftda": {"epsilon": "up"},
    "calibrate zcdp --rho": {"epsilon_simple": "up", "epsilon_tight": "up"},
    "calibrate zcdp --epsilon": {"rho_simple": "down", "rho_tight": "down"},
    "calibrate laplace-l2-scale": {"a": "down", "scale": "up", "scale_interval": "up"},
    "audit calibration gaussian": {"delta_at_epsilon": "up", "epsilon_at_delta": "up", "noise_ratio": "down"},
    "audit calibration laplace": {"delta_at_epsilon": "up", "epsilon_at_delta": "up", "noise_ratio": "down",
                                  "scale": "up"},
    "kary mse": {"mse_times_epsilon_squared_decimal": "up"},
    "audit linear-noise gaussian": {"delta_at_epsilon": "up"},
}


@pytest.fixture(scope="module")
def matrix_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The noise and workload matrices the linear-noise audit reads (an identity 2 x 2 and a lower-triangular)."""
    folder = tmp_path_factory.mktemp("matrices")
    (folder / "noise.json").write_text("[[1, 0], [1, 1]]", encoding="utf-8")
    (folder / "workload.json").write_text("[[1, 0], [1, 1]]", encoding="utf-8")
    return {"noise": str(folder / "noise.json"), "workload": str(folder / "workload.json")}


def _run(capsys: pytest.CaptureFixture[str], argv: list[str], as_json: bool) -> str:
    # an audit whose claim fails exits 1 and still prints its values
    assert main([*argv, "--json"] if as_json else argv) in ((0, 1) if argv[0] == "audit" else (0,))
    return capsys.readouterr().out


def _enclosure(siblings: dict[str, Any], key: str) -> tuple[Fraction, Fraction] | None:
    """The certified value a flat decimal field ``key`` prints, from its sibling fields."""
    if key.startswith("recommended_") and isinstance(siblings.get("recommended"), str):
        key = siblings["recommended"].split(",")[0]  # "recommended": "sigma_exact, the smallest σ ..." names it
    for suffix in ("_interval", "_enclosure"):
        if isinstance(siblings.get(key + suffix), dict):
            return Fraction(siblings[key + suffix]["lower"]), Fraction(siblings[key + suffix]["upper"])
    certificate = siblings.get(key + "_certificate")
    if isinstance(certificate, dict):  # an exact σ: (sigma_below, sigma] with sigma certified sufficient
        return Fraction(certificate["sigma_below"]), Fraction(certificate["sigma_rational"])
    for name in (key + "_rational", key.removesuffix("_decimal")):
        if name != key and isinstance(siblings.get(name), str) and not DECIMAL.match(siblings[name]):
            return Fraction(siblings[name]), Fraction(siblings[name])
    if key in ("sigma", "scale") and key + "_below" in siblings:  # an exact σ or scale certificate itself
        return Fraction(siblings[key + "_below"]), Fraction(siblings[key + "_rational"])
    return None


#: Every certified value met by :func:`directed_decimals`: (lower, upper, direction), for the summary lines.
CERTIFIED: list[tuple[Fraction, Fraction, str]] = []


def _check_direction(path: str, decimal: str, rounded: object, lower: Fraction, upper: Fraction) -> str:
    printed = Fraction(decimal)
    CERTIFIED.append((lower, upper, str(rounded)))
    if rounded == "up":
        assert printed >= upper, f"{path}: {decimal} is below the certified upper end {float(upper)!r}"
    elif rounded == "down":
        assert printed <= lower, f"{path}: {decimal} is above the certified lower end {float(lower)!r}"
    else:
        raise AssertionError(f"{path}: decimal {decimal} names no direction (rounded = {rounded!r})")
    return str(rounded)


def directed_decimals(payload: Any, typed: frozenset[str], path: str = "") -> dict[str, str]:
    """Check every decimal in ``payload`` except the ``typed`` inputs it repeats; return {path: direction}."""
    found: dict[str, str] = {}
    if isinstance(payload, list):
        for index, item in enumerate(payload):
            found.update(directed_decimals(item, typed, f"{path}[{index}]"))
        return found
    if not isinstance(payload, dict):
        return found
    if "decimal" in payload and "lower" in payload:
        if payload["decimal"] is not None:
            found[path] = _check_direction(path, payload["decimal"], payload.get("rounded"),
                                           Fraction(payload["lower"]), Fraction(payload["upper"]))
        return found
    for key, value in payload.items():
        where = f"{path}.{key}" if path else key
        if key in RANDOM_DRAWS or (isinstance(value, str) and value in typed):  # a random draw, or an input as typed
            continue
        if isinstance(value, str) and DECIMAL.match(value) and not re.fullmatch(r"-?\d+", value):
            enclosure = _enclosure(payload, key)
            assert enclosure is not None, f"{where}: decimal {value} printed without its certified value"
            found[where] = _check_direction(where, value, payload.get(key + "_rounded"), *enclosure)
        else:
            found.update(directed_decimals(value, typed, where))
    return found


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_printed_decimal_is_rounded_on_its_named_safe_side(
    capsys: pytest.CaptureFixture[str], matrix_files: dict[str, str], name: str
) -> None:
    argv = [part.format(**matrix_files) for part in COMMANDS[name]]
    payload = json.loads(_run(capsys, argv, as_json=True))
    CERTIFIED.clear()
    checked = directed_decimals(payload, frozenset(argv))
    by_leaf: dict[str, set[str]] = {}
    for path, direction in checked.items():
        by_leaf.setdefault(path.rsplit(".", 1)[-1], set()).add(direction)
    for key, direction in EXPECTED_DIRECTIONS.get(name, {}).items():
        assert by_leaf.get(key) == {direction}, f"{name}: {key} should be rounded {direction}, got {by_leaf.get(key)}"
    # the text form prints no decimal the JSON form does not check
    text = _run(capsys, argv, as_json=False)
    # (five or more digits after the point: a statement number such as "Theorem 3.9" is not a value)
    printed = set(re.findall(r"(?<![\w./])-?\d+\.\d{5,}(?:e[+-]\d+)?", text))
    decimals_in_json = set(re.findall(r'"(-?\d+\.\d+(?:e[+-]\d+)?)"', json.dumps(payload)))
    beside_fractions = _fraction_decimals(payload)
    for decimal in printed - decimals_in_json:  # a shorter decimal in a summary sentence, or beside a fraction
        if Fraction(decimal) in beside_fractions:
            continue
        assert any(_near_on_side(Fraction(decimal), *certified) for certified in CERTIFIED), (
            f"{name}: the text prints {decimal}, which is no certified value rounded on its safe side"
        )


def _fraction_decimals(payload: Any) -> set[Fraction]:
    """The decimals the text form may print beside an exact fraction ``p/q`` of the JSON form: 17 significant
    digits rounded to nearest (marked ≈ there, the fraction itself beside it or in the JSON form), or, for an
    enclosure's ends, rounded outward."""
    found: set[Fraction] = set()
    for text in re.findall(r'"(-?\d+/\d+)"', json.dumps(payload)):
        exact = Fraction(text)
        if exact == 0:
            continue
        # 17 significant digits: the scale 10**e with 10**16 <= |exact| / 10**e < 10**17
        exponent = len(str(abs(exact.numerator) // exact.denominator or 1)) - 17 if abs(exact) >= 1 else 0
        while abs(exact) / Fraction(10) ** exponent < 10**16:
            exponent -= 1
        scale = Fraction(10) ** exponent
        scaled = exact / scale
        floor = scaled.numerator // scaled.denominator
        found.update({floor * scale, (floor + 1) * scale, round(scaled) * scale})
    return found


def _near_on_side(printed: Fraction, lower: Fraction, upper: Fraction, rounded: str) -> bool:
    """``printed`` is a rounding of [lower, upper] to >= 15 digits on the named side."""
    tolerance = abs(upper) / 10**14
    if rounded == "up":
        return upper <= printed <= upper + tolerance
    return lower - tolerance <= printed <= lower


def test_the_laplace_l2_epsilon_is_rounded_up_past_the_true_value(capsys: pytest.CaptureFixture[str]) -> None:
    # Theorem 1.3 at Δ1 = 100, Δ2 = 10, λ = 200, δ = 1e-10: ε = min(Δ1/λ, ε') with Proof 5.9's
    # ε' = a(a/2 + sqrt(2 ln(1/δ))), a = Δ2/λ; derived here with mpmath at 60 digits (40 more than printed, so
    # its error cannot reach the comparison)
    payload = json.loads(_run(capsys, COMMANDS["calibrate laplace-l2"], as_json=True))
    assert payload["epsilon_rounded"] == "up"
    with mpmath.workdps(60):
        ratio = mpmath.mpf(10) / 200
        true = min(mpmath.mpf(1) / 2, ratio * (ratio / 2 + mpmath.sqrt(2 * mpmath.log(mpmath.mpf(10) ** 10))))
        printed = mpmath.mpf(payload["epsilon"])
        assert printed >= true  # the nearest 20-digit decimal, ...58989, lies below the true ε
        assert printed - true < mpmath.mpf(10) ** -20

"""A privacy claim in the user's own terms, and the one rule that decides it against a certified value.

A :class:`Claim` is one of

* ``pure``: ε-DP (``epsilon``);
* ``approximate``: (ε, δ)-DP (``epsilon``, ``delta`` > 0);
* ``zcdp``: ρ-zCDP (``rho``: D_α <= αρ for every α > 1);
* ``rdp``: an RDP curve, D_α <= RDP(α) at each listed order (``curve``: ``(α, RDP(α))`` pairs; a function of α
  is read at :data:`DEFAULT_ORDERS`, the orders accountants usually tabulate),

with an optional relative tolerance ``rtol`` (default 0) and, for the record, the neighbouring relation or
participation rule it is made under (``relation``: free text, reported in ``as_json``). Values may be exact
rationals (int, Fraction, decimal strings) or floats; a float is read exactly, as the binary number it is (that
is the value an accountant reports), so a tight float accountant one ulp below the exact value is judged with
``rtol`` rather than rounded away silently.

The rule (:func:`decide_value`): an audit encloses the quantity the claim bounds (ε, δ(ε), ρ, D_α) in
``[lower, upper]`` (equal ends: known exactly). With ``allowed = claimed · (1 + rtol)``:

* ``holds`` when ``upper <= allowed``;
* ``fails`` when ``lower > allowed``;
* ``inconclusive`` otherwise (the enclosure straddles the allowance, or only an upper bound is known and it
  does not reach the claim).

Each decision is a :class:`ClaimCheck` whose line states the claim, the certified value (exact fraction with a
17-digit decimal beside it), the relative excess value/claimed − 1 in scientific notation and the tolerance, so a
rounding excess (1e-16) and a real defect (2e-2) read differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from reference.core.certified import format_directed, format_significant
from reference.core.excess_text import scientific
from reference.core.input_types import RdpCurve
from reference.core.validate import RealLike, fraction_text, to_fraction
from reference.core.verdict import Judged, Verdict

ClaimKind = Literal["pure", "approximate", "zcdp", "rdp"]
#: The orders at which a curve given as a function is read (those accountants commonly tabulate).
DEFAULT_ORDERS: tuple[Fraction, ...] = tuple(
    Fraction(value) for value in
    ("1.25", "1.5", "1.75", "2", "2.5", "3", "4", "5", "6", "8", "10", "12", "16", "20", "32", "64", "128", "256")
)
#: Most (α, RDP(α)) pairs a claim may list.
MAX_ORDERS = 10_000
#: Significant digits of the decimal printed beside an exact fraction.
DECIMAL_DIGITS = 17
#: Longest exact fraction printed beside its decimal (the JSON form always has it exactly).
MAX_FRACTION_TEXT = 80
#: Largest rtol accepted: a tolerance of 100% or more is no claim.
MAX_RTOL = Fraction(1)


def exact_value(value: object, name: str) -> Fraction:
    """An exact rational; a float (or NumPy scalar) is read as the binary number it is, not rounded to a decimal.

    Args:
        value: anything the caller was given (it may come from user code): accepted when an int, Fraction
            or exact decimal/rational string (``"1/3"``, ``"1e-6"``), a finite float or a NumPy scalar (read
            exactly, as the binary number it is); anything else is refused in one line naming ``name``.
        name: the parameter's name, used in the refusal message (e.g. ``"epsilon"``).
    """
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return Fraction(value)
    # NumPy scalars (and 0-d arrays); an array of shape (1,) is not a number (its .item() would be taken silently)
    if hasattr(value, "item") and getattr(value, "shape", ()) == () and not isinstance(value, (int, Fraction, str)):
        return exact_value(value.item(), name)
    return to_fraction(value, name)


def number_text(value: Fraction) -> str:
    """An exact rational with a decimal beside it: ``"1/3 (≈ 0.33333333333333333)"``; an integer or a short
    terminating decimal is printed once.

    Args:
        value: the exact rational to print, a ``Fraction``.
    """
    exact = fraction_text(value)
    if value.denominator == 1 and len(exact) <= DECIMAL_DIGITS:
        return exact
    decimal = format_significant(value, DECIMAL_DIGITS)
    if len(exact) > MAX_FRACTION_TEXT:  # hundreds of digits say nothing to a reader: the decimal alone
        return decimal if Fraction(decimal) == value else f"~{decimal}"
    if Fraction(decimal) == value:  # a terminating decimal: print it as it is, without trailing zeros
        mantissa, _, exponent = decimal.partition("e")
        decimal = (mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa) + (f"e{exponent}" if exponent else "")
        return f"{exact} (= {decimal})"
    return f"{exact} (~ {decimal})"


def claim_number(value: Fraction) -> str:
    """A claimed number as the user wrote it: a short rational as ``p/q``; a float (a binary fraction with a long
    denominator) as its shortest decimal with ``f`` appended (``0.05f``: the float nearest 0.05, read exactly);
    otherwise the fraction with its decimal.

    Args:
        value: the claimed number, a ``Fraction`` (a float claim arrives as its exact binary value).
    """
    exact = fraction_text(value)
    if len(exact) <= 24:
        return exact
    if value.denominator & (value.denominator - 1) == 0 and abs(value) < 2**1000 and Fraction(float(value)) == value:
        return f"{float(value)!r}f"
    decimal = format_significant(value, DECIMAL_DIGITS)
    return decimal if Fraction(decimal) == value else f"~{decimal}"


def rtol_fraction(value: object) -> Fraction:
    """A relative tolerance in [0, 1): exact, or a float read exactly (``rtol=1e-12``).

    Args:
        value: anything the caller was given as the relative tolerance (passed through from :func:`claim`):
            accepted when an exact rational or a finite float, read exactly by :func:`exact_value`; must lie
            in [0, 1).
    """
    tolerance = exact_value(value, "rtol")
    if not 0 <= tolerance < MAX_RTOL:
        raise ValueError(f"rtol must be in [0, 1), got {format_significant(tolerance, 6)}")
    return tolerance


def rdp_points(rdp: object) -> tuple[tuple[Fraction, Fraction], ...]:
    """The claimed curve as exact ``(α, RDP(α))`` pairs, α > 1 and RDP(α) >= 0; a function of α is read at
    :data:`DEFAULT_ORDERS` (called with a ``float`` α, the type accountants expect).

    Args:
        rdp: anything the caller was given as the claimed curve (passed through from :func:`claim`): accepted
            when an iterable of at most 10 000 pairs ``(α, RDP(α))`` with α > 1 and RDP(α) >= 0, each number as
            :func:`exact_value` accepts, or a function of α, read at :data:`DEFAULT_ORDERS`.
    """
    if callable(rdp):
        from reference.core.user_code import UserFunction

        function: Callable[[float], object] = rdp
        # the accountant's code: whatever it raises is one line naming it, within the per-call limits
        with UserFunction(function, role="rdp") as guarded:
            pairs: list[tuple[object, object]] = [(order, guarded(float(order))) for order in DEFAULT_ORDERS]
    elif isinstance(rdp, (str, bytes)) or not hasattr(rdp, "__iter__"):
        raise TypeError("rdp must be a list of (alpha, RDP(alpha)) pairs or a function of alpha")
    else:
        pairs = []
        iterable: Iterable[Any] = rdp
        for index, pair in enumerate(iterable):
            if index >= MAX_ORDERS:
                raise ValueError(f"rdp: at most {MAX_ORDERS} (alpha, RDP(alpha)) pairs")
            if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise TypeError(f"rdp[{index}] must be a pair (alpha, RDP(alpha)), got {pair!r}")
            pairs.append((pair[0], pair[1]))
    if not pairs:
        raise ValueError("rdp must list at least one (alpha, RDP(alpha)) pair")
    points = []
    for order, value in pairs:
        alpha = exact_value(order, "rdp order alpha")
        bound = exact_value(value, f"rdp value at alpha = {fraction_text(alpha)}")
        if alpha <= 1:
            raise ValueError(f"rdp: every order alpha must be > 1, got {fraction_text(alpha)}")
        if bound < 0:
            raise ValueError(f"rdp: RDP(alpha) must be >= 0, got {fraction_text(bound)} at alpha = {fraction_text(alpha)}")
        points.append((alpha, bound))
    return tuple(points)


def parse_rdp_text(text: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """The command-line form of a curve: ``alpha:value`` pairs separated by commas, e.g. ``2:0.5,4:1``.

    Args:
        text: the command-line curve, ``alpha:value`` pairs separated by commas (``"2:0.5,4:1"``), each number
            an exact rational as :func:`reference.core.validate.to_fraction` reads it.
    """
    pairs = []
    for item in text.split(","):
        order, colon, value = item.partition(":")
        if not colon:
            raise ValueError(f"rdp must be alpha:value pairs separated by commas (e.g. 2:0.5,4:1), got {text!r}")
        pairs.append((to_fraction(order.strip(), "rdp order"), to_fraction(value.strip(), "rdp value")))
    return rdp_points(pairs)


@dataclass(frozen=True)
class Claim:
    """One privacy claim (see the module docstring); build it with :func:`claim`."""

    kind: ClaimKind
    epsilon: Fraction | None = None
    delta: Fraction = Fraction(0)
    rho: Fraction | None = None
    curve: tuple[tuple[Fraction, Fraction], ...] = ()
    rtol: Fraction = Fraction(0)
    relation: str | None = None

    def text(self) -> str:
        """The claim as a user states it: ``"1/2-DP"``, ``"(1, 1/100000)-DP"``, ``"1/8-zCDP"``, ``"0.05f-zCDP"``
        (a float, read exactly), ``"RDP curve at 3 orders"``."""
        if self.kind == "pure":
            assert self.epsilon is not None
            return f"{claim_number(self.epsilon)}-DP"
        if self.kind == "approximate":
            assert self.epsilon is not None
            return f"({claim_number(self.epsilon)}, {claim_number(self.delta)})-DP"
        if self.kind == "zcdp":
            assert self.rho is not None
            return f"{claim_number(self.rho)}-zCDP"
        return f"RDP curve at {len(self.curve)} order{'' if len(self.curve) == 1 else 's'}"

    def tolerance_text(self) -> str:
        return f"rtol = {scientific(self.rtol, upward=True)}" if self.rtol else "rtol = 0"

    def allowed(self, claimed: Fraction) -> Fraction:
        """The largest value a claimed bound accepts: claimed · (1 + rtol).

        Args:
            claimed: the claimed bound (ε, δ, ρ or RDP(α)), an exact ``Fraction``.
        """
        return claimed * (1 + self.rtol)

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text(),
            "epsilon": None if self.epsilon is None else fraction_text(self.epsilon),
            "delta": fraction_text(self.delta) if self.kind == "approximate" else None,
            "rho": None if self.rho is None else fraction_text(self.rho),
            "rdp": [[fraction_text(alpha), fraction_text(value)] for alpha, value in self.curve] or None,
            "rtol": fraction_text(self.rtol),
            "relation": self.relation,
        }


def claim(
    *,
    epsilon: RealLike | None = None,
    delta: RealLike | None = None,
    rho: RealLike | None = None,
    rdp: RdpCurve | None = None,
    rtol: RealLike = 0,
    relation: str | None = None,
) -> Claim:
    """The one claim stated: ``epsilon`` (with ``delta`` > 0 for (ε, δ)-DP; ``delta`` 0 or None: pure ε-DP),
    ``rho`` (zCDP) or ``rdp`` (a curve: pairs or a function of α); ``rtol`` in [0, 1).

    Args:
        epsilon: ε > 0 of a pure ε-DP or, with ``delta``, an (ε, δ)-DP claim; an exact rational or a float (read
            exactly); None (default) when the claim is ``rho`` or ``rdp``.
        delta: δ in [0, 1) of an (ε, δ)-DP claim, given only with ``epsilon``; 0 or None (default) makes the
            claim pure ε-DP. Exact rational or float, read exactly.
        rho: ρ > 0 of a ρ-zCDP claim (D_α <= αρ for every α > 1); an exact rational or a float (read exactly);
            None (default) otherwise.
        rdp: an RDP curve claim: ``(α, RDP(α))`` pairs or a function of α (see :func:`rdp_points`); None
            (default) otherwise. Exactly one of ``epsilon``, ``rho`` and ``rdp`` is given.
        rtol: the relative tolerance in [0, 1) (default 0): a certified value up to claimed · (1 + rtol) holds;
            an exact rational or a float (``1e-12``, read exactly).
        relation: the neighbouring relation or participation rule the claim is made under, free text kept for
            the record (reported in ``as_json``, never used to decide); None (default) when unstated.
    """
    if sum(value is not None for value in (epsilon, rho, rdp)) != 1:
        raise ValueError("state exactly one claim: epsilon (with delta), rho or rdp")
    if delta is not None and epsilon is None:
        raise ValueError("delta states a claim together with epsilon")
    tolerance = rtol_fraction(rtol)
    if epsilon is not None:
        eps = exact_value(epsilon, "epsilon")
        if eps <= 0:
            raise ValueError(f"epsilon must be > 0, got {fraction_text(eps)}")
        target = Fraction(0) if delta is None else exact_value(delta, "delta")
        if not 0 <= target < 1:
            raise ValueError(f"delta must be in [0, 1), got {fraction_text(target)}")
        kind: ClaimKind = "approximate" if target else "pure"
        return Claim(kind, epsilon=eps, delta=target, rtol=tolerance, relation=relation)
    if rho is not None:
        budget = exact_value(rho, "rho")
        if budget <= 0:
            raise ValueError(f"rho must be > 0, got {fraction_text(budget)}")
        return Claim("zcdp", rho=budget, rtol=tolerance, relation=relation)
    return Claim("rdp", curve=rdp_points(rdp), rtol=tolerance, relation=relation)


def _value_text(lower: Fraction | None, upper: Fraction | None) -> str:
    """The certified value: exact (with its decimal), an enclosure printed outward with the digits that show
    its width, or a one-sided bound."""
    if lower is not None and lower == upper:
        return "= " + number_text(lower)
    if upper is None and lower is None:
        return "unknown"
    if lower is None:
        assert upper is not None
        return "<= " + number_text(upper)
    if upper is None:
        return ">= " + number_text(lower)
    return f"in [{format_directed(lower, DECIMAL_DIGITS, upward=False)}, {format_directed(upper, DECIMAL_DIGITS, upward=True)}]"


@dataclass(frozen=True)
class ClaimCheck(Judged):
    """One claimed bound decided by :func:`decide_value`."""

    claim: Claim
    verdict: Verdict
    #: what is bounded, e.g. "rho", "RDP(alpha = 3)", "delta(epsilon = 1)"
    quantity: str
    claimed: Fraction
    #: the certified enclosure of the quantity (None: no bound on that side)
    lower: Fraction | None
    upper: Fraction | None
    basis: str = ""
    notes: tuple[str, ...] = field(default=())

    def excess_text(self) -> str:
        """value/claimed − 1 in scientific notation (an enclosure's ends rounded outward)."""
        if self.claimed == 0:
            return "the claim is 0" if (self.lower or 0) > 0 else "claimed 0"
        if self.lower is not None and self.lower == self.upper:
            excess = self.lower / self.claimed - 1  # exact: printed toward zero
            return f"relative excess {scientific(excess, upward=excess < 0)}"
        low = None if self.lower is None else scientific(self.lower / self.claimed - 1, upward=False)
        high = None if self.upper is None else scientific(self.upper / self.claimed - 1, upward=True)
        if low is not None and low == high:
            return f"relative excess {low}"
        if high is None:
            return f"relative excess >= {low}"
        if low is None:
            return f"relative excess <= {high}"
        return f"relative excess in [{low}, {high}]"

    def summary(self) -> str:
        note = "".join(f"; {item}" for item in self.notes)
        basis = f" ({self.basis})" if self.basis else ""
        return (f"{self.claim.text()}: {self.verdict} - certified {self.quantity} {_value_text(self.lower, self.upper)}"
                f", claimed {number_text(self.claimed)}, {self.excess_text()}, {self.claim.tolerance_text()}"
                f"{note}{basis}")

    def as_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "summary": self.summary(),
            "claim": self.claim.as_json(),
            "quantity": self.quantity,
            "claimed": fraction_text(self.claimed),
            "certified_lower": None if self.lower is None else fraction_text(self.lower),
            "certified_upper": None if self.upper is None else fraction_text(self.upper),
            "relative_excess": self.excess_text(),
            "rtol": fraction_text(self.claim.rtol),
            "basis": self.basis,
        }


def decide_value(
    claim: Claim,
    *,
    quantity: str,
    claimed: Fraction,
    lower: Fraction | None,
    upper: Fraction | None,
    basis: str = "",
    notes: tuple[str, ...] = (),
) -> ClaimCheck:
    """The one rule: holds iff the certified upper end is <= claimed·(1 + rtol); fails iff the certified lower
    end is above it; otherwise inconclusive (``lower``/``upper`` None: nothing is known on that side).

    Args:
        claim: the claim the bound belongs to (its ``rtol`` sets the allowance), a :class:`Claim`.
        quantity: what is bounded, as the report names it, e.g. ``"rho"``, ``"RDP(alpha = 3)"``,
            ``"delta(epsilon = 1)"``.
        claimed: the claimed value of that quantity, an exact ``Fraction``.
        lower: the certified lower end of the quantity's enclosure, an exact ``Fraction``; None when nothing is
            known below.
        upper: the certified upper end, an exact ``Fraction`` (equal to ``lower`` when known exactly); None when
            only a lower bound is known.
        basis: how the value was certified, a short text appended to the summary line (default empty).
        notes: further remarks appended to the summary line, one string each (default none).
    """
    allowed = claim.allowed(claimed)
    verdict: Verdict
    if upper is not None and upper <= allowed:
        verdict = "holds"
    elif lower is not None and lower > allowed:
        verdict = "fails"
    else:
        verdict = "inconclusive"
    return ClaimCheck(claim, verdict, quantity, claimed, lower, upper, basis, notes)


def combine(checks: Iterable[ClaimCheck]) -> ClaimCheck | None:
    """The decision of a claim made of several bounds (an RDP curve's orders): the first failing check, else the
    first inconclusive one, else the tightest holding one (least slack), or None when there are none.

    Args:
        checks: the decisions of the claim's separate bounds (e.g. one :class:`ClaimCheck` per RDP order), any
            iterable; empty gives None.
    """
    listed = list(checks)
    for wanted in ("fails", "inconclusive"):
        for check in listed:
            if check.verdict == wanted:
                return check
    if not listed:
        return None
    return max(listed, key=lambda check: (check.upper or Fraction(0)) / check.claimed if check.claimed else Fraction(0))


def gaussian_variance(*, sigma: RealLike | None, sigma_squared: RealLike | None) -> Fraction:
    """σ² from exactly one of ``sigma`` (a standard deviation) and ``sigma_squared`` (a variance), each > 0.

    Args:
        sigma: the standard deviation σ > 0 (not σ²); an exact rational or a float (read exactly), or None when
            ``sigma_squared`` is given.
        sigma_squared: the variance σ² > 0 (not σ), as ``sigma`` is read, or None when ``sigma`` is given;
            exactly one of the two.
    """
    if (sigma is None) == (sigma_squared is None):
        raise ValueError("give the noise as exactly one of sigma (a standard deviation) and sigma_squared "
                         "(the variance)")
    name = "sigma" if sigma is not None else "sigma_squared"
    value = exact_value(sigma if sigma is not None else sigma_squared, name)
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {fraction_text(value)}")
    return value * value if sigma is not None else value

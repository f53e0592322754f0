"""The laws a sample audit can be asked about: one frozen value type per law, and the names the command line uses.

Building blocks (one real value each; the parameter names are the project's):

* :class:`Gaussian` — ``N(0, sigma**2)``;
* :class:`Laplace` — Laplace(``scale`` = b), density ``exp(-|x|/b) / (2b)``;
* :class:`DiscreteGaussian` — ``N_Z(0, sigma_squared)``, mass ``∝ exp(-x²/(2σ²))`` on the integers;
* :class:`DiscreteLaplace` — discrete Laplace(``scale`` = t), mass ``∝ exp(-|x|/t)`` on the integers;
* :class:`LinearDesign` — ``X = B z`` with independent draws ``z_j`` of one of the laws above, draw ``j`` at the
  scale times ``sqrt(draw_variances[j])`` (relative variances, default 1).

The project's mechanisms: :class:`Cascade` (Cascade Sampling's leaves at ``depth`` and ``sigma``),
:class:`KaryNoise` (KARY Algorithm 1, 2 or 3's output noise at ``arity`` and ``epsilon``; the horizon is the
samples' width) and :class:`TdaLevel` (InfTDA's per-cell noise at one level: ``N_Z(0, m² d / ρ)``).

:func:`law_from_name` builds a law from the command line's ``--mechanism`` name and its options, so every law
the command line takes is takeable from Python by name as well. One spelling per noise: hyphenated
(``discrete-gaussian``), as on the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from fractions import Fraction
from typing import Literal, TypeAlias, cast, get_args

from reference.core.linalg import Matrix
from reference.core.validate import RationalLike, RealLike, check_depth, to_fraction
from reference.core.validate import positive_fraction as _positive_exact


def positive_fraction(value: RealLike, name: str) -> Fraction:
    """A positive exact rational; a finite float is read exactly (the binary number it is: samples are floats,
    and a float σ given to a sample audit means that number).

    Args:
        value: the number to read: an int, Fraction, finite float (read exactly) or string such as ``"1/3"`` or
            ``"0.25"`` (read exactly); it must be > 0. ``bool``, NaN and ±inf are refused.
        name: the parameter's name, used in the one-line error when ``value`` is refused.

    Returns:
        ``value`` as an exact ``Fraction`` > 0.

    Raises:
        TypeError: ``value`` is not a number of the accepted kinds.
        ValueError: ``value`` is <= 0.
    """
    if isinstance(value, float) and value == value and abs(value) != float("inf"):
        value = Fraction(value)
    return _positive_exact(value, name)

#: The names of the laws (``--mechanism`` on the command line).
LawName = Literal["gaussian", "laplace", "discrete-gaussian", "discrete-laplace", "design", "cascade", "kary",
                  "tda-level"]
LAW_NAMES: tuple[str, ...] = tuple(get_args(LawName))
#: The noise a :class:`LinearDesign` draws (``--noise``).
NoiseName = Literal["gaussian", "laplace", "discrete-gaussian", "discrete-laplace"]


@dataclass(frozen=True)
class Gaussian:
    """``N(0, sigma**2)``."""

    sigma: RealLike  # a Fraction once built

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", positive_fraction(self.sigma, "sigma"))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"Gaussian N(0, sigma^2), sigma {float(self.sigma):.6g}"


@dataclass(frozen=True)
class Laplace:
    """Laplace(b): density ``exp(-|x|/b) / (2b)``, variance ``2 b²``."""

    scale: RealLike  # a Fraction once built

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", positive_fraction(self.scale, "scale"))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"Laplace, scale b {float(self.scale):.6g}"


@dataclass(frozen=True)
class DiscreteGaussian:
    """``N_Z(0, sigma_squared)``: mass ``∝ exp(-x²/(2 σ²))`` on the integers."""

    sigma_squared: RealLike  # a Fraction once built

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma_squared", positive_fraction(self.sigma_squared, "sigma_squared"))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"discrete Gaussian N_Z(0, sigma^2), sigma^2 {float(self.sigma_squared):.6g}"


@dataclass(frozen=True)
class DiscreteLaplace:
    """Discrete Laplace(t): mass ``∝ exp(-|x|/t)`` on the integers."""

    scale: RealLike  # a Fraction once built

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", positive_fraction(self.scale, "scale"))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"discrete Laplace, scale t {float(self.scale):.6g}"


#: A law of one real value.
ScalarLaw: TypeAlias = "Gaussian | Laplace | DiscreteGaussian | DiscreteLaplace"
SCALAR_LAWS = (Gaussian, Laplace, DiscreteGaussian, DiscreteLaplace)


@dataclass(frozen=True)
class LinearDesign:
    """``X = B z``: ``noise_matrix`` B (outputs × draws, exact rationals), independent draws ``z_j`` of ``noise``
    scaled by ``sqrt(draw_variances[j])`` (a relative variance per draw; ``None``: all 1). For discrete noise the
    draw variances must be 1 (a discrete law is not closed under scaling)."""

    noise_matrix: Sequence[Sequence[RealLike]]  # a tuple of tuples of Fractions once built
    noise: ScalarLaw
    draw_variances: Sequence[RealLike] | None = None  # a tuple of Fractions once built

    def __post_init__(self) -> None:
        rows = self.noise_matrix
        if not isinstance(rows, (tuple, list)) or not rows or not all(isinstance(r, (tuple, list)) for r in rows):
            raise ValueError("noise_matrix must be a non-empty matrix (a sequence of rows of exact rationals)")
        width = len(rows[0])
        if width < 1 or any(len(row) != width for row in rows):
            raise ValueError("noise_matrix must be a non-empty matrix with rows of one length")
        matrix = tuple(tuple(to_fraction(entry, "noise_matrix entry") for entry in row) for row in rows)
        object.__setattr__(self, "noise_matrix", matrix)
        if not isinstance(self.noise, SCALAR_LAWS):
            raise TypeError("noise must be a Gaussian, Laplace, DiscreteGaussian or DiscreteLaplace law")
        if self.draw_variances is not None:
            factors = tuple(positive_fraction(v, "draw_variances entry") for v in self.draw_variances)
            if len(factors) != width:
                raise ValueError(f"draw_variances must have one entry per draw ({width}), got {len(factors)}")
            if isinstance(self.noise, (DiscreteGaussian, DiscreteLaplace)) and any(f != 1 for f in factors):
                raise ValueError("draw_variances must be all 1 for discrete noise (a discrete law does not scale)")
            object.__setattr__(self, "draw_variances", factors)

    @property
    def exact_matrix(self) -> Matrix:
        """B as exact rationals."""
        return cast(Matrix, self.noise_matrix)

    @property
    def exact_variances(self) -> tuple[Fraction, ...] | None:
        """The relative draw variances as exact rationals (``None``: all 1)."""
        return cast("tuple[Fraction, ...] | None", self.draw_variances)

    @property
    def outputs(self) -> int:
        """Values per run."""
        return len(self.noise_matrix)

    @property
    def draws(self) -> int:
        """Draws per run."""
        return len(self.noise_matrix[0])

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"linear design B z ({self.outputs} outputs, {self.draws} draws of {self.noise.name})"


@dataclass(frozen=True)
class Cascade:
    """Cascade Sampling's ``2**depth`` leaves: ``N(0, sigma² C_depth)``."""

    depth: int
    sigma: RealLike  # a Fraction once built

    def __post_init__(self) -> None:
        object.__setattr__(self, "depth", check_depth(self.depth, "depth"))
        object.__setattr__(self, "sigma", positive_fraction(self.sigma, "sigma"))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"cascade samples, depth {self.depth}, sigma {float(self.sigma):.6g}"


@dataclass(frozen=True)
class KaryNoise:
    """KARY Algorithm ``algorithm``'s output noise (noisy prefix count minus the true one) at ``arity`` and
    ``epsilon``: Laplace(h/ε) draws through the algorithm's noise matrix; the horizon is the samples' width."""

    arity: int
    epsilon: RealLike  # a Fraction once built
    algorithm: int = 2

    def __post_init__(self) -> None:
        from reference.kary.digits import check_arity

        if self.algorithm not in (1, 2, 3):
            raise ValueError(f"algorithm must be 1, 2 or 3, got {self.algorithm!r}")
        object.__setattr__(self, "arity", check_arity(self.arity, parity="odd" if self.algorithm != 1 else "any",
                                                      needed_by=f"Algorithm {self.algorithm}'s output noise"))
        object.__setattr__(self, "epsilon", positive_fraction(self.epsilon, "epsilon"))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"KARY Algorithm {self.algorithm} noise, arity {self.arity}, epsilon {float(self.epsilon):.6g}"


@dataclass(frozen=True)
class TdaLevel:
    """InfTDA's per-cell noise at one level: ``N_Z(0, σ²)`` with ``σ² = m² d / ρ`` (``attributes`` = d,
    ``contributions`` = m)."""

    attributes: int
    _: KW_ONLY  # two exact numbers: by name (the project's rule)
    rho: RealLike  # a Fraction once built
    contributions: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "rho", positive_fraction(self.rho, "rho"))
        for field, value in (("attributes", self.attributes), ("contributions", self.contributions)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{field} must be a positive integer, got {value!r}")

    def cell_law(self) -> DiscreteGaussian:
        """The discrete Gaussian every cell's noise has."""
        from reference.tda.calibration import inftda_sigma_squared

        return DiscreteGaussian(inftda_sigma_squared(self.attributes, rho=Fraction(self.rho), contributions=self.contributions))

    @property
    def name(self) -> str:
        """How the law is named in a report."""
        return f"TDA level noise ({self.cell_law().name})"


#: Every law a sample audit takes.
Law: TypeAlias = "Gaussian | Laplace | DiscreteGaussian | DiscreteLaplace | LinearDesign | Cascade | KaryNoise | TdaLevel"
LAWS = (*SCALAR_LAWS, LinearDesign, Cascade, KaryNoise, TdaLevel)


def check_law(law: object) -> Law:
    """``law`` if it is one of the law types, else ``TypeError`` naming them.

    Args:
        law: whatever the caller passed as a law: accepted when it is a :class:`Gaussian`, :class:`Laplace`,
            :class:`DiscreteGaussian`, :class:`DiscreteLaplace`, :class:`LinearDesign`, :class:`Cascade`,
            :class:`KaryNoise` or :class:`TdaLevel`.

    Returns:
        ``law``, typed as a :data:`Law`.

    Raises:
        TypeError: ``law`` is none of the law types.
    """
    if not isinstance(law, LAWS):
        raise TypeError("law must be one of Gaussian, Laplace, DiscreteGaussian, DiscreteLaplace, LinearDesign, "
                        f"Cascade, KaryNoise, TdaLevel (reference.audit.samples.laws), got {type(law).__name__}")
    return law


def noise_law(noise: str, scale: RealLike) -> ScalarLaw:
    """The scalar law a ``noise`` name and its ``scale`` (σ for gaussian, b or t for the Laplace laws, σ² for
    discrete-gaussian) describe.

    Args:
        noise: the noise's name (``--noise`` on the command line): one of :data:`NoiseName`, ``"gaussian"``,
            ``"laplace"``, ``"discrete-gaussian"`` or ``"discrete-laplace"``.
        scale: the law's one parameter, > 0: the standard deviation σ for ``"gaussian"``, the scale b (or t) for
            ``"laplace"`` (``"discrete-laplace"``), the variance σ² for ``"discrete-gaussian"``; an int, Fraction,
            string such as ``"1/3"`` or finite float (read exactly).

    Returns:
        The law: :class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian` or :class:`DiscreteLaplace`.

    Raises:
        ValueError: ``noise`` is not one of the four names, or ``scale`` is <= 0.
        TypeError: ``scale`` is not a number of the accepted kinds.
    """
    if noise == "gaussian":
        return Gaussian(scale)
    if noise == "laplace":
        return Laplace(scale)
    if noise == "discrete-gaussian":
        return DiscreteGaussian(scale)
    if noise == "discrete-laplace":
        return DiscreteLaplace(scale)
    raise ValueError(f"noise must be one of {', '.join(get_args(NoiseName))}, got {noise!r}")


def law_from_name(
    mechanism: LawName, *, epsilon: RealLike | None = None, rho: RealLike | None = None, sigma: RealLike | None = None,
    sigma_squared: RealLike | None = None, scale: RealLike | None = None, depth: int | None = None,
    arity: int | None = None, algorithm: int = 2, noise_matrix: Matrix | None = None, noise: NoiseName | None = None,
    draw_variances: Sequence[RationalLike] | None = None, attributes: int | None = None, contributions: int = 1,
) -> Law:
    """The law named ``mechanism`` (the command line's ``--mechanism``) with its parameters; a missing parameter
    or one of another law is refused with one line naming it.

    Numbers (``epsilon``, ``rho``, ``sigma``, ``sigma_squared``, ``scale``) are ints, Fractions, strings such as
    ``"1/3"`` or finite floats (a float is read exactly: the binary number it is). ``None`` means "not given".

    Args:
        mechanism: the law's name, one of :data:`LawName`: ``"gaussian"``, ``"laplace"``, ``"discrete-gaussian"``,
            ``"discrete-laplace"``, ``"design"``, ``"cascade"``, ``"kary"`` or ``"tda-level"``.
        epsilon: ε > 0 of the KARY mechanism (``"kary"`` only; its Laplace draws have scale h/ε).
        rho: the zCDP budget ρ > 0 of one InfTDA level (``"tda-level"`` only).
        sigma: the standard deviation σ > 0 (``"gaussian"``, and the cascade's σ for ``"cascade"``).
        sigma_squared: the variance σ² > 0 of ``N_Z(0, σ²)`` (``"discrete-gaussian"`` only).
        scale: the Laplace scale b > 0 (``"laplace"``), t > 0 (``"discrete-laplace"``), or the noise parameter of
            a ``"design"``'s draws in the convention of :func:`noise_law` (σ, b, t or σ²).
        depth: the cascade's depth, an integer >= 0 (``"cascade"`` only; 2**depth leaves per run).
        arity: the KARY tree's arity, an integer >= 2, odd for Algorithms 2 and 3 (``"kary"`` only).
        algorithm: KARY Algorithm 1, 2 or 3 (``"kary"`` only; default 2).
        noise_matrix: B of ``X = B z`` (``"design"`` only), outputs × draws, exact rationals.
        noise: the name of a ``"design"``'s draw law, one of :data:`NoiseName` (``"design"`` only).
        draw_variances: a ``"design"``'s relative variance per draw (one per column of ``noise_matrix``, each > 0,
            exact: int, Fraction or str, not float; ``None``: all 1; must be all 1 for discrete noise).
        attributes: d, the number of attributes of the InfTDA hierarchy, an integer >= 1 (``"tda-level"`` only).
        contributions: m, the contributions per individual, an integer >= 1 (``"tda-level"`` only; default 1).

    Returns:
        The law: one of :class:`Gaussian`, :class:`Laplace`, :class:`DiscreteGaussian`, :class:`DiscreteLaplace`,
        :class:`LinearDesign`, :class:`Cascade`, :class:`KaryNoise`, :class:`TdaLevel`.

    Raises:
        ValueError: ``mechanism`` is not a law's name, a parameter it needs is missing, one of another law is
            given, or a value is out of range.
        TypeError: a value is of a kind the law refuses.
    """
    needs: dict[str, tuple[str, ...]] = {
        "gaussian": ("sigma",), "laplace": ("scale",), "discrete-gaussian": ("sigma_squared",),
        "discrete-laplace": ("scale",), "design": ("noise_matrix", "noise", "scale"), "cascade": ("depth", "sigma"),
        "kary": ("arity", "epsilon"), "tda-level": ("attributes", "rho"),
    }
    optional = {"design": ("draw_variances",), "kary": ("algorithm",), "tda-level": ("contributions",)}
    given = {"sigma": sigma, "scale": scale, "sigma_squared": sigma_squared, "depth": depth, "arity": arity,
             "epsilon": epsilon, "noise_matrix": noise_matrix, "noise": noise, "draw_variances": draw_variances,
             "attributes": attributes, "rho": rho}
    if mechanism not in needs:
        raise ValueError(f"mechanism must be one of {', '.join(LAW_NAMES)}, got {mechanism!r}")
    name = str(mechanism)
    missing = [key for key in needs[name] if given[key] is None]
    if missing:
        raise ValueError(f"mechanism {name!r} needs {', '.join(missing)}")
    foreign = [key for key, value in given.items()
               if value is not None and key not in needs[name] + optional.get(name, ())]
    if foreign or (algorithm != 2 and name != "kary") or (contributions != 1 and name != "tda-level"):
        extra = foreign + (["algorithm"] if algorithm != 2 and name != "kary" else []) + (
            ["contributions"] if contributions != 1 and name != "tda-level" else [])
        raise ValueError(f"mechanism {name!r} does not take {', '.join(extra)}")
    if name == "gaussian":
        return Gaussian(sigma)  # type: ignore[arg-type]
    if name in ("laplace", "discrete-laplace", "discrete-gaussian"):
        return noise_law(name, sigma_squared if name == "discrete-gaussian" else scale)  # type: ignore[arg-type]
    if name == "design":
        assert noise_matrix is not None
        variances = None if draw_variances is None else tuple(to_fraction(v, "draw_variances entry")
                                                              for v in draw_variances)
        return LinearDesign(noise_matrix, noise_law(noise, scale), variances)  # type: ignore[arg-type]
    if name == "cascade":
        return Cascade(depth, sigma)  # type: ignore[arg-type]
    if name == "kary":
        return KaryNoise(arity, epsilon, algorithm)  # type: ignore[arg-type]
    return TdaLevel(attributes, rho=rho, contributions=contributions)  # type: ignore[arg-type]

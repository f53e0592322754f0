"""reference: an exact, formally checked reference implementation of three families of DP mechanisms.

Papers (cited by short name and statement number everywhere in this package):

* **CIP** — correlated Gaussian input perturbation with Cascade Sampling (Dharangutte, Gao, Gong, Wang).
* **KARY** — k-ary tree mechanisms with subtraction for continual counting (Andersson, Pagh, Steiner, Torkamani).
* **TDA** — the InfTDA top-down mechanism for hierarchical counts (Boninsegna).

The map (``help(reference)``), bottom layer first; a module imports only its own package and lower layers:

=======================  ==============================================================================
``reference.core``       exact linear algebra, certified reals and the certified bisection, random bits and
                         generators, input validation
``reference.privacy``    paper-independent privacy: Gaussian, Laplace and discrete-Gaussian profiles, zCDP,
                         composition
``reference.samplers``   exact (integer arithmetic on random bits) and fast (numpy) discrete Laplace and
                         Gaussian samplers, certified pmfs, goodness of fit (``fit``)
``reference.cip``        CIP's mechanisms: ``exact/`` and ``numeric/`` twins, ``calibration``, ``mechanism``,
                         ``sensitivity``
``reference.kary``       KARY's mechanisms: ``digits``, ``tree``, ``mse``, ``counters``, ``constants``,
                         ``threshold``
``reference.tda``        TDA's mechanism: ``data``, ``intopt``, ``mechanism``, ``calibration``
``reference.audit``      tools pointed at other people's code: calibration, linear-noise and sampler audits
``reference.testing``    assertions for other projects' test suites, hypothesis strategies
``reference.cli``        the command line (the ``reference`` console script), one module per command group
=======================  ==============================================================================

The verification of the papers (claims registry, cross-checks, proof programs, the report) is a separate
package, ``reference_verification`` (the repository's ``verification/`` folder), installed beside this one. It
imports ``reference``; nothing here imports or names it: it adds the ``report`` command through an entry point.

Conventions (docs/conventions.md): the papers' ``k`` is never a parameter name — ``depth`` (CIP: n = 2**depth leaves),
``arity`` (KARY), ``level`` (TDA), ``horizon`` (stream length T). ``sigma`` is a standard deviation;
Laplace(b) has density exp(−|x|/b)/(2b); the discrete Gaussian's ``sigma_squared`` is a scale, not its variance.
Calibrations name their neighbouring relation, ``"add_remove"`` (one count changes by one) or
``"substitution"`` (one record moves between cells). ``log`` is natural. Leaves are in natural order and tree
nodes are ``(level, position)`` with level 0 the root (arrays of all nodes in level order, node (l, p) at index
2**l − 1 + p); ranges are ``[first, last]``, 0-based, inclusive. Exact inputs are ``int``, ``Fraction`` or
strings such as ``"1/3"`` or ``"1e-6"`` — never ``float``; irrational results are :class:`CertifiedReal`
enclosures. Samplers take a ``numpy.random.Generator`` or an integer seed and document their draw order; the
exact samplers take a :class:`SeededRandomBits` or :class:`SystemRandomBits` source. ``as_json()`` gives a
result's JSON form (rationals as ``"p/q"``, reals as decimal strings).

The entry points are the faces of the subpackages (each subpackage's ``__all__``, listed once there), merged here
in :data:`FACES` order; each module's docstring states its own conventions.
"""

import importlib
import warnings
from typing import TYPE_CHECKING

from reference.core.version import VERSION

if TYPE_CHECKING:  # the type checker reads each subpackage's face; at run time each name is imported on first use
    from reference.audit import *  # noqa: F403
    from reference.cip import *  # noqa: F403
    from reference.core import *  # noqa: F403
    from reference.kary import *  # noqa: F403
    from reference.privacy import *  # noqa: F403
    from reference.samplers import *  # noqa: F403
    from reference.tda import *  # noqa: F403

#: The subpackages whose faces (``__all__``) make the top-level one, bottom layer first; ``reference.testing``
#: (assertions for other projects' tests) and ``reference.cli`` (the command line) are imported by their own name.
FACES = ("core", "privacy", "samplers", "cip", "kary", "tda", "audit")

#: public name -> the subpackage whose face it is on (the subpackages' ``__init__`` are small: besides them this
#: loads only :mod:`reference.core.face`)
_OWNER: dict[str, str] = {
    name: f"reference.{package}" for package in FACES for name in importlib.import_module(f"reference.{package}").__all__
}

#: Old names the README or the docs once used, with the name that replaced them: they still resolve, with a
#: DeprecationWarning, and are not in ``__all__``.
DEPRECATED: dict[str, tuple[str, str, str]] = {
    "check_gaussian": ("reference.privacy.gaussian", "check_gaussian", "reference.audit_gaussian"),
}


def __getattr__(name: str) -> object:
    if name in DEPRECATED:
        module, attribute, replacement = DEPRECATED[name]
        warnings.warn(f"reference.{name} is deprecated: use {replacement} (one verdict function per question)",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), attribute)
    try:
        owner = _OWNER[name]
    except KeyError:
        raise AttributeError(f"module 'reference' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(owner), name)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_OWNER))


__version__ = VERSION

__all__ = ["__version__", *_OWNER]

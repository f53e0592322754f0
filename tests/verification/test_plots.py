"""The report's plots can be read: a title, labelled axes, a legend where there are several series, and the
specific features each plot exists to show. Figures are caught before they are written."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from reference_verification import plots
from reference_verification.core.claims import Budget


@cache
def figures() -> dict[str, Any]:
    """Every plot's figure on the quick budget, by file name (kept open for inspection)."""
    caught: dict[str, Any] = {}

    def catch(figure: Any, directory: Path, name: str, caption: str) -> tuple[str, str]:
        caught[name] = figure
        return name, caption

    original = plots._save
    plots._save = catch
    try:
        plots.make_plots(Path("."), Budget(quick=True))
    finally:
        plots._save = original
    return caught


def _series(axis: Any) -> list[Any]:
    """The labelled series of an axis (lines and bar groups; matplotlib's own '_child' labels excluded)."""
    items = [*axis.get_lines(), *axis.containers]
    return [item for item in items if item.get_label() and not item.get_label().startswith("_")]


NAMES = [
    "node_variance_by_level.png",
    "max_range_variance.png",
    "range_variance_map.png",
    "sigma_paper_vs_exact.png",
    "leading_constant_by_arity.png",
    "kary_mse_by_horizon.png",
    "tda_synthetic_vs_true.png",
    "tda_error_by_level.png",
]


def test_every_plot_is_made() -> None:
    assert sorted(figures()) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_axis_is_labelled(name: str) -> None:
    figure = figures()[name]
    plotted = [axis for axis in figure.axes if axis.get_label() != "<colorbar>"]
    titled = any(axis.get_title() for axis in plotted) or (figure._suptitle is not None)
    assert titled, name
    for axis in plotted:
        assert axis.get_ylabel(), name
        # a shared x axis is labelled once, on the lowest panel
        assert axis.get_xlabel() or any(other.get_xlabel() for other in plotted), name
        if len(_series(axis)) > 1:
            assert axis.get_legend() is not None, name
    for axis in figure.axes:
        if axis.get_label() == "<colorbar>":
            assert axis.get_ylabel(), name


def test_lemma_b5_bound_is_drawn_as_printed() -> None:
    # Lemma B.5: at most 2K − 2 merged nodes; at depth K = 1 that is 0, below the variance 1 of one leaf
    axis = figures()["max_range_variance.png"].axes[0]
    bound = next(line for line in axis.get_lines() if "Lemma B.5" in line.get_label())
    depths, values = list(bound.get_xdata()), list(bound.get_ydata())
    assert values == [2 * depth - 2 for depth in depths] and values[0] == 0
    assert any("fails at depth 1" in text.get_text() for text in axis.texts)


def test_leading_constant_minima_are_tied_to_their_curves() -> None:
    axis = figures()["leading_constant_by_arity.png"].axes[0]
    verticals = [line for line in axis.get_lines() if "minimum" in line.get_label()]
    assert len(verticals) == 3
    curves = [line for line in axis.get_lines() if line.get_label().startswith(("Theorem", "Corollary"))]
    # each minimum line has its curve's colour, and the legend names it
    assert {vertical.get_color() for vertical in verticals} == {curve.get_color() for curve in curves}
    # Theorem 3.7 at k = 2 is (2 − 1)/log2(2)³ = 1, far above the drawn range: it must be marked as cut
    assert any("k = 2: 1.000" in text.get_text() for text in axis.texts)


def test_kary_mse_lines_have_markers() -> None:
    axis = figures()["kary_mse_by_horizon.png"].axes[0]
    assert all(line.get_marker() not in (None, "None", "") for line in _series(axis))


def test_tda_true_and_released_bars_differ() -> None:
    axis = figures()["tda_synthetic_vs_true.png"].axes[0]
    true_bars, released_bars = axis.containers[:2]
    first_true, first_released = true_bars.patches[0], released_bars.patches[0]
    assert first_true.get_hatch() != first_released.get_hatch()
    assert first_true.get_facecolor() != first_released.get_facecolor()


def teardown_module() -> None:
    plt.close("all")

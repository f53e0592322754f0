"""The human layout, the one formatter of every command's output without ``--json``: aligned ``key: value`` lines; exact
fractions with a decimal of 17 significant digits beside them; certified decimals with their rounding direction;
lists of numbers on one line when short, everything else as indented lines; nothing printed as Python would (an
absent value, ``null`` in JSON, is left out; true/false read yes/no).

:func:`~reference.cli.common.emit` prints it for every command run without ``--json``.
"""

from __future__ import annotations

import re
from typing import Any

#: A list or mapping longer than this is summarised ("use --json"): a terminal is not a data format.
MAX_HUMAN_ITEMS = 16
#: Widest one-line list of numbers; a longer list is printed one entry per line.
MAX_LIST_WIDTH = 100
#: Longest exact fraction printed in full beside its decimal (a 130-digit p/q is only noise on a terminal).
MAX_FRACTION_CHARS = 40
#: Significant digits of the decimal printed beside an exact fraction.
FRACTION_DIGITS = 17
_FRACTION = re.compile(r"^(-?\d+)/(\d+)$")
_INTEGER = re.compile(r"^-?\d+$")


def _fraction_decimal(numerator: str, denominator: str) -> str:
    """The decimal of p/q (given as digit strings: a fraction of any length, no int conversion): exact (``= 0.000001``) when it terminates within FRACTION_DIGITS significant digits,
    else rounded to nearest at FRACTION_DIGITS significant digits (``≈ 4.3333333333333333``)."""
    from decimal import Context, Decimal, Inexact

    context = Context(prec=FRACTION_DIGITS, traps=[Inexact])
    try:
        value = context.divide(Decimal(numerator), Decimal(denominator))
        return "= " + _plain_decimal(value)
    except Inexact:
        value = Context(prec=FRACTION_DIGITS).divide(Decimal(numerator), Decimal(denominator))
        return "≈ " + _plain_decimal(value)


def _plain_decimal(value: Any) -> str:
    """A Decimal without an exponent where it stays short (``0.000001``, not ``1E-6``)."""
    text = format(value, "f") if -12 <= value.adjusted() <= 20 else format(value, "e")
    if "." in text and "e" not in text.lower():
        text = text.rstrip("0").rstrip(".")
    return text


def _scalar(value: Any) -> str:
    """One value on one line."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same float
    if isinstance(value, str):
        fraction = _FRACTION.match(value)
        if fraction and fraction.group(2).lstrip("0") not in ("", "1"):
            decimal = _fraction_decimal(fraction.group(1), fraction.group(2))
            if len(value) > MAX_FRACTION_CHARS:
                return f"{decimal} (an exact fraction of {len(value)} characters: use --json)"
            return f"{value} {decimal}"
        if _INTEGER.match(value) and len(value) > MAX_FRACTION_CHARS:  # an exact integer of thousands of digits
            return f"{_fraction_decimal(value, '1')} (an exact integer of {len(value.lstrip('-'))} digits: use --json)"
        return value
    return str(value)


def _certified(value: dict[str, Any]) -> str | None:
    """A certified real's JSON form (``decimal``/``rounded``/``bounds``) on one line, or None if ``value`` is not
    one."""
    if "decimal" in value and value["decimal"] is not None:
        direction = f" (rounded {value['rounded']})" if value.get("rounded") else ""
        return f"{value['decimal']}{direction}"
    if "bounds" in value and isinstance(value["bounds"], str):
        return f"in {value['bounds']} (certified bounds; the enclosure is too wide for 20 digits)"
    lower, upper = value.get("lower"), value.get("upper")
    if isinstance(lower, str) and isinstance(upper, str) and _FRACTION.match(lower) and _FRACTION.match(upper):
        return f"in [{_outward(lower, 'down')}, {_outward(upper, 'up')}] (an enclosure, rounded outward)"
    return None


def _outward(fraction: str, direction: str) -> str:
    """An endpoint p/q as a decimal of FRACTION_DIGITS significant digits rounded away from the enclosure's inside."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

    numerator, denominator = fraction.split("/")  # digit strings into Decimal: no int conversion, any length
    rounding = ROUND_CEILING if direction == "up" else ROUND_FLOOR
    return _plain_decimal(Context(prec=FRACTION_DIGITS, rounding=rounding).divide(Decimal(numerator),
                                                                                  Decimal(denominator)))


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _matrix_lines(rows: list[list[Any]], indent: str) -> list[str]:
    """A small matrix as aligned rows."""
    cells = [[_scalar(entry) if _FRACTION.match(str(entry)) is None else str(entry) for entry in row] for row in rows]
    widths = [max(len(row[column]) for row in cells if column < len(row))
              for column in range(max(len(row) for row in cells))]
    return [indent + "  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in cells]


def _value_lines(value: Any, indent: str) -> tuple[str, list[str]]:
    """How ``value`` is printed after its key: the rest of the key's line, and the indented lines below it."""
    if _is_scalar(value):
        return _scalar(value), []
    if isinstance(value, dict):
        certified = _certified(value)
        if certified is not None:
            return certified, []
        if not value:
            return "none", []
        if len(value) > MAX_HUMAN_ITEMS:
            return f"{len(value)} entries (use --json)", []
        return "", human_lines(value, indent + "  ")
    if not value:
        return "none", []
    if all(_is_scalar(entry) for entry in value):
        if len(value) > MAX_HUMAN_ITEMS:
            return f"{len(value)} values (use --json or --out)", []
        texts = [_scalar(entry) for entry in value]
        if sum(len(text) + 2 for text in texts) <= MAX_LIST_WIDTH and all("," not in text for text in texts):
            return ", ".join(texts), []
        return "", [indent + "  " + text for text in texts]
    if all(isinstance(row, list) and all(_is_scalar(entry) for entry in row) for row in value):
        columns = max(len(row) for row in value)
        if len(value) > MAX_HUMAN_ITEMS // 2 or columns > MAX_HUMAN_ITEMS // 2:
            return f"{len(value)} × {columns} matrix (use --json)", []
        return "", _matrix_lines(value, indent + "  ")
    lines: list[str] = []
    for entry in value[:MAX_HUMAN_ITEMS]:
        if isinstance(entry, dict) and entry:
            block = human_lines(entry, indent + "    ")
            lines.append(indent + "  - " + block[0].lstrip())
            lines.extend(block[1:])
        else:
            first, below = _value_lines(entry, indent + "  ")
            lines.append(indent + "  - " + first)
            lines.extend(below)
    if len(value) > MAX_HUMAN_ITEMS:
        lines.append(f"{indent}  ... {len(value) - MAX_HUMAN_ITEMS} more (use --json)")
    return "", lines


def human_lines(payload: dict[str, Any], indent: str = "") -> list[str]:
    """The human layout of a JSON-able result: one ``key: value`` line per entry, the values aligned; a nested
    mapping or a list below its key, indented. Entries whose value is absent (``None``) are left out.

    Args:
        payload: a JSON-able result (string keys; values str, int, float, bool, None, lists and mappings, exact
            rationals as ``"p/q"`` strings).
        indent: the text put before each line of this level (nested mappings add two spaces; default none).
    """
    shown = {str(key): value for key, value in payload.items() if value is not None}
    # "x_rounded: up" beside a decimal "x" joins x's line ("x: 8.05... (rounded up)"); alone, it says nothing
    directions = {key[: -len("_rounded")]: shown.pop(key) for key in list(shown)
                  if key.endswith("_rounded") and isinstance(shown[key], str)}
    width = max((len(key) for key in shown), default=0) + 1
    lines: list[str] = []
    for key, value in shown.items():
        first, below = _value_lines(value, indent)
        if key in directions and isinstance(value, str) and "rounded" not in first:
            first = f"{first} (rounded {directions[key]})"
        lines.append(f"{indent}{key + ':':<{width}} {first}".rstrip() if first else f"{indent}{key}:")
        lines.extend(below)
    return lines

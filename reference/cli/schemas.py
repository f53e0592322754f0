"""JSON Schemas (draft 2020-12) of the ``--json`` output of every command.

``output_schema("calibrate gaussian")`` is the schema of ``reference calibrate gaussian ... --json``; the test
suite validates every documented command's output against its schema, and checks that every command of the
parser has one. A schema requires the keys a program reading the output may rely on and types every key it
names; a command may add keys (a later version adds, and never renames or drops, a required key). The shared
forms: an exact rational is a ``"p/q"`` (or integer) string; a number as typed is that or a decimal string; a
certified real is ``{"lower", "upper", "decimal", "rounded", "bounds"}``; a verdict is holds/fails/inconclusive
with the ``exit_status`` it gives (0, 1, 3).
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
RATIONAL: Schema = {"type": "string", "pattern": r"^-?\d+(/\d+)?$"}
DECIMAL: Schema = {"type": "string", "pattern": r"^-?\d+(\.\d*)?([eE][-+]?\d+)?$"}
#: an input repeated as typed: "1/2", "0.5", "1e-6"
NUMBER_TEXT: Schema = {"anyOf": [RATIONAL, DECIMAL]}
ROUNDING: Schema = {"enum": ["up", "down"]}
CERTIFIED: Schema = {
    "type": "object",
    "required": ["lower", "upper", "rounded"],
    "properties": {"lower": RATIONAL, "upper": RATIONAL, "decimal": {"anyOf": [DECIMAL, {"type": "null"}]},
                   "rounded": ROUNDING, "bounds": {"type": "string"}},
}
TEXT: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}
VERDICT: Schema = {"enum": ["holds", "fails", "inconclusive"]}
EXIT_STATUS: Schema = {"enum": [0, 1, 3]}


def nullable(schema: Schema) -> Schema:
    """``schema`` or ``null`` (a value the command could not give, with the reason in a sibling key).

    Args:
        schema: the JSON Schema (a dict) of the value when the command could give it.
    """
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema) -> Schema:
    """A JSON array whose every entry has the schema ``items``.

    Args:
        items: the JSON Schema (a dict) of each entry.
    """
    return {"type": "array", "items": items}


def record(required: dict[str, Schema], optional: dict[str, Schema] | None = None) -> Schema:
    """An object with ``required`` keys and, if present, ``optional`` ones, each of its schema.

    Args:
        required: key -> JSON Schema of each key the object always has.
        optional: key -> JSON Schema of each key it may have (None, the default: none).
    """
    return {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}}


def _verdict_record(required: dict[str, Schema], optional: dict[str, Schema] | None = None) -> Schema:
    """A verdict result: ``verdict``, ``summary`` and ``exit_status`` besides ``required``; the exit status is the
    verdict's."""
    schema = record({"verdict": VERDICT, "summary": TEXT, "exit_status": EXIT_STATUS, **required}, optional)
    schema["allOf"] = [
        {"if": {"properties": {"verdict": {"const": verdict}}}, "then": {"properties": {"exit_status": {"const": status}}}}
        for verdict, status in (("holds", 0), ("fails", 1), ("inconclusive", 3))
    ]
    return schema


_EXACT_SIGMA = record({"sigma": DECIMAL, "sigma_rounded": ROUNDING, "sigma_rational": RATIONAL,
                       "sigma_below": RATIONAL, "epsilon": RATIONAL, "delta": RATIONAL,
                       "sensitivity_squared": RATIONAL}, {"delta_at_sigma": nullable(CERTIFIED),
                                                          "delta_at_sigma_below": nullable(CERTIFIED)})
_SIGMA_CALIBRATION = {"recommended_sigma": DECIMAL, "recommended_sigma_rounded": ROUNDING, "recommended": TEXT,
                      "epsilon": RATIONAL, "delta": RATIONAL, "sigma_exact": DECIMAL,
                      "sigma_exact_rounded": ROUNDING, "sigma_exact_certificate": _EXACT_SIGMA}
_SAMPLES_AUDIT = {"runs": INTEGER, "checks": array(record({"property": TEXT, "verdict": VERDICT}))}

_SCHEMAS: dict[str, Schema] = {
    "report": record({"out": TEXT, "report": TEXT, "html": TEXT, "plots": array(TEXT), "seconds": {"type": "number"},
                      "counts": {"type": "object"}, "levels": {"type": "object"}, "errors": INTEGER,
                      "machine_checked": {"type": "object", "additionalProperties": TEXT},
                      "exit_status": {"enum": [0, 1]}},
                     {"audits": nullable({"type": "object", "additionalProperties": TEXT})}),
    "calibrate cascade": record({**_SIGMA_CALIBRATION, "depth": INTEGER, "neighbours": {"enum": ["add_remove", "substitution"]},
                                 "max_precision_diagonal": RATIONAL, "sensitivity_squared": RATIONAL,
                                 "sigma_paper": nullable(DECIMAL), "sigma_paper_interval": nullable(CERTIFIED),
                                 "sigma_paper_refused": nullable(TEXT)}),
    "calibrate gaussian": record({**_SIGMA_CALIBRATION, "sensitivity": RATIONAL, "sigma_classical": nullable(DECIMAL),
                                  "sigma_classical_interval": nullable(CERTIFIED),
                                  "sigma_classical_refused": nullable(TEXT)}),
    "calibrate inftda": record({"sigma_squared": RATIONAL, "attributes": INTEGER, "rho": RATIONAL,
                                "level_sensitivity_squared": INTEGER, "rho_per_level": RATIONAL,
                                "total_rho": RATIONAL, "contributions": INTEGER},
                               {"delta": NUMBER_TEXT, "epsilon": CERTIFIED}),
    "calibrate laplace": record({"l1_sensitivity": NUMBER_TEXT, "epsilon": NUMBER_TEXT, "scale": RATIONAL,
                                 "basis": TEXT}),
    "calibrate laplace-l2": record({"epsilon": DECIMAL, "epsilon_rounded": ROUNDING, "epsilon_enclosure": CERTIFIED,
                                    "scale": RATIONAL, "delta": RATIONAL},
                                   {"epsilon_pure": RATIONAL, "epsilon_l2": CERTIFIED, "exact_profile": {"type": "object"}}),
    "calibrate zcdp": {"anyOf": [
        record({"rho": NUMBER_TEXT, "delta": NUMBER_TEXT, "epsilon_simple": CERTIFIED, "epsilon_tight": CERTIFIED}),
        record({"epsilon": NUMBER_TEXT, "delta": NUMBER_TEXT, "rho_simple": CERTIFIED, "rho_tight": CERTIFIED}),
    ]},
    "calibrate laplace-l2-scale": record({"epsilon": NUMBER_TEXT, "delta": NUMBER_TEXT, "a": CERTIFIED,
                                          "scale": DECIMAL, "scale_rounded": ROUNDING, "scale_interval": CERTIFIED,
                                          "scale_sufficient_rational": RATIONAL, "basis": TEXT}),
    # an undecided certified comparison gives {"verdict": "inconclusive", "reason": ...} (exit 3)
    "audit calibration": _verdict_record({}, {"mechanism": TEXT, "claim": TEXT, "basis": TEXT, "reason": TEXT,
                                              "delta_at_epsilon": nullable(CERTIFIED),
                                              "epsilon_at_delta": nullable(CERTIFIED),
                                              "noise_ratio": nullable(CERTIFIED)}),
    "audit conversion": _verdict_record({"claim": {"type": "object"}, "claim_check": {"type": "object"}},
                                        {"source": {"type": "object"}}),
    "audit linear-noise": _verdict_record({"noise": TEXT, "scale": NUMBER_TEXT, "private": BOOLEAN, "rank": INTEGER,
                                           "kernel_dimension": INTEGER, "neighbours": TEXT, "explanation": TEXT},
                                          {"epsilon": nullable(RATIONAL), "epsilon_exact": BOOLEAN,
                                           "l1_sensitivity": nullable(RATIONAL),
                                           "l2_sensitivity_squared": nullable(RATIONAL),
                                           "claim": TEXT, "claim_record": nullable({"type": "object"}),
                                           "claim_reason": nullable(TEXT), "claim_check": nullable({"type": "object"}),
                                           "rtol": RATIONAL, "relative_excess": nullable(array(RATIONAL)),
                                           "excess": TEXT, "units": nullable(TEXT),
                                           "delta_at_epsilon": nullable(CERTIFIED),
                                           "participation": nullable({"type": "object"}),
                                           "pattern_maximum": nullable({"type": "object"}),
                                           "l2_sensitivity_squared_kind": TEXT,
                                           "covariance_matches_oracle": BOOLEAN, "oracle_units": nullable(TEXT)}),
    "audit samplers": _verdict_record(_SAMPLES_AUDIT, {"alpha": DECIMAL, "dimension": INTEGER,
                                                        "power": array({"type": "object"}), "untested": TEXT}),
    "audit sampler-function": _verdict_record({}),
    "audit height": _verdict_record({"arity": INTEGER, "offset": BOOLEAN, "horizons_checked": INTEGER}),
    "kary digits": record({"arity": INTEGER, "value": INTEGER, "width": INTEGER, "kind": TEXT, "digits": array(INTEGER)}),
    "kary mse": record({"arity": INTEGER, "horizon": INTEGER, "algorithm": TEXT, "height": INTEGER,
                        "mse_times_epsilon_squared": RATIONAL, "mse_times_epsilon_squared_decimal": DECIMAL,
                        "mse_times_epsilon_squared_decimal_rounded": ROUNDING}),
    "kary vertices": record({"arity": INTEGER, "height": INTEGER, "time": INTEGER, "algorithm": TEXT,
                             "vertices": array(record({"sign": {"enum": [1, -1]}, "level": INTEGER, "index": INTEGER,
                                                       "leaves": array(INTEGER)}))}),
    "kary matrices": record({"arity": INTEGER, "height": INTEGER, "subtraction": BOOLEAN,
                             "R": array(array(INTEGER)), "L": array(array(INTEGER)), "L_times_R_is_A": BOOLEAN,
                             "l1_sensitivity": INTEGER, "l2_sensitivity_squared": INTEGER}),
    "kary run": record({"arity": INTEGER, "epsilon": NUMBER_TEXT, "algorithm": TEXT, "horizon": INTEGER,
                        "noisy_prefix_counts": array(DECIMAL)}, {"seed": nullable(INTEGER)}),
    "inftda intopt": record({"values": array(INTEGER), "total": INTEGER, "projection": array(INTEGER),
                             "chebyshev_distance": INTEGER}),
    "inftda run": record({"records": INTEGER, "attributes": array(TEXT), "rho": NUMBER_TEXT,
                          "sigma_squared_per_level": RATIONAL, "released_leaves": INTEGER, "synthetic_records": INTEGER},
                         {"leaf_counts": {"type": "object", "additionalProperties": INTEGER},
                          "rows_written": INTEGER, "out": TEXT}),
    "cascade matrix": record({"depth": INTEGER, "covariance": array(array(RATIONAL)), "inverse": array(array(RATIONAL)),
                              "inverse_diagonal": array(RATIONAL), "inverse_matches_lemma_b2": BOOLEAN}),
    "cascade ranges": record({"depth": INTEGER, "ranges": INTEGER, "max_variance": RATIONAL, "argmax": array(INTEGER),
                              "total_variance": RATIONAL, "min_variance": RATIONAL}),
    "cascade sample": record({"depth": INTEGER, "sigma": NUMBER_TEXT, "layout": TEXT, "shape": array(INTEGER),
                              "count": INTEGER}, {"seed": nullable(INTEGER), "out": TEXT}),
}

COMMANDS: tuple[str, ...] = tuple(_SCHEMAS)


def output_schema(command: str) -> Schema:
    """The JSON Schema of ``reference COMMAND ... --json`` (``command`` as typed: ``"calibrate gaussian"``).

    Args:
        command: the command as typed, its words separated by one space (``"calibrate gaussian"``, ``"report"``); one of
            ``COMMANDS``.
    """
    if command not in _SCHEMAS:
        raise ValueError(f"command must be one of {', '.join(COMMANDS)}, got {command!r}")
    return {"$schema": DRAFT, "title": f"reference {command} --json", **_SCHEMAS[command]}

"""Command lines for the fuzz harness: every subcommand, every option, values from typed pools.

Each generated command line carries the reasons it is *invalid* (a value no parameter of that kind accepts:
``٣``, ``1_000``, ``nan``, a missing file, δ = 2, ...). A call whose command line is invalid but that exits as if
it computed something (0, 1 or 3) is a *silent accept*. Extreme but well-formed values (``1e30``,
``1e-1000000000``, ``99999999``) are not invalid: they must be answered or refused with a message, quickly.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from reference.cli.main import build_parser

COUNT_OPTIONS = {
    "depth": ["0", "1", "3", "5", "8", "12"],
    "arity": ["2", "3", "4", "5", "7", "19"],
    "width": ["1", "2", "3", "6"],
    "height": ["1", "2", "3", "4"],
    "time": ["1", "2", "5", "20"],
    "horizon": ["1", "5", "10", "100"],
    "attributes": ["1", "2", "6"],
    "contributions": ["1", "2", "3"],
    "seed": ["0", "1", "12345", "4294967295"],
    "value": ["0", "1", "-3", "7", "40"],
    "runs": ["100", "2000"],
    "workers": ["1", "2"],
    "block-runs": ["64", "256"],
    "chunk-runs": ["32", "64"],
    "jobs": ["1", "2"],
    # limits a user raises knowingly: never drawn extreme (a raised limit may rightly run long)
    "max-seconds": ["1", "5", "20"],
    "max-gib": ["1", "4"],
    # the linear-noise audit's size limits: small values refuse at once, defaults-sized ones run
    "max-text-entries": ["1", "4", "1000000"],
    "max-scanned-entries": ["1", "4", "400000000"],
    "max-nonzeros": ["1", "3", "20000000"],
    "max-dense-dimension": ["1", "2", "4000"],
    "max-sparse-dimension": ["1", "2", "20000"],
    "max-kernel-dimension": ["1", "1000"],
    "max-projection-work": ["1", "400000000"],
    # the cost limits of participation maxima, integer shifts and LP refinement: 1 forces the bounded method (or
    # the refusal, for --max-bound-work), the default runs as before
    "max-enumeration-work": ["1", "4000000"],
    "max-bound-work": ["1", "20000000"],
    "max-vector-bound-work": ["1", "2000000000"],
    "max-improve-work": ["1", "2000000"],
    "max-sdp-patterns": ["1", "200"],
    "max-sdp-size": ["1", "40"],
    "max-sign-enumeration": ["1", "16"],
    "max-shift-points": ["1", "100000"],
    "max-slackness-support": ["1", "400"],
    "max-enumerated-shifts": ["1", "256"],
    "max-strategy-entries": ["1", "1000000"],
    "max-flint-outputs": ["1", "4000"],
}
LIMIT_OPTIONS = {"max-seconds", "max-gib", "max-text-entries", "max-scanned-entries", "max-nonzeros",
                 "max-dense-dimension", "max-sparse-dimension", "max-kernel-dimension", "max-projection-work",
                 "max-enumeration-work", "max-bound-work", "max-vector-bound-work", "max-improve-work",
                 "max-sdp-patterns", "max-sdp-size", "max-sign-enumeration", "max-shift-points",
                 "max-slackness-support", "max-enumerated-shifts", "max-strategy-entries", "max-flint-outputs"}
RATIONAL_OPTIONS = {
    "epsilon": ["1", "1/2", "0.5", "2", "1e-1"],
    "delta": ["1e-6", "1/1000", "0.01", "1e-10"],
    "rho": ["1/2", "1", "0.1"],
    "sigma": ["1", "2.5", "10", "7/2"],
    "sigma-squared": ["1", "2", "1/4"],
    "scale": ["1", "2", "1/2", "200"],
    "l1": ["1", "3", "100"],
    "l2": ["1", "10", "3/2"],
    "l2-squared": ["1", "3", "9/4"],
    "sensitivity": ["1", "2"],
    "sensitivity-squared": ["1", "2", "13/3"],
    "total": ["0", "1", "5", "10"],
    "alpha": ["1e-6", "1/100"],
    "runs-for-deviation": ["0.02", "1/100"],
    "smallest-deviation": ["1/4", "0.1", "2"],
    "rtol": ["0", "1e-12", "1/100"],
}
#: Values that no option of the kind accepts: not ASCII decimal / "p/q" / scientific, or not finite.
BAD_NUMBERS = ["٣", "１２", "1_000", "nan", "inf", "-inf", "0/0", "1/0", "", " ", "abc", "1e", "0x10", "1..2",
               "1/2/3", "1e999999999999", "½", "1,5",
               # an independent fuzzer's notations: powers, hex floats, signs in odd places, other digits
               "10^30", "2^63", "2**64", "1e+", "--1", "1e1.5", "0x1p3", "1/-3", "1 000", "１e3", "1e٣", "+-1"]
BAD_COUNTS = [*BAD_NUMBERS, "1.5", "-1", "2/3", "1e3", "3.0", "١"]
#: Well-formed but extreme: must be answered or refused with a message, never hang or blow up.
EXTREME_NUMBERS = ["1e30", "1e-1000000000", "1e-5000", "1e10", "3e-7", "1e-300", "123456789/987654321",
                   "1" + "0" * 5000, "1e308", "99999999", "1000",
                   # boundary pool: the reader's exponent limit (±10,000) and ±1 around it, the corners of the
                   # certified routines (tiny ρ and δ, σ² a hair above 1), and values next to 0 and 1
                   "1e-10000", "1e10000", "1e-10001", "1e10001", "9e-10000", "3e-255", "1e-196", "7e-2",
                   "1.0000001", "1.00000000000000000001", "0.99999999999999999999", "1e-9999", "1e9999",
                   "2.5e-3000", "12300",
                   # signs and zeros, the reader's digit limit (5,000 digits) with its exponent limit, 2**64 - 1
                   "-0", "0.0", "+1", "1.", ".5", "1E5", "1e-0", "1e-010000", "1/" + "3" * 4998,
                   "0." + "0" * 4990 + "1e-5000", "9" * 4999 + "e10000", "1.0000000000000000000000000001",
                   str(2**64 - 1), str(2**63)]
EXTREME_COUNTS = ["0", "40", "64", "1000", "99999999", "9" * 50, "100000",
                  # boundary pool: documented limits and ±1 (depths 15/16/17, 25/26/27, heights 62/63/64,
                  # 4000/4001 rows), powers of two near 2**63 and the 30-digit limit
                  "15", "16", "17", "25", "26", "27", "62", "63", "65", "4000", "4001", "1638",
                  str(2**62), str(2**63), str(2**64), "9" * 30, "1" + "0" * 30, str(10**29),
                  "-0", "+3", "007", str(2**64 - 1), "14", "18", "30", "31", "100001", "99999", "1000001"]
#: Values outside the range a given option accepts (semantically invalid).
OUT_OF_RANGE = {
    "delta": ["0", "1", "2", "-1/2"],
    "epsilon": ["-1"],
    "rho": ["0", "-1"],
    "sigma": ["0", "-1"],
    "sigma-squared": ["0", "-1"],
    "scale": ["0", "-2"],
    "l1": ["0", "-1"],
    "l2": ["-1"],
    "l2-squared": ["-1"],
    "sensitivity-squared": ["0", "-1"],
    "alpha": ["0", "1", "2"],
    "total": ["-1"],
    "smallest-deviation": ["0", "-1"],
    "rtol": ["-1"],
}
IN_FILES = ("data", "input", "samples", "noise-matrix", "workload", "oracle", "draw-variances", "draw-scales")
#: Free-text options: good values, and bad ones the command must refuse (a scheduler address is only ever
#: malformed or on loopback: no traffic leaves the machine).
TEXT_OPTIONS = {
    "target": (["examples.batched_samplers:cascade_depth_6", "examples.batched_samplers:discrete_laplace_scale_3",
                "examples.batched_samplers:kary_algorithm_2_arity_3"],
               ["", "nocolon", "no.such.module:f", "examples.batched_samplers:missing",
                "examples.batched_samplers:broken_sampler", "os:getcwd"]),
    "scheduler": (["tcp://127.0.0.1:9"], ["", "not an address"]),
    "rdp": (["2:1/2,4:1", "1.5:0.1"], ["", "2", "1:1", "a:b", "2:-1", "2=1"]),
    "participation": (["once-per-block:2", "min-separation:2,2", "any:2"],
                      ["", "per-tree", "once-per-block:0", "min-separation:1", "any:٣"]),
    "function": (["examples.user_heights:float_offset_height", "examples.user_heights:exact_offset_height"],
                 ["", "nocolon", "no.such.module:f", "examples.user_heights:missing"]),
    "horizons": (["1:100", "10:20", "1:1000000"], ["", "5", "0:10", "10:5", "a:b", "1:2:3"]),
}
LIST_OPTIONS = {"values": ["3,1,4", "-5,-5", "0", "10,20,30,40", "1,2"], "vectors": ["1,1,1", "1;2", "1,0;0,1"],
                "infinite-variance-draws": ["0", "1"]}
BAD_LISTS = ["", ",", "a,b", "1,,2", "٣,1", "nan", "1_0,2"]


@dataclass(frozen=True)
class Fixtures:
    """Files the command lines point at: good ones per option, and bad ones any file option must refuse."""

    good: dict[str, list[str]]
    bad: list[str]
    out_good: str
    out_bad: list[str]
    report_out_bad: list[str]  # an existing folder is a good report folder; a file or an empty path is not


def make_fixtures(folder: Path) -> Fixtures:
    """Write the fixture files into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)

    def write(name: str, text: str | bytes) -> str:
        path = folder / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return str(path)

    rng = np.random.default_rng(0)
    samples = folder / "samples.npy"
    np.save(samples, rng.standard_normal((200, 4)))
    empty_npy = folder / "empty.npy"
    np.save(empty_npy, np.zeros((0,)))
    object_npy = folder / "object.npy"
    np.save(object_npy, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    identity = write("identity.csv", "1,0\n0,1\n")
    lower = write("lower.csv", "1,0\n1,1\n")
    good = {
        "data": [write("tda.csv", "region,age\nnorth,young\nnorth,old\nsouth,young\nsouth,young\n")],
        "input": [write("stream.txt", "1 0 1 1 0 1 0 0 1 1"), write("stream.csv", "1,0,1,1")],
        "samples": [str(samples)],
        "noise-matrix": [identity, lower, write("matrix.json", "[[1, 0], [0, 1]]"),
                         # a spreadsheet's byte-order mark and CRLF line ends; big-endian and Fortran-ordered ints
                         write("bom.csv", "\ufeff1,0\n0,1\n"), write("crlf.csv", b"1,0\r\n1,1\r\n"),
                         _save(folder / "big_endian.npy", np.eye(2, dtype=">i8")),
                         _save(folder / "fortran.npy", np.asfortranarray(np.array([[1, 0], [1, 1]]))),
                         _save_sparse(folder / "identity.npz", np.eye(2, dtype=np.int64), "csr")],
        "workload": [identity, lower, write("bom_workload.csv", "\ufeff1,0\n1,1\n"),
                     _save_sparse(folder / "lower.npz", np.array([[1, 0], [1, 1]]), "coo"),
                     _save_sparse(folder / "halves.npz", np.array([[0.5, 0.0], [1.0, 1.0]]), "csc")],
        "oracle": [identity],
        "draw-variances": [write("variances.csv", "1\n1\n"), write("variances_row.csv", "1,3/4\n")],
        "draw-scales": [write("scales.csv", "1\n2\n"), write("scales_row.csv", "1,3/2\n")],
    }
    (folder / "a_directory").mkdir(exist_ok=True)
    bad = [
        str(folder / "missing.csv"),
        "",
        str(folder / "a_directory"),
        write("empty.csv", ""),
        str(empty_npy),
        str(object_npy),
        write("ragged.csv", "1,2\n3\n"),
        write("words.csv", "a,b\nc,d\n"),
        write("nested.json", "[" * 100_000 + "]" * 100_000),
        write("garbage.bin", bytes(range(256)) * 8),
        write("latin1.csv", b"caf\xe9,1\n2,3\n"),
        write("nan.csv", "nan,1\n1,inf\n"),
        write("floaty.csv", "0.1,1e400000\n1,1\n"),  # an exponent past the accepted ±10,000
        write("truncated.npy", samples.read_bytes()[:100]),
        write("header_only.csv", "region,age\n"),
        *_degenerate_files(folder),
    ]
    return Fixtures(good, bad, str(folder / "out"), ["/proc/no/such/dir/out.csv", str(folder / "a_directory"), ""],
                    ["/proc/no/such/dir/report", str(folder / "samples.npy"), ""])


def _degenerate_files(folder: Path) -> list[str]:
    """Boundary pool of files: a FIFO with no writer, links to endless devices, wrong dtypes and shapes."""
    made = []
    fifo = folder / "fifo.csv"
    if not fifo.exists():
        os.mkfifo(fifo)
    made.append(str(fifo))
    for name, device in (("zero.csv", "/dev/zero"), ("zero.npy", "/dev/zero"), ("urandom.txt", "/dev/urandom"),
                         ("null.csv", "/dev/null")):
        link = folder / name
        if not link.exists() and not link.is_symlink():
            link.symlink_to(device)
        made.append(str(link))
    arrays = {"complex.npy": np.ones((3, 3), dtype=np.complex128), "bool.npy": np.ones((3, 3), dtype=bool),
              "strings.npy": np.array([["1", "2"], ["3", "4"]]), "scalar.npy": np.array(3.0),
              "cube.npy": np.zeros((2, 2, 2)), "int8.npy": np.ones((4, 4), dtype=np.int8),
              "inf.npy": np.full((5, 3), np.inf), "row.npy": np.zeros((1, 0)),
              "float16.npy": np.eye(3, dtype=np.float16), "nan_entries.npy": np.array([[np.nan, 0.0], [0.0, 1.0]]),
              "big_endian_float.npy": np.eye(3).astype(">f8")}
    for name, array in arrays.items():
        made.append(_save(folder / name, array))
    made.append(_save(folder / "pickled.npy", np.array([[1, 0], [0, 1]], dtype=object)))
    # sparse .npz: complex entries, a damaged archive, plain arrays that are no scipy.sparse matrix
    made.append(_save_sparse(folder / "complex.npz", np.eye(2, dtype=np.complex128), "csr"))
    made.append(_write(folder / "not_a_zip.npz", "PK this is no archive"))
    np.savez(folder / "plain_arrays.npz", a=np.eye(2))
    made.append(str(folder / "plain_arrays.npz"))
    # a header that promises 100000 x 100000 float64 (80 GB) over no data: refused from the header, never allocated
    forged = folder / "forged_header.npy"
    with forged.open("wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": "<f8", "fortran_order": False,
                                                      "shape": (100_000, 100_000)})
    made.append(str(forged))
    # a field over the csv module's limit (131,072 characters); a matrix text over the parsed-entries bound
    made.append(_write(folder / "huge_field.csv", "1" + "0" * 140_000 + ",0\n0,1\n"))
    made.append(_write(folder / "many_entries.csv", "\n".join(",".join(["0"] * 1001) for _ in range(1001))))
    return made


def _save(path: Path, array: np.ndarray) -> str:
    np.save(path, array, allow_pickle=array.dtype.hasobject)
    return str(path)


def _save_sparse(path: Path, array: np.ndarray, form: str) -> str:
    from scipy import sparse

    sparse.save_npz(path, sparse.coo_matrix(array).asformat(form))
    return str(path)


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


@dataclass(frozen=True)
class CommandLine:
    """A generated command line and why it is invalid (empty when every value is acceptable)."""

    argv: tuple[str, ...]
    invalid: tuple[str, ...]


def subcommands() -> list[tuple[tuple[str, ...], list[argparse.Action]]]:
    """Every leaf command of the parser with its options."""
    found: list[tuple[tuple[str, ...], list[argparse.Action]]] = []

    def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*prefix, name))
                return
        options = [a for a in parser._actions if a.option_strings and a.dest != "help"]
        found.append((prefix, options))

    walk(build_parser(), ())
    return found


def _name(action: argparse.Action) -> str:
    return next(s for s in action.option_strings if s.startswith("--"))[2:]


@st.composite
def command_lines(draw: st.DrawFn, fixtures: Fixtures) -> CommandLine:
    """One command line: a subcommand, its required options (usually), some optional ones, typed values."""
    commands = subcommands()
    command, options = draw(st.sampled_from(commands))
    argv: list[str] = list(command)
    invalid: list[str] = []
    if command == ("report",):  # the one long command: only ever with a --out that must be refused at once
        argv += ["--quick", "--out", draw(st.sampled_from(fixtures.report_out_bad))]
        return CommandLine(tuple(argv), ("--out is not a writable folder",))
    for action in options:
        name = _name(action)
        if name == "json":
            if draw(st.booleans()):
                argv.append("--json")
            continue
        if not draw(st.floats(0, 1)) < (0.93 if action.required else 0.35):
            continue
        if action.nargs == 0 or isinstance(action, argparse.BooleanOptionalAction):
            argv.append(draw(st.sampled_from(action.option_strings)))
            continue
        flavour = draw(st.sampled_from(["good", "good", "good", "extreme", "bad"]))
        value, why = _value(draw, name, action, flavour, fixtures)
        if why:
            invalid.append(f"--{name} {value!r}: {why}")
        argv += [f"--{name}={value}"] if value.startswith("-") else [f"--{name}", value]
    return CommandLine(tuple(argv), tuple(invalid))


def _value(draw: st.DrawFn, name: str, action: argparse.Action, flavour: str, fx: Fixtures) -> tuple[str, str]:
    if action.choices:
        if flavour == "bad":
            return draw(st.sampled_from(["bogus", "", "GAUSSIAN"])), ""  # argparse refuses: not counted
        return str(draw(st.sampled_from(list(action.choices)))), ""
    if name in IN_FILES:
        if flavour == "bad":
            # a two-column table of words is a fine TDA data file (a header and one record), bad elsewhere
            # tables of words are fine TDA data (a header and a record of categories), bad elsewhere
            fine_for_data = ("words.csv", "nan.csv", "floaty.csv", "many_entries.csv")
            fine_for_input = ("many_entries.csv",)  # a million 0s is a stream (with --out, a valid one)
            pool = [path for path in fx.bad if not (name == "data" and path.endswith(fine_for_data))
                    and not (name == "input" and path.endswith(fine_for_input))]
            return draw(st.sampled_from(pool)), "not a readable file of the right form"
        return draw(st.sampled_from(fx.good[name])), ""
    if name == "out":
        if flavour == "bad":
            return draw(st.sampled_from(fx.out_bad)), "not a writable path"
        return f"{fx.out_good}_{draw(st.integers(0, 10**6))}{draw(st.sampled_from(['.csv', '.npy', '']))}", ""
    if name in TEXT_OPTIONS:
        good, bad = TEXT_OPTIONS[name]
        if flavour == "bad":
            return draw(st.sampled_from(bad)), "not a usable target or address"
        return draw(st.sampled_from(good)), ""
    if name in LIST_OPTIONS:
        if flavour == "bad":
            return draw(st.sampled_from(BAD_LISTS)), "not a comma-separated list of numbers"
        return draw(st.sampled_from(LIST_OPTIONS[name])), ""
    if name in COUNT_OPTIONS:
        if flavour == "bad":
            value = draw(st.sampled_from(BAD_COUNTS))
            return value, "not an ASCII integer of the accepted range"
        pool = EXTREME_COUNTS if flavour == "extreme" and name not in LIMIT_OPTIONS else COUNT_OPTIONS[name]
        return draw(st.sampled_from(pool)), ""
    if name in RATIONAL_OPTIONS:
        if flavour == "bad":
            pool = BAD_NUMBERS + OUT_OF_RANGE.get(name, [])
            value = draw(st.sampled_from(pool))
            why = "out of range" if value in OUT_OF_RANGE.get(name, []) else "not an ASCII decimal, p/q or 1e-6"
            return value, why
        pool = EXTREME_NUMBERS if flavour == "extreme" else RATIONAL_OPTIONS[name]
        return draw(st.sampled_from(pool)), ""
    raise AssertionError(f"the fuzz harness has no pool for --{name}: add one")


def run_command(argv: tuple[str, ...]) -> tuple[str, int]:
    """The child's work: run the command line; (kind, exit status). Uncaught exceptions propagate."""
    from reference.cli.main import main

    os.environ.pop("REFERENCE_PAPERS", None)
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 2
    return ("refused" if status == 2 else "ok"), status

"""Fuzz: `explorer.commands.cli.main` with random argument lists exits 0 or 2 (`check`: also 1), never a traceback.

The words are taken from the real parser (subcommands, options, choices), so new subcommands are
fuzzed as they appear; values mix good, edge and junk. The window and the benchmark are stubbed.
Profile: PE_FUZZ_PROFILE=ci (default) or long (>= 10,000 examples).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from explorer.commands import cli

settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))


def _words(parser: argparse.ArgumentParser, out: set[str]) -> set[str]:
    """Every subcommand name, option string and choice of the parser tree."""
    for action in parser._actions:
        out.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.add(name)
                _words(sub, out)
        elif action.choices:
            out.update(str(c) for c in action.choices)
    return out


WORDS = sorted(_words(cli.build_parser(), set()) - {"-h", "--help", "--version"})
NUMBERS = ["0", "1", "2", "3", "7", "8", "33", "64", "300", "-1", "-0", "1.5", "2.5", "1e3", "1e400",
           "nan", "inf", "-inf", "10000", "1.0001", "1", "99999999999999999999", "8193", "10000001",
           "１２", "0x10", "", " ", "abc", "1_000"]
OUTPUTS = ["out.npy", "out.csv", "OUT.NPY", "x.txt", "missing/dir/x.npy", "noext", ".npy", "a b.csv"]
TEXTS = ["Thanks for all the fish", "感谢所有的鱼", "\ud800", "\udcff lone", "a\u200bb\u202ec", "🐟👨‍👩‍👧",
         "\x00\x1b[31m", "مرحبا", "-o", "--", "[CLS]", "<|endoftext|>"]


def _safe_text(s: str) -> bool:
    """Random text never names a writable array file outside the temp folder."""
    return not s.lower().endswith((".npy", ".csv")) and "/" not in s and "\\" not in s


TOKEN = st.one_of(
    st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from(NUMBERS), st.sampled_from(OUTPUTS),
    st.sampled_from(TEXTS), st.integers(-10, 300).map(str),
    st.text(st.characters(exclude_categories=()), max_size=12).filter(_safe_text),
)
def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command path, leaf parser) for every runnable subcommand."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for name, sub in subs[0].choices.items():
        yield from _leaves(sub, path + (name,))


GOOD_INT = st.sampled_from(["1", "2", "3", "4", "7", "8", "16", "33", "64"])
GOOD_FLOAT = st.sampled_from(["2", "1.5", "10000", "1e6", "1.0001"])


def _value(action: argparse.Action):
    """A mostly-plausible value for one option, sometimes junk."""
    if action.choices:
        good = st.sampled_from([str(c) for c in action.choices])
    elif action.dest == "output":
        good = st.sampled_from(OUTPUTS[:3])
    elif action.type is int:
        good = GOOD_INT
    elif action.type is float:
        good = GOOD_FLOAT
    else:
        good = st.sampled_from(TEXTS)
    return st.one_of(good, good, good, good, good, good, st.sampled_from(NUMBERS + OUTPUTS), TOKEN)


def _well_formed(path: tuple[str, ...], parser: argparse.ArgumentParser):
    """The command with each argument present (mostly) and a mostly-plausible value."""
    parts = [st.just(list(path))]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        keep = st.booleans() if not action.required else st.sampled_from([True] * 9 + [False])
        if not action.option_strings:                       # positional
            item = _value(action).map(lambda v: [v])
        elif action.nargs == 0:                             # flag
            item = st.just([action.option_strings[-1]])
        else:
            item = _value(action).map(lambda v, o=action.option_strings[-1]: [o, v])
        parts.append(st.tuples(keep, item).map(lambda ki: ki[1] if ki[0] else []))
    return st.tuples(*parts).map(lambda ps: [w for p in ps for w in p])


WELL_FORMED = st.one_of(*[_well_formed(path, p) for path, p in _leaves(cli.build_parser())
                          if path and path[0] != "bench"])
ARGV = st.one_of(
    WELL_FORMED, WELL_FORMED,
    st.lists(TOKEN, max_size=14),
    st.builds(lambda head, rest: head + rest,
              st.sampled_from([["export", "pe"], ["export", "similarity"], ["tokens"], ["export", "input"],
                               ["export", "rope"], ["export", "alibi"], ["export", "offset-rotation"]]),
              st.lists(TOKEN, max_size=12)),
)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    """cwd in a temp folder; the window and the benchmark replaced by stubs."""
    folder = tmp_path_factory.mktemp("cli_fuzz")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.setattr(cli, "_run_gui", lambda args: 0)
        import explorer.bench

        mp.setattr(explorer.bench, "main", lambda argv=None: 0)
        yield folder


def _utf8_stream(errors: str) -> io.TextIOWrapper:
    """UTF-8 like a terminal: stdout fails on lone surrogates (strict), stderr backslash-escapes them."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors, write_through=True)


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = _utf8_stream("strict"), _utf8_stream("backslashreplace")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(argv)
        except SystemExit as exc:   # argparse's own --help / --version
            rc = exc.code
    err.seek(0)
    return rc, err.read()


@FUZZ
@given(ARGV)
def test_cli_exits_0_or_2_with_one_line(sandbox, argv):
    rc, err = run_cli(argv)
    event(f"exit {rc}")
    words = argv[:2] if argv[:1] == ["export"] else argv[:1]
    event("command " + (" ".join(words) if set(words) <= set(WORDS) and words else "(other)"))
    assert rc in (0, 2) or (argv[:1] == ["check"] and rc == 1), (argv, rc, err)   # check: 1 = no match
    assert "Traceback" not in err
    if rc == 2:
        assert re.match(r"pe-explorer( [a-z-]+)?: error: ", err) and err.endswith("\n"), err
        assert not LINE_BREAKS & set(err[:-1]), repr(err)


LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


@pytest.mark.parametrize("argv", [["tokens", "a", "b\nc"], ["tokens", "alibi", "\r", "--base"]])
def test_cli_message_one_line_even_with_line_breaks(sandbox, argv):
    rc, err = run_cli(argv)
    assert rc == 2 and not LINE_BREAKS & set(err[:-1]), repr(err)


def test_help_and_version_exit_0(sandbox):
    assert run_cli(["--version"])[0] == 0
    assert run_cli(["export", "pe", "--help"])[0] == 0

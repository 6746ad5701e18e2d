import pytest

from server_delays.script_args import script_flags

USAGE = "\nusage: npm run x [-- --check]\n\nWhat x does.\n"


def test_flags_given_are_returned():
    assert script_flags("x", USAGE, ["--check"], ("--check",)) == {"--check"}
    assert script_flags("x", USAGE, [], ("--check",)) == set()


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--bogus", "--help"]])
def test_help_prints_usage_on_stdout_and_exits_0(argv, capsys):
    with pytest.raises(SystemExit) as e:
        script_flags("x", USAGE, argv, ("--check",))
    assert e.value.code == 0
    out = capsys.readouterr()
    assert out.out == "usage: npm run x [-- --check]\n\nWhat x does.\n"
    assert out.err == ""


@pytest.mark.parametrize(("argv", "flags", "line"), [
    (["--bogus"], ("--check",), "x: unknown option '--bogus' (--help for usage)\n"),
    (["--check", "extra"], ("--check",), "x: unexpected argument 'extra' (--help for usage)\n"),
    (["--check"], (), "x: unknown option '--check' (--help for usage)\n"),
])
def test_anything_else_is_one_line_and_exit_2(argv, flags, line, capsys):
    with pytest.raises(SystemExit) as e:
        script_flags("x", USAGE, argv, flags)
    assert e.value.code == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == line

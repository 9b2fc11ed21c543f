"""`tokenjuice reduce` and `tokenjuice reduce-json` (tokenjuice.commands.reduce)."""

import json

import pytest
from conftest import tokenjuice


def test_reduce_from_stdin_and_file(workdir):
    output = "".join(f"line {i}\n" for i in range(2000))  # past the information budget
    done = tokenjuice("reduce", "--command", "seq 2000", input=output)
    assert done.returncode == 0
    assert "lines omitted" in done.stdout.decode()
    (workdir / "log.txt").write_text(output)
    done = tokenjuice("reduce", "log.txt", "--format", "json")
    assert json.loads(done.stdout)["stats"]["rawChars"] == len(output)
    done = tokenjuice("reduce", "--raw", "log.txt")
    assert done.stdout.decode() == output


def test_reduce_with_exit_code_and_classification(workdir):
    done = tokenjuice(
        "reduce",
        "--command",
        "git status",
        "--exit-code",
        "128",
        "--format",
        "json",
        input="fatal: not a git repository (or any of the parent directories): .git\n",
    )
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "git/status"
    # a tiny output keeps its status above it (the one header allowed to make an output longer)
    assert result["inlineText"] == "exit 128\nfatal: not a git repository (or any of the parent directories): .git"


def test_reduce_missing_file_is_one_sentence(workdir):
    done = tokenjuice("reduce", "nope.txt")
    assert done.returncode == 2
    assert done.stderr == b"tokenjuice reduce: cannot read nope.txt: No such file or directory\n"


@pytest.mark.parametrize(
    "payload",
    [
        {"toolName": "exec", "command": "git status", "combinedText": "On branch main\n", "exitCode": 0},
        {
            "input": {"toolName": "exec", "argv": ["git", "status"], "stdout": "On branch main\n"},
            "options": {"trace": True, "maxInlineChars": 500},
        },
    ],
)
def test_reduce_json_direct_and_envelope(workdir, payload):
    done = tokenjuice("reduce-json", input=json.dumps(payload))
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "git/status"
    assert result["inlineText"] == "On branch main"


@pytest.mark.parametrize(
    "raw, message",
    [
        ("", "reduce-json needs a JSON payload"),
        ("{not json", "the payload is not valid JSON"),
        ("[1, 2]", "the payload must be a JSON object"),
        ("null", "the payload must be a JSON object"),
        ('{"command": "x"}', "toolName must be a non-empty string"),
        ('{"toolName": "exec", "exitCode": "1"}', "exitCode must be a finite number"),
        ('{"toolName": "exec", "argv": "git status"}', "argv must be a list of strings"),
        ('{"input": {"toolName": "exec"}, "options": {"maxInlineChars": 0}}', "options.maxInlineChars must be"),
    ],
)
def test_reduce_json_errors_are_json(workdir, raw, message):
    done = tokenjuice("reduce-json", input=raw)
    assert done.returncode == 2
    assert message in json.loads(done.stdout)["error"]["message"]
    assert b"Traceback" not in done.stderr


def test_reduce_json_takes_any_output_text(workdir):
    for output in ("a\u0000b\n" * 200, "lone \udc80 surrogate\n" * 200, "\ud83d broken pair\n"):
        payload = json.dumps({"toolName": "exec", "command": "tool", "combinedText": output})
        done = tokenjuice("reduce-json", input=payload)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.decode("utf-8"))  # valid UTF-8, valid JSON
        assert result["stats"]["rawChars"] == len(output)
    done = tokenjuice("reduce-json", input=json.dumps({"toolName": "exec", "stdout": 5}))
    assert done.returncode == 2 and "stdout must be a string" in json.loads(done.stdout)["error"]["message"]


_THROUGH_CLICK = "import sys; from tokenjuice.cli import main; sys.exit(main(sys.argv[1:]))"
_PAST_CLICK = (
    "import sys; from tokenjuice.entry import main; code = main(sys.argv[1:]); "
    "assert 'click' not in sys.modules, 'the plain reduce-json imported click'; sys.exit(code)"
)


@pytest.mark.parametrize(
    "raw",
    [
        json.dumps(
            {"toolName": "exec", "command": "pytest -q", "combinedText": "E  assert 1 == 2\n" * 3000, "exitCode": 1}
        ),
        json.dumps({"toolName": "exec", "command": "tool", "combinedText": "lone \udc80 surrogate, ünïcode\n"}),
        "{not json",
        "",
        '{"toolName": "exec", "exitCode": "1"}',
    ],
)
def test_plain_reduce_json_skips_click_and_answers_the_same(workdir, raw):
    """`reduce-json` with no option runs without click; its answer (JSON, errors
    too) and exit code are the click command's, byte for byte."""
    import subprocess
    import sys

    (workdir / "payload.json").write_text(raw, encoding="utf-8", errors="surrogatepass")
    for args in (["reduce-json"], ["reduce-json", "payload.json"]):
        stdin = raw.encode("utf-8", "surrogatepass") if len(args) == 1 else None
        run = [
            subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, cwd=workdir)
            for code in (_THROUGH_CLICK, _PAST_CLICK)
        ]
        assert run[1].stderr == b"", run[1].stderr
        assert (run[1].stdout, run[1].returncode) == (run[0].stdout, run[0].returncode)
        assert json.loads(run[1].stdout)


@pytest.mark.parametrize(
    "data",
    [
        b'  {"toolName": "exec", "combinedText": "\\u001b[31m\\u2501 \\ud83d\\ude00", "exitCode": 1.0}\n',
        b'\xef\xbb\xbf{"a": 1}',  # a byte-order mark
        '{"a": "é"}'.encode("utf-16"),
        '{"a": "é"}'.encode("utf-16-be"),
        '{"a": 1}'.encode("utf-32-le"),
        b'{"a": "\xed\xa0\x80"}',  # a lone surrogate in (surrogatepass) UTF-8
        b'{"a" 1}',
        b"[1,",
        b'{"a": 1} x',
        b"\xff{}",
        b"1" * 5000,  # past int's digit limit
        b"[" * 100_000,
    ],
)
def test_a_payload_is_read_as_json_loads_reads_it(data):
    from tokenjuice.commands.reduce import _loads

    def read(loads):
        try:
            return "value", loads(data)
        except (ValueError, RecursionError) as error:
            return type(error), str(error)

    assert repr(read(_loads)) == repr(read(json.loads))


def test_plain_reduce_json_of_a_payload_imports_no_json_package(workdir):
    import subprocess
    import sys

    code = (
        "import sys; from tokenjuice.entry import main; code = main(sys.argv[1:]); "
        "assert 'json' not in sys.modules, 'reduce-json imported json'; sys.exit(code)"
    )
    payload = json.dumps({"toolName": "exec", "command": "pytest -q", "combinedText": "E  assert 1 == 2\n" * 3000})
    done = subprocess.run([sys.executable, "-c", code, "reduce-json"], input=payload.encode(), capture_output=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["inlineText"]


def test_reduce_json_lets_malloc_keep_what_it_frees_before_it_reads(monkeypatch, tmp_path):
    """The plain `reduce-json` makes and frees the block that raises glibc's mapping
    threshold before it reads the payload (whose memory, freed once it is decoded, the
    stripped text's parts reuse), and the payload's bytes are not held while it is reduced."""
    import sys

    from tokenjuice.commands import reduce as command

    calls: list[str] = []
    monkeypatch.setattr(command, "keep_freed_memory", lambda: calls.append("keep"))
    read, loads, decoded = command.read_input, command._loads, []

    def reading(path, what):
        calls.append("read")
        return read(path, what)

    def loading(data):
        decoded.append(data)
        return loads(data)

    def reducing(payload, **options):
        calls.append(f"reduce, the bytes referred to {sys.getrefcount(decoded[0]) - 2} more times")
        return {"inlineText": ""}

    monkeypatch.setattr(command, "read_input", reading)
    monkeypatch.setattr(command, "_loads", loading)
    monkeypatch.setattr("tokenjuice.commands.wire.reduce_payload", reducing)
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({"toolName": "exec", "command": "true", "combinedText": "x" * 200, "exitCode": 0}))
    assert command.main_json(str(payload)) == 0
    assert calls == ["keep", "read", "reduce, the bytes referred to 0 more times"]
    assert command.FREED_BLOCK <= 32 << 20  # glibc raises its threshold to at most 32 MiB


def test_keep_freed_memory_is_no_error_where_the_block_cannot_be_made(monkeypatch):
    """A tight address space (`ulimit -v`) refuses the block: reduce-json goes on as
    before. (A block no machine can make stands for it: replacing the builtin `bytes`
    broke every `isinstance(x, bytes)` of the process meanwhile, pytest-xdist's channel
    thread's too, and stalled the run.)"""
    from tokenjuice.commands import reduce as command

    monkeypatch.setattr(command, "FREED_BLOCK", 1 << 60)
    with pytest.raises(MemoryError):
        bytes(command.FREED_BLOCK)
    command.keep_freed_memory()


def test_a_reduction_imports_only_the_parser_of_its_kind_of_unit(workdir):
    """`units.parse` imports a kind's parser when that kind is first parsed: a cut git
    status imports the status parser's module and none of the others (findings, test
    runs, matches, tables, listings, the regions of compound output)."""
    import subprocess
    import sys

    others = ["findings", "testruns", "matches", "tables", "listings", "regions"]
    code = (
        "import sys; from tokenjuice.entry import main; code = main(sys.argv[1:]); "
        "assert 'tokenjuice.reduce.changes' in sys.modules, 'no parser ran'; "
        f"loaded = [m for m in {others!r} if 'tokenjuice.reduce.' + m in sys.modules]; "
        "assert not loaded, loaded; sys.exit(code)"
    )
    status = "On branch main\nChanges not staged for commit:\n" + "".join(
        f"\tmodified:   src/f{i}.py\n" for i in range(900)
    )
    payload = json.dumps({"toolName": "exec", "command": "git status", "combinedText": status, "exitCode": 0})
    done = subprocess.run([sys.executable, "-c", code, "reduce-json"], input=payload.encode(), capture_output=True)
    assert done.returncode == 0, done.stderr
    assert "src/{f0,f1," in json.loads(done.stdout)["inlineText"]  # the status parser's brace list

"""Linters' findings as units (tokenjuice/reduce/findings.py): the shapes parsed, and
what a cut keeps — errors before warnings before conventions, the project's own files
before vendored ones, every code counted with where its first findings are."""

import re

from tokenjuice.reduce.lines import render
from tokenjuice.reduce.reencode import decoded
from tokenjuice.reduce.unit import input_lines
from tokenjuice.reduce.units import Unit, fit, parse
from tokenjuice.rules.verify import unexplained_lines


def shown(items):
    return "\n".join(render(items))


def units_of(lines):
    return [part for part in parse("finding", lines) if isinstance(part, Unit)]


def test_each_tools_shape_is_one_finding_with_its_place_and_code():
    lines = [
        "src/a.py:3:1: F401 'os' imported but unused",  # flake8, ruff concise
        "src/a.py:12:0: C0114: Missing module docstring (missing-module-docstring)",  # pylint
        "shop/b.py:17: error: Incompatible return value type  [return-value]",  # mypy
        'shop/b.py:17: note: "Order" defined here',  # its note
        "src/c.ts(17,9): error TS2322: Type 'number' is not assignable to type 'string'.",  # tsc
        "main.c:5:9: warning: unused variable 'x' [-Wunused-variable]",  # gcc
        "    5 |     int x;",
        "      |         ^",
        "F821 Undefined name `ordr`",  # ruff full
        "  --> src/d.py:48:12",
        "   |",
        "48 |     return ordr",
        "   |            ^^^^",
        "",
        "error[E0308]: mismatched types",  # rustc
        " --> src/lib.rs:11:19",
    ]
    found = units_of(lines)
    assert [(u.gathered, u.place) for u in found] == [
        ("F401", "src/a.py:3"),
        ("C0114", "src/a.py:12"),
        ("return-value", "shop/b.py:17"),
        ("TS2322", "src/c.ts:17"),
        ("-Wunused-variable", "main.c:5"),
        ("F821", "src/d.py:48"),
        ("E0308", "src/lib.rs:11"),
    ]
    assert 'shop/b.py:17: note: "Order" defined here' in found[2].lines  # a note belongs to its error
    assert found[5].short == ("F821 Undefined name `ordr`", "  --> src/d.py:48:12")  # no excerpt


def test_pydocstyle_says_a_findings_code_on_the_line_under_its_place():
    """pydocstyle 6.3.0 on mkdocs 1.6.1: the place and the code under it are one finding,
    so a cut never leaves a code without its place or a place without its code."""
    lines = [
        "src/mkdocs/config/base.py:1 at module level:",
        "        D100: Missing docstring in public module",
        "src/mkdocs/config/base.py:76 in public method `post_validation`:",
        "        D205: 1 blank line required between summary line and description (found 0)",
        "src/mkdocs/config/base.py:291 in private function `_open_config_file`:",
        "        D401: First line should be in imperative mood; try rephrasing (found 'A')",
    ]
    found = units_of(lines)
    assert [(u.gathered, u.place) for u in found] == [
        ("D100", "src/mkdocs/config/base.py:1"),
        ("D205", "src/mkdocs/config/base.py:76"),
        ("D401", "src/mkdocs/config/base.py:291"),
    ]
    assert [u.short for u in found] == [tuple(lines[k : k + 2]) for k in (0, 2, 4)]


def test_a_bandit_issue_is_one_finding_ranked_by_its_severity():
    """bandit 1.9.4 on a small project: an issue, what bandit says under it and the
    quoted lines are one finding; High ranks as an error, Low as a convention."""
    lines = [
        ">> Issue: [B101:assert_used] Use of assert detected. The enclosed code will be removed when compiling"
        " to optimised byte code.",
        "   Severity: Low   Confidence: High",
        "   CWE: CWE-703 (https://cwe.mitre.org/data/definitions/703.html)",
        "   More Info: https://bandit.readthedocs.io/en/1.9.4/plugins/b101_assert_used.html",
        "   Location: src/inventory/stock.py:28:8",
        "27\t    def remove(self, name: str, qty: int) -> int:",
        "28\t        assert qty > 0",
        "29\t        left = self.items[name] - qty",
        ">> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True identified,"
        " security issue.",
        "   Severity: High   Confidence: High",
        "   CWE: CWE-78 (https://cwe.mitre.org/data/definitions/78.html)",
        "   More Info: https://bandit.readthedocs.io/en/1.9.4/plugins/b602_subprocess_popen_with_shell_equals_true.html",
        "   Location: src/inventory/stock.py:53:11",
        "52\tdef run_report(cmd):",
        '53\t    return subprocess.call("report " + cmd, shell=True)',
        "54",
        "Code scanned:",
    ]
    low, high = found = units_of(lines)
    assert [(u.gathered, u.place, len(u.lines)) for u in found] == [
        ("B101", "src/inventory/stock.py:28", 8),
        ("B602", "src/inventory/stock.py:53", 8),
    ]
    assert high.priority > low.priority
    assert high.short == (lines[8], lines[9], lines[12])  # the issue, its severity, its place
    assert "Code scanned:" in parse("finding", lines)


def test_eslint_findings_take_the_path_of_the_file_above_them():
    lines = ["", "/repo/src/users.js", "   2:7   error  'path' is assigned a value but never used  no-unused-vars"]
    lines += ["  18:24  error  'result' is not defined  no-undef", "", "✖ 2 problems (2 errors, 0 warnings)"]
    parsed = parse("finding", lines)
    assert [(u.gathered, u.place) for u in parsed if isinstance(u, Unit)] == [
        ("no-unused-vars", "/repo/src/users.js:2"),
        ("no-undef", "/repo/src/users.js:18"),
    ]
    assert "/repo/src/users.js" in parsed  # the heading stays with them


def test_a_flood_keeps_the_projects_errors_and_counts_every_code_it_cuts():
    lines = []
    for f in range(40):
        for n in range(1, 8):
            lines.append(f"vendor/lib/mod_{f:02d}.py:{n * 10}:1: E501 Line too long ({100 + n} > 79)")
        lines.append(f"vendor/lib/mod_{f:02d}.py:2:1: F401 'sys' imported but unused")
    lines[150:150] = ["src/app.py:12:5: F821 undefined name 'ordr'", "src/app.py:30:1: E711 comparison to None"]
    text = shown(fit(parse("finding", lines), 2500))
    readable = decoded(text)
    assert "src/app.py:12:5: F821 undefined name 'ordr'" in readable and "src/app.py:30:1: E711" in readable
    # every code cut is counted on one line naming where its first findings are, their folder said once
    # (said under the folder they share with the findings shown: `vendor/lib/:` then `  ... N more E501 (mod_…`)
    assert re.search(r"more E501 \((?:in vendor/lib/: |vendor/lib/)?mod_", text)
    assert "more F401 (" in text
    assert len(text) <= 2500
    # the findings of one file shown together say its path once
    assert "src/app.py:\n  12:5: F821" in text and unexplained_lines("\n".join(lines), text) == []


def test_a_marker_says_more_only_of_a_code_with_a_finding_shown():
    """`... 18 more W0613 …` would tell of findings shown above: a code none of whose
    findings is shown is counted without it (`... 18 W0613 …`)."""
    lines = [f"pkg/e{k}.py:{k}:0: E1101: Module 'sys' has no 'x{k}' member (no-member)" for k in range(12)]
    lines += [f"pkg/w{k}.py:{k}:0: W0613: Unused argument 'x' (unused-argument)" for k in range(18)]
    text = shown(fit(parse("finding", lines), 900))
    assert "pkg/e0.py:0:0: E1101" in decoded(text) and ": W0613:" not in text
    assert re.search(r"\.\.\. 18 W0613 \(", text) and "more W0613" not in text


def test_findings_of_one_file_say_its_path_once_and_read_back_whole():
    lines = [f"pkg/mod.py:{n}:1: E501 Line too long ({100 + n} > 79)" for n in range(1, 40)]
    lines += [
        "pkg/mod.py:50: note: a note of its own",
        "  a note's indented detail",
        "pkg/other.py:3:1: F401 'os' imported",
    ]
    text = shown(fit(parse("finding", lines), 100_000))
    assert text.startswith("pkg/mod.py:\n  1:1: E501") and "\n  50: note: a note of its own" in text
    assert decoded(text).replace("pkg/mod.py:\n", "", 1) == "\n".join(lines)


def test_findings_that_say_the_same_at_several_places_say_it_once_and_read_back_whole():
    """One file's findings alike but for their place are one line, the places in a
    brace list at the first of them; a finding with lines under it (its excerpt) keeps
    its own line, and a message holding a brace is never put in a brace list."""
    said = ": C0116: Missing function or method docstring (missing-function-docstring)"
    lines = [
        f"pkg/mod.py:108:4{said}",
        "pkg/mod.py:110:0: W0611: Unused import os (unused-import)",
        f"pkg/mod.py:116:4{said}",
        "pkg/mod.py:120:4: C0209: Formatting {x} could be an f-string (consider-using-f-string)",
        "pkg/mod.py:125:4: C0209: Formatting {x} could be an f-string (consider-using-f-string)",
        f"pkg/mod.py:128:4{said}",
        "pkg/mod.py:130: error: Function is missing a type annotation  [no-untyped-def]",
        "pkg/mod.py:131: error: Function is missing a type annotation  [no-untyped-def]",
        f"pkg/mod.py:140:4{said}",
        "    | def g(): ...",
    ]
    items = fit(parse("finding", lines), 100_000)
    assert input_lines(items) == len(lines)  # each line said together counts the findings it stands for
    text = shown(items)
    assert text.split("\n")[:3] == [
        "pkg/mod.py:",
        f"  {{108:4,116:4,128:4}}{said}",
        "  110:0: W0611: Unused import os (unused-import)",
    ]
    assert "  {130,131}: error: Function is missing a type annotation  [no-untyped-def]" in text
    assert "  120:4: C0209" in text and "  125:4: C0209" in text  # a brace in the message: each on its own
    assert f"  140:4{said}\n    | def g(): ..." in text  # with its excerpt: its own line
    assert sorted(decoded(text).split("\n")[1:]) == sorted(lines)
    assert unexplained_lines("\n".join(lines), text) == []


def test_errors_stay_while_conventions_and_warnings_go_first():
    lines = [
        f"pkg/m{k}.py:{k}:0: C0116: Missing function or method docstring (missing-function-docstring)"
        for k in range(80)
    ]
    lines += [f"pkg/w{k}.py:{k}:0: W0613: Unused argument 'x' (unused-argument)" for k in range(30)]
    lines += [f"pkg/e{k}.py:{k}:0: E1101: Module 'sys' has no 'x' member (no-member)" for k in range(5)]
    lines += ["", "Your code has been rated at 3.10/10"]
    text = shown(fit(parse("finding", lines), 1500))
    assert all(f"pkg/e{k}.py:{k}:0: E1101" in decoded(text) for k in range(5))
    assert "C0116" in text and "more C0116" in text  # the conventions are counted, not shown
    assert text.count(": C0116:") < 3


def test_a_hundred_codes_are_counted_on_one_line_when_a_line_each_does_not_fit():
    lines = [f"lib/x{k}.py:{k}:0: C{1000 + k}: some convention (conv-{k})" for k in range(100)]
    lines += ["lib/y.py:1:0: E0602: Undefined variable 'z' (undefined-variable)"]
    text = shown(fit(parse("finding", lines), 1200))
    assert "lib/y.py:1:0: E0602: Undefined variable 'z' (undefined-variable)" in decoded(text)
    # one line for the whole tier (what room is left shows the first findings themselves)
    assert text.count("more findings: C10") == 1 and text.count(" omitted ...") == 1
    assert len(text) <= 1200


def test_each_codes_first_finding_outlasts_a_second_finding_of_any_code():
    """Past the room, every code keeps one line that says what it means: a
    convention's first finding stays while warnings lose their second ones, and
    errors still come first."""
    lines = [f"pkg/mod.py:{n}:0: E1101: Module 'os' has no 'startfile' member (no-member)" for n in (1, 2)]
    lines += [f"pkg/mod.py:{10 + n}:4: W0613: Unused argument 'arg_{n}' (unused-argument)" for n in range(30)]
    lines += [f"pkg/mod.py:{50 + n}:0: C0{400 + n}: Convention number {n} (convention-{n})" for n in range(6)]
    text = decoded(shown(fit(parse("finding", lines), 1300)))
    assert "mod.py:1:0: E1101" in text and "mod.py:2:0: E1101" in text
    for n in range(6):
        assert f"C0{400 + n}: Convention number {n} (convention-{n})" in text
    assert "W0613: Unused argument 'arg_0'" in text  # the warning's first
    assert "more W0613" in text  # and its others counted


def test_a_code_found_once_outlasts_the_first_finding_of_a_code_found_often():
    """Past the room for every code's first finding, a code that occurs once keeps its
    finding longest (ruff --select ALL over Flask: `S307` once among 190 `D205`): cut, it
    would cost a marker line of its own and its message, where the first of a frequent
    code shares the marker that counts the others."""
    lines = []
    for k in range(40):  # forty frequent codes, three findings each, spread over the files
        lines += [f"src/m{k:02d}.py:{n}:5: D{100 + k} Docstring rule number {k} is not met here" for n in (1, 2, 3)]
    lines += ["src/z_last.py:1028:13: S307 Use of possibly insecure function; consider using `ast.literal_eval`"]
    text = decoded(shown(fit(parse("finding", lines), 2500)))
    assert "src/z_last.py:1028:13: S307 Use of possibly insecure function" in text
    assert "D100 Docstring rule number 0" in text  # the first codes' first findings too


def test_each_files_first_convention_outlasts_the_other_conventions():
    """Past the room, every file linted keeps a line that names it (shellcheck over
    /usr/bin: gpg-zip's six findings, of codes apt-key had shown first, all went): a
    file's first convention stays while the conventions of a file with many go, and
    warnings still come first."""
    lines = [f"pkg/big.py:{n}:0: W0613: Unused argument 'x{n}' (unused-argument)" for n in range(1, 12)]
    lines += [  # each says something of its own: none is said together with another
        f'pkg/big.py:{n}:4: C0103: Variable name "v{n}" doesn\'t conform to snake_case naming style (invalid-name)'
        for n in range(100, 400, 10)
    ]
    for name in ("gpg.py", "less.py", "zip.py"):
        lines += [
            f"pkg/{name}:{n}:4: C0116: Missing function or method docstring (missing-function-docstring)"
            for n in (139, 141, 142)
        ]
    text = decoded(shown(fit(parse("finding", lines), 1500)))
    for name in ("gpg.py", "less.py", "zip.py"):
        assert f"pkg/{name}:139:4: C0116: Missing function" in text
    assert all(f"pkg/big.py:{n}:0: W0613" in text for n in range(1, 12))
    assert "pkg/big.py:390:4: C0103" not in text and "more C0103" in text


def test_a_file_saying_one_thing_at_hundreds_of_places_wraps_its_places_and_reads_back_whole():
    """A brace list of places wider than a line (reencode.BRACE_WIDTH) goes on several
    lines of the same message, each read back on its own."""
    said = ": C0116: Missing function or method docstring (missing-function-docstring)"
    lines = [f"pkg/big.py:{n}:4{said}" for n in range(10, 4010, 10)]
    text = shown(fit(parse("finding", lines), 100_000))
    together = text.split("\n")[1:]
    assert len(together) > 2 and all(line.startswith("  {") and line.endswith(said) for line in together)
    assert all(len(line) <= 1000 for line in together)
    assert sorted(decoded(text).split("\n")[1:]) == sorted(lines)
    assert unexplained_lines("\n".join(lines), text) == []


def _scenario(name):
    from conftest import REPO

    text = (REPO / "tests" / "scenarios" / f"{name}.out").read_text()
    return text, [line for line in text.splitlines() if line.strip()]  # the rule skips blank lines


def test_esbuild_messages_are_findings_with_their_place_quoted_line_and_notes():
    _, lines = _scenario("npx-esbuild-27-warnings")
    found = units_of(lines)
    assert len(found) == 27
    first = found[0]
    assert first.lines[:2] == (
        '▲ [WARNING] The "typeof" operator will never evaluate to "elemnt" [impossible-typeof]',
        "    src/index.js:5:20:",
    )
    assert (first.gathered, first.place, first.priority) == ("impossible-typeof", "src/index.js:5", 2 + 3)
    duplicate = next(unit for unit in found if unit.gathered == "duplicate-object-key")
    # the finding's own quoted line stays in its trimmed form; the note's place and squiggles go
    assert duplicate.trimmed == duplicate.lines[:3]
    assert "The original key" in shown(duplicate.lines)
    assert duplicate.short == duplicate.lines[:2]


def test_esbuild_past_the_budget_keeps_its_errors_and_counts_each_kind_of_warning():
    text, lines = _scenario("npx-esbuild-missing-exports")
    parsed = parse("finding", lines)
    assert [unit.priority for unit in parsed if isinstance(unit, Unit)].count(3 + 3) == 3  # errors
    cut = shown(fit(parsed, 1800))
    for error in ('for import "missingHelper"', 'for import "unknownExport"', 'for import "currencyOf"'):
        assert error in cut
    assert "src/view.js:3:28:" in cut and "27 warnings and 3 errors" in cut
    kinds = {unit.gathered for unit in parsed if isinstance(unit, Unit) and unit.gathered != "errors"}
    assert len(kinds) == 9
    for kind in kinds:  # each kind of warning shown, or counted with its first places
        assert f"[{kind}]" in cut or re.search(rf"^\.\.\. \d+ (?:more )?{kind} \(.*src/", cut, re.MULTILINE), kind
    assert "in src/: " in cut
    assert unexplained_lines(text, cut) == []


def test_clippys_documentation_links_go_whatever_the_size_and_its_suggestions_stay():
    from conftest import reduce_wire

    from tokenjuice.rules.index import load

    text, _ = _scenario("cargo-clippy-shelf")
    catalogue = load(builtin_only=True)
    whole = reduce_wire(catalogue, command="cargo clippy", combined=text, exit_code=0)["inlineText"]
    cut = reduce_wire(catalogue, command="cargo clippy", combined=text, exit_code=0, max_inline_chars=2000)
    assert len(whole) < len(text)  # small enough to be shown whole, yet the links go
    for shown_text in (whole, cut["inlineText"]):
        assert "for further information visit" not in shown_text
        for suggestion in (
            "help: replace it with: `sum += *p`",  # under the carets
            "help: remove `return`",
            "help: try: `book.tags.first()`",
        ):
            assert suggestion in shown_text
    assert "   |     ^^^^^^^^^^^^^^^^^^^^\n" in whole and "   |     ^^^^^^^^^^^^^^^^^^^^\n" not in cut["inlineText"]


def test_a_shellcheck_block_is_one_finding_of_its_worst_code_at_its_heading():
    """shellcheck's tty blocks (captured: ShellCheck 0.9.0, `shellcheck bashbug`): the
    heading names the place, the script's line and the suggested fix belong to the block."""
    lines = [
        "In bashbug line 57:",
        "do_help= do_version=",
        "        ^-- SC1007 (warning): Remove space after = if trying to assign a value (for empty string, use var='' ... ).",
        "In bashbug line 135:",
        "\telif [ -x /usr/bin/vim; then",
        "        ^-- SC1009 (info): The mentioned syntax error was in this elif clause.",
        "             ^-- SC1073 (error): Couldn't parse this test expression. Fix to allow more checks.",
        "In apt-key line 37:",
        "\techo >&${GPGSTATUSFD} '[APTKEY:] WARNING' \"$@\"",
        "               ^------------^ SC2086 (info): Double quote to prevent globbing and word splitting.",
        "Did you mean: ",
        '\techo >&"${GPGSTATUSFD}" \'[APTKEY:] WARNING\' "$@"',
        "For more information:",
        "  https://www.shellcheck.net/wiki/SC1007 -- Remove space after = if trying to...",
    ]
    parsed = parse("finding", lines)
    found = [u for u in parsed if isinstance(u, Unit)]
    assert [(u.gathered, u.place) for u in found] == [
        ("SC1007", "bashbug:57"),
        ("SC1073", "bashbug:135"),  # its worst code, not its first
        ("SC2086", "apt-key:37"),
    ]
    assert found[1].priority > found[0].priority  # the parse error outlasts the warning
    assert found[1].short == (lines[3], lines[5], lines[6])  # the heading and its carets
    assert found[2].trimmed == tuple(lines[7:10])  # the suggested fix goes first
    assert parsed[-2:] == lines[-2:]  # the wiki links are no finding's


def test_shellcheck_blocks_past_the_budget_keep_the_parse_error_and_count_the_rest():
    lines = []
    for n in range(1, 120):
        lines += [
            f"In deploy.sh line {n * 3}:",
            f"cp $src{n} /srv",
            "   ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.",
        ]
        lines += ["Did you mean: ", f'cp "$src{n}" /srv']
    lines[200:200] = [
        "In deploy.sh line 200:",
        "if [ -x /bin/sh; then",
        "   ^-- SC1073 (error): Couldn't parse this test expression.",
    ]
    text = shown(fit(parse("finding", lines), 1500))
    assert "In deploy.sh line 200:\nif [ -x /bin/sh; then\n   ^-- SC1073 (error)" in text
    assert re.search(r"\.\.\. \d+ more SC2086 \(deploy\.sh:", text)
    assert len(text) <= 1500 and unexplained_lines("\n".join(lines), text) == []


def _ruff_full(code_message, path, place, excerpt=True):
    """A finding as `ruff check` prints it in its full format: its heading, the place
    under it, and the source excerpt (gutter, line, carets)."""
    line = place.split(":")[0]
    found = [code_message, f"  --> {path}:{place}"]
    return found + (["   |", f"{line:>2} | x = call()", "   |     ^^^^^^", ""] if excerpt else [""])


def test_findings_under_one_heading_are_said_together_a_line_per_file_and_read_back_whole():
    """Findings that say the same under one heading (ruff's full format) are the
    heading once and a `-->` line per file with its places in a brace list; files
    found at one place alike share a line (`--> src/{a.py,b.py}:1:1`). A cut that
    shows them in that form spends its room on what differs: every place of the
    docstring findings and the error fit where the headings said again did not."""
    lines = ["F821 Undefined name `ordr`", "  --> src/z.py:48:12", ""]
    for path in ("src/a.py", "src/b.py", "src/c.py"):
        lines += _ruff_full("CPY001 Missing copyright notice at top of file", path, "1:1", excerpt=False)
    for path, places in (("src/a.py", ("3:5", "9:5", "30:9")), ("src/b.py", ("12:5", "40:9"))):
        for place in places:
            lines += _ruff_full("D205 1 blank line required between summary line and description", path, place)
    lines += ["Found 9 errors."]
    text = shown(fit(parse("finding", lines), 600))
    assert "F821 Undefined name `ordr`" in text
    assert "--> src/{b.py,c.py}:1:1" in text  # the first stays on its own: it says what CPY001 means
    assert "  --> src/a.py:{9:5,30:9}" in text and "  --> src/b.py:{12:5,40:9}" in text
    assert text.count("D205 1 blank line") == 2  # the code's first, then the others said together
    readable = decoded(text)
    for place in ("src/a.py:3:5", "src/a.py:30:9", "src/b.py:40:9", "src/c.py:1:1"):
        assert f"--> {place}" in readable
    assert unexplained_lines("\n".join(lines), text) == []


def test_a_marker_counts_the_findings_said_together_not_their_lines():
    """Dropped, findings said together are counted one by one in their code's marker,
    with their places."""
    said = ": C0414: Import alias does not rename original package (useless-import-alias)"
    lines = [f"pkg/__init__.py:{n}:0{said}" for n in range(10, 74)]
    lines += [f"pkg/m{k}.py:{k}:0: E1101: Module 'os' has no 'x{k}' member (no-member)" for k in range(20)]
    text = shown(fit(parse("finding", lines), 1500))
    assert all(f"pkg/m{k}.py:{k}:0: E1101" in decoded(text) for k in range(20))
    # under the folder said once over the findings shown (`pkg/:`), the marker names the file within it
    assert re.search(r"\.\.\. 63 more C0414 \((?:pkg/)?__init__\.py:11,12,13, …\) omitted \.\.\.", text)


def test_one_line_findings_said_together_outlast_single_ones_of_their_rank():
    """Of findings that matter alike, those said together (sixty places on one line)
    stay while single ones go: they keep many findings for the room of a few."""
    said = ": C0414: Import alias does not rename original package (useless-import-alias)"
    lines = [f"pkg/__init__.py:{n}:0{said}" for n in range(10, 74)]
    lines += [f'pkg/cli.py:{n}:4: C0103: Variable name "v{n}" doesn\'t conform (invalid-name)' for n in range(20)]
    text = decoded(shown(fit(parse("finding", lines), 1500)))
    assert all(f"pkg/__init__.py:{n}:0{said}" in text for n in range(10, 74))
    assert "more C0103" in text


def test_files_found_once_each_under_one_heading_share_a_line_and_read_back():
    """`ruff format --check` says the same of twelve files, once each: one `-->` line
    under the shared folder, each file with its place, read back into every finding."""
    lines = []
    for path, place in (("pkg/a.py", "6:16"), ("pkg/b.py", "7:20"), ("pkg/sub/c.py", "5:15")):
        lines += ["unformatted: File would be reformatted", f" --> {path}:{place}", "  |", "6 | x=1", "  |", ""]
    lines += ["3 files would be reformatted"]
    text = shown(fit(parse("finding", lines), 200))
    assert " --> pkg/{a.py:6:16,b.py:7:20,sub/c.py:5:15}" in text
    readable = decoded(text)
    assert all(f"--> {path}" in readable for path in ("pkg/a.py:6:16", "pkg/b.py:7:20", "pkg/sub/c.py:5:15"))
    assert unexplained_lines("\n".join(lines), text) == []


def test_tscs_findings_of_one_file_say_its_path_once_and_read_back_whole():
    """tsc prints `path(line,col): error …`: a file's run of findings is its path once,
    then each place (`  (12,5): error …`), its elaboration under it as printed."""
    lines = [
        f"src/shop/cart.ts({n},9): error TS7006: Parameter 'p{n}' implicitly has an 'any' type." for n in range(1, 9)
    ]
    lines += [
        "src/shop/cart.ts(30,48): error TS2339: Property 'version' does not exist on type 'symbol | SemVer'.",
        "  Property 'version' does not exist on type 'symbol'.",
        "src/shop/tax.ts(4,2): error TS2532: Object is possibly 'undefined'.",
        "src/shop/tax.ts(9,2): error TS2532: Object is possibly 'undefined'.",
    ]
    text = shown(fit(parse("finding", lines), 100_000))
    assert text.startswith("src/shop/cart.ts:\n  (1,9): error TS7006: Parameter 'p1' implicitly")
    assert "\n  (30,48): error TS2339: Property 'version' does not exist on type 'symbol | SemVer'.\n" in text
    assert "\nsrc/shop/tax.ts:\n  (4,2): error TS2532" in text
    assert decoded(text).replace("src/shop/cart.ts:\n", "").replace("src/shop/tax.ts:\n", "") == "\n".join(lines)
    assert unexplained_lines("\n".join(lines), text) == []


def test_a_cut_says_the_folder_its_findings_share_once_and_its_markers_within_it():
    """Cut, pylint's findings of an installed package (`.venv/lib/…/click/`) say that
    folder once over them, each file within it, and the markers that count a code's
    other findings name their files within it too; every finding reads back whole."""
    folder = ".venv/lib/python3.11/site-packages/click/"
    lines = []
    for k in range(30):  # many files of few findings each: a folder's worth saying once
        lines.append(
            f"{folder}m{k}.py:{k + 1}:8: W0212: Access to a protected member _x{k} of a client class (protected-access)"
        )
        lines.append(f"{folder}m{k}.py:{k + 40}:4: W0622: Redefining built-in 'type{k}' (redefined-builtin)")
        lines.append(
            f"{folder}m{k}.py:{k + 60}:8: W0212: Access to a protected member _x{k} of a client class (protected-access)"
        )
    lines += [f"{folder}utils.py:{n}:0: E1101: Module 'os' has no 'x{n}' member (no-member)" for n in range(1, 4)]
    text = shown(fit(parse("finding", lines), 2500))
    assert text.startswith(folder + ":\n")
    assert re.search(r"\n    \{\d+:8,\d+:8\}: W0212: Access to a protected member", text)  # said together, within
    assert text.count(folder) == 1  # once, not on every file's heading and every marker
    assert re.search(r"\n  \.\.\. \d+ more W0212 \(m\d+\.py:[\d,]+, m\d+\.py:[\d,]+, …\) omitted \.\.\.", text)
    readable = decoded(text)
    assert all(
        f"{folder}utils.py:{n}:0: E1101: Module 'os' has no 'x{n}' member (no-member)" in readable for n in range(1, 4)
    )
    # (decoded keeps a line said together as shown, beside the findings it stands for)
    shown_findings = [
        line for line in readable.split("\n") if line.startswith(folder) and line[-1] != ":" and "{" not in line
    ]
    assert len(shown_findings) > 20 and set(shown_findings) <= set(lines) and len(text) <= 2500
    assert unexplained_lines("\n".join(lines), text) == []


def test_a_line_under_a_finding_is_never_swapped_for_a_longer_marker():
    """Cut, a finding keeps the one line under it (tsc's elaboration) where the marker
    that would count it takes as much room; a run of many such lines is still counted
    by one marker."""
    lines = []
    for n in range(1, 41):
        lines.append(f"src/a{n}.ts({n},3): error TS2322: Type 'number' is not assignable to type 'string'.")
        if n % 2:
            lines.append(f"  Type 'number' is not assignable to 'Row{n}'.")
    text = shown(fit(parse("finding", lines), 3200))
    assert "lines of" not in text and "line of" not in text  # no marker counting a line under a finding
    assert "  Type 'number' is not assignable to 'Row1'." in text
    many = [f"src/b.ts({n},3): error TS2322: Type 'number' is not assignable." for n in range(1, 40)]
    many = [line for n, first in enumerate(many) for line in (first, f"  Type 'number' is not assignable to 'Row{n}'.")]
    text = shown(fit(parse("finding", many), 2000))
    assert re.search(r"\.\.\. \d+ lines of \d+ findings", text)  # side by side, one marker counts them all


def test_a_findings_explanation_outlasts_its_source_excerpt():
    """Cut to their least worth, findings keep what explains them in words (tsc's
    elaboration, mypy's notes at the place, pyright's rule under its message) and lose
    their source excerpts (a gutter, carets)."""
    tsc = units_of(
        [
            "src/a.ts(3,7): error TS2322: Type 'number' is not assignable to type 'string'.",
            "  Type 'number' is not assignable to type 'Row'.",
        ]
    )[0]
    assert tsc.trimmed in ((), tsc.lines)  # nothing in it is worth least
    mypy = units_of(
        [
            'pkg/m.py:12: error: No overload variant of "get" matches argument type "int"  [call-overload]',
            "pkg/m.py:12: note: Possible overload variants:",
            "pkg/m.py:12: note:     def get(self, key: str) -> int",
        ]
    )[0]
    assert mypy.trimmed in ((), mypy.lines)
    gcc = units_of(
        [
            "main.c:5:9: warning: unused variable 'x' [-Wunused-variable]",
            "    5 |     int x;",
            "      |         ^",
        ]
    )[0]
    assert gcc.trimmed == ("main.c:5:9: warning: unused variable 'x' [-Wunused-variable]",)


def test_a_long_diagnostic_keeps_its_end_where_a_long_excerpt_line_is_clipped():
    """tsc's message about a long type is 300-400 characters and ends with what to do:
    a diagnostic's own line is shown whole (up to 1,000), a line under it clipped at 300."""
    message = (
        "src/a.ts(8,14): error TS2375: Type '{ "
        + "; ".join(f"field{k}: null" for k in range(20))
        + "; }' is not assignable to type 'GlobalConfig' with 'exactOptionalPropertyTypes: true'. "
        "Consider adding 'undefined' to the types of the target's properties."
    )
    excerpt = "    " + "x" * 400
    found = units_of([message, excerpt])[0]
    assert len(message) > 400 and found.lines[0] == message
    assert len(found.lines[1]) < 340  # clipped, its marker in the middle


def test_a_codes_marker_says_in_which_folder_only_where_all_its_findings_are():
    """`... 7 more UP031 (in formatters/: a.py:3, …)` would say all seven are there: the
    folder a marker says its places are in is the one all the code's findings share."""
    lines = [
        f"src/app/formatters/f{k}.py:{k + 1}:5: UP031 Use format specifiers instead of percent format" for k in range(4)
    ]
    lines += [f"src/app/cli/c{k}.py:{k + 1}:5: UP031 Use format specifiers instead of percent format" for k in range(4)]
    lines += [f"src/app/m{k}.py:{k + 1}:1: F821 Undefined name `x{k}`" for k in range(20)]
    text = shown(fit(parse("finding", lines), 1000))
    marker = next(line for line in text.split("\n") if "UP031 (" in line)
    assert "in src/app/formatters/:" not in marker and "formatters/" in marker


def test_an_error_keeps_the_function_the_compiler_says_it_is_in_and_a_warning_does_not():
    """gcc's `main.c: In function ‘main’:` says where the error below it is: it stays
    the first line of the error's unit (also when cut short), read back as printed; above
    a warning it goes, as the rule always dropped it."""
    lines = [
        "tmpl.cpp: In function ‘int main()’:",
        "tmpl.cpp:25:24: error: no match for ‘operator[]’ (operand types are ‘std::map<int, int>’ and ‘int’)",
        "util.c: In function ‘helper’:",
        "util.c:13:5: warning: unused variable ‘x’ [-Wunused-variable]",
    ]
    found = units_of(lines)
    assert found[0].short[0] == "tmpl.cpp: In function ‘int main()’:" and found[0].short[1].startswith("tmpl.cpp:25:24")
    assert found[1].lines == ("util.c:13:5: warning: unused variable ‘x’ [-Wunused-variable]",)
    text = shown(fit(parse("finding", lines), 100_000))
    assert "util.c: In function" not in text and unexplained_lines("\n".join(lines), text) == []


def test_a_marker_under_a_folder_said_once_names_what_it_counts_within_it():
    """Under `P/:` a code's marker names its places within P (`in sub/:` for a folder
    within it, nothing for P itself), an excerpt marker stays as it is, and a marker
    that names a place outside P ends the folder's lines (None)."""
    from tokenjuice.reduce.lines import Omission
    from tokenjuice.reduce.units import _inside

    def said(detail):
        found = _inside(Omission(5, detail), "pkg/")
        return None if found is None else found.detail

    assert said("12 more W0212 (in pkg/: a.py:3, b.py:7, …)") == "12 more W0212 (a.py:3, b.py:7, …)"
    assert said("12 more W0212 (in pkg/sub/: a.py:3, b.py:7, …)") == "12 more W0212 (in sub/: a.py:3, b.py:7, …)"
    assert said("7 more W0621 (pkg/core.py:3,9)") == "7 more W0621 (core.py:3,9)"
    assert said("21 lines of 1 finding (source excerpts)") == "21 lines of 1 finding (source excerpts)"
    assert said("7 more W0621 (lib/core.py:3,9)") is None


def test_the_function_a_compiler_names_goes_with_the_next_finding_only():
    """A line between `In function ‘f’:` and the next error (the linker's, a summary)
    ends what it says: the error after that is not said to be in `f`."""
    lines = [
        "a.c: In function ‘f’:",
        "collect2: error: ld returned 1 exit status",
        "a.c:9:3: error: ‘y’ undeclared (first use in this function)",
    ]
    error = units_of(lines)[-1]
    assert error.lines == ("a.c:9:3: error: ‘y’ undeclared (first use in this function)",)


def test_a_warning_in_a_headers_macro_keeps_where_the_code_used_the_macro():
    """gcc places a diagnostic inside a macro at the macro's definition in a header
    (`lgc.h:136:32`, five times alike in one function) and names the code that used it
    in a note (`lapi.c:1189:7: note: in expansion of macro ‘setgcparam’`): the rule keeps
    that note, and a finding cut to its short form keeps the last one (the outermost use)
    while its quoted lines and the macro's definition note go."""
    lines = [
        "lgc.h:136:32: warning: conversion from ‘int’ to ‘lu_byte’ {aka ‘unsigned char’} may change value [-Wconversion]",
        "  136 | #define setgcparam(p,v) ((p) = (v) / 4)",
        "llimits.h:102:34: note: in definition of macro ‘check_exp’",
        "lstate.h:231:33: note: in expansion of macro ‘setgcparam’",
        "lapi.c:1189:7: note: in expansion of macro ‘outer’",
        " 1189 |       outer(g->gcpause, data);",
    ]
    (found,) = units_of(lines)
    assert found.short == (lines[0], "lapi.c:1189:7: note: in expansion of macro ‘outer’")
    text, _ = _scenario("gcc-wconversion-lua-src")
    cut = reduced_by_rule("gcc -Wall -Wextra -Wconversion -O2 -c *.c", text, 3000)
    shown_lines = cut.split("\n")
    headers = [k for k, line in enumerate(shown_lines) if re.match(r"^l\w+\.h:\d+:\d+: warning: ", line)]
    assert len(headers) >= 3
    for k in headers:  # each is followed by the place in a .c file that used its macro
        assert re.match(r"^l\w+\.c:\d+:\d+: note: in expansion of macro ‘\w+’$", shown_lines[k + 1]), shown_lines[k]
    assert "lapi.c:1189:7: note: in expansion of macro ‘setgcparam’" in cut
    assert "note: in definition of macro" not in cut and unexplained_lines(text, cut) == []


def reduced_by_rule(command, text, budget):
    from conftest import tokenjuice

    done = tokenjuice("reduce", "--command", command, "--max-inline-chars", str(budget), input=text)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def test_findings_shown_without_their_excerpts_say_their_file_once():
    """gcc's warnings cut to their diagnostic line (the quoted source left out) are
    said under their file's heading as whole findings are, and the same warning at
    several places of the file once (`lcode.c:` then `  {419:20,430:20,453:44}: …`):
    a flood of short forms was shown with the path on every line. Read back, every
    shown finding is a line gcc printed."""
    text, lines = _scenario("gcc-wconversion-lua-src")
    cut = reduced_by_rule("gcc -Wall -Wextra -Wconversion -O2 -c *.c", text, 6000)
    said = "warning: conversion to ‘unsigned int’ from ‘int’ may change the sign of the result [-Wsign-conversion]"
    assert "\nlcode.c:\n  342:21: " in cut and f"\n  {{419:20,430:20,453:44}}: {said}\n" in cut
    assert "\nlcode.c:419:20: " not in cut
    spelled = decoded(cut).split("\n")
    assert all(f"lcode.c:{place}: {said}" in spelled for place in ("419:20", "430:20", "453:44"))
    assert [line for line in spelled if re.match(r"^l\w+\.[ch]:\d+:\d+: ", line) and line not in lines] == []
    assert unexplained_lines(text, cut) == []


def test_the_projects_own_findings_outlast_the_places_of_a_vendored_copys_codes():
    """ruff over a project with a vendored requests and urllib3: at 4,500 characters the
    project's own 20 findings were cut to 16 so that 25 markers could name where each
    vendored code's first findings are (at 3,000 all 20 were shown, the vendored codes
    counted on one line). Before a finding that matters more goes, the codes whose
    findings all matter less are counted on one line: more room never shows fewer of
    the project's findings."""
    text, lines = _scenario("ruff-check-vendored")
    own = [line.strip() for line in lines if line.strip().startswith("--> src/")]
    assert len(own) == 20
    shown_at = []
    for budget in (3000, 4500, 6000, 9000):
        cut = reduced_by_rule("ruff check .", text, budget)
        shown_at.append(sum(1 for place in own if place in cut))
        assert len(cut) <= budget and unexplained_lines(text, cut) == []
        if budget == 4500:
            assert "more findings: E501 34, SIM108 15" in cut
    assert shown_at == sorted(shown_at) and shown_at[1:] == [20, 20, 20], shown_at


def test_a_flood_of_findings_is_cut_to_the_room_whatever_its_markers_were_reckoned_at():
    """eslint over lodash: 1,470 errors in a few files, two rules' hundreds of findings
    counted by a marker each. The markers' estimated room went past the budget once, and
    the cut took that for a flood of names kept past the room (every file that matched):
    it showed 18,833 characters for a budget of 10,000. Only names are kept past it; the
    estimate of markers is corrected by measuring what was rendered."""
    text, _ = _scenario("eslint-lodash-big")
    cut = reduced_by_rule("npx eslint lodash/lodash.js lodash/fp", text, 10_000)
    assert len(cut) <= 10_000 and unexplained_lines(text, cut) == []
    assert "✖ 1470 problems (1470 errors, 0 warnings)" in cut and "more no-var (" in cut


def test_a_code_alone_keeps_its_places_rather_than_a_count_on_one_line():
    """Counting codes on one line (`… more findings: W0613 2`) pays only where it saves
    a line: a vendored code of two findings, dropped beside the project's errors, keeps
    its own marker and the places it names (it was counted without them)."""
    lines = [f"src/app/m{k}.py:{k + 1}:1: F821 Undefined name `x{k}`" for k in range(12)]
    lines += [f"vendor/lib/util.py:{n}:5: W0613: Unused argument 'ctx' (unused-argument)" for n in (10, 20)]
    for budget in (400, 500, 600):
        text = shown(fit(parse("finding", lines), budget))
        assert "... 2 W0613 (vendor/lib/util.py:10,20) omitted ..." in text, budget
        assert "findings: W0613" not in text and "src/app/m0.py:1:1: F821" in decoded(text)

"""Real linters' findings, cut and said in today's forms (a folder said once, a file's
path once over its places, places said together), read back by `decoded` and
explained by `verify` line for line: shapes taken from mypy --strict, flake8, ruff and
pylint runs over installed packages (tests/scenarios: mypy-strict-p-requests,
flake8-pip-vendor-distlib, ruff-concise-pip-vendor-pygments, pylint-requests-site-packages)."""

from tokenjuice.reduce.lines import render
from tokenjuice.reduce.reencode import decoded
from tokenjuice.reduce.units import fit, parse
from tokenjuice.rules.verify import unexplained_lines

FOLDER = ".venv/lib/python3.11/site-packages/requests/"


def shown(lines: list[str], budget: int) -> str:
    return "\n".join(render(fit(parse("finding", lines), budget)))


def test_places_said_together_under_a_file_within_a_folder_are_explained():
    """mypy's `Unused "type: ignore"` at several places of one file, cut, is said as
    `    {30,41,57}: error: …` under `  m0.py:` under the folder said once: verify reads
    it back as the findings it stands for (as decoded does), and every line after it."""
    lines = []
    for k in range(12):
        lines.append(
            f'{FOLDER}m{k}.py:{k + 1}: error: Module "urllib3" does not explicitly export "v{k}"  [attr-defined]'
        )
        lines += [
            f'{FOLDER}m{k}.py:{n + k}: error: Unused "type: ignore" comment  [unused-ignore]' for n in (30, 41, 57)
        ]
        lines.append(
            f'{FOLDER}m{k}.py:{k + 90}: error: Returning Any from function declared to return "str"  [no-any-return]'
        )
    lines.append("Found 60 errors in 12 files (checked 19 source files)")
    text = shown(lines, 3000)
    assert text.startswith(FOLDER + ":\n  m0.py:\n")
    assert '\n    {30,41,57}: error: Unused "type: ignore" comment  [unused-ignore]\n' in text
    assert f'{FOLDER}m0.py:41: error: Unused "type: ignore" comment  [unused-ignore]' in decoded(text).split("\n")
    assert unexplained_lines("\n".join(lines), text) == []


def test_eslints_unix_format_is_findings_with_their_rule_and_severity():
    """`eslint -f unix` says a finding's severity and rule last (`… [Error/eqeqeq]`,
    `… [Warning]` for an unused disable directive): each line is a finding, so a cut
    keeps the errors and counts each rule it drops, where a head and a tail lost the
    errors between them (eslint-f-unix-axios-lib)."""
    root = "/tmp/h46/es/axios/lib/"
    lines = [
        f"{root}adapters/http.js:{n}:12: 'e{n}' is defined but never used. [Error/no-unused-vars]" for n in range(1, 9)
    ]
    lines += [
        f"{root}core/Axios.js:{n}:7: 'v{n}' is never reassigned. Use 'const' instead. [Error/prefer-const]"
        for n in range(1, 40)
    ]
    lines += [
        f"{root}utils.js:{n}:3: Unused eslint-disable directive (no problems were reported from 'func-names'). [Warning]"
        for n in range(1, 30)
    ]
    lines += [
        f"{root}utils.js:13:6: 'hasOwnProperty' is already declared in the upper scope on line 12 column 7. [Error/no-shadow]"
    ]
    lines += ["", f"{len(lines)} problems"]
    text = shown(lines, 3000)
    readable = decoded(text)
    assert all(f"{root}adapters/http.js:{n}:12: 'e{n}'" in readable for n in range(1, 9))
    assert f"{root}utils.js:13:6: 'hasOwnProperty' is already declared" in readable
    # the warnings, worth less than any error, are counted on one line before an error goes
    assert "more prefer-const (" in text and "29 more findings: warnings 29" in text and "77 problems" in text
    assert len(text) <= 3000 and unexplained_lines("\n".join(lines), text) == []


def test_eslints_compact_format_is_findings_with_their_rule_and_severity():
    """`eslint -f compact` says `path: line 12, col 5, Error - … (rule)`: each line is a
    finding, so a cut keeps the rare rules' errors and counts the rule it drops, where a
    head and a tail lost what lay between (eslint-f-compact-async-internal)."""
    root = "/tmp/h46/es/async/internal/"
    lines = [
        f"{root}eachOfLimit.js: line {n}, col 1, Error - Unexpected var, use let or const instead. (no-var)"
        for n in range(1, 80)
    ]
    lines.insert(40, f"{root}queue.js: line 27, col 21, Error - Expected '===' and instead saw '=='. (eqeqeq)")
    lines += ["", f"{len(lines)} problems"]
    text = shown(lines, 2500)
    assert f"{root}queue.js: line 27, col 21, Error - Expected '===' and instead saw '=='. (eqeqeq)" in text
    assert "more no-var (" in text and "80 problems" in text
    assert len(text) <= 2500 and unexplained_lines("\n".join(lines), text) == []


def test_a_findings_elaboration_stays_under_its_file_within_a_folder():
    """tsc --pretty prints an error's elaboration two spaces in (`  'T' could be …`); cut,
    with the folder said once, the file's findings after it stay under the file's heading
    (four spaces in) instead of falling out to the folder's level as unexplained lines
    (tsc-pretty-rxjs-strict at 20,000 characters)."""
    d = "rxjs/src/internal/scheduler/"
    said = (
        "error TS4114: This member must have an 'override' modifier because it overrides a member in the base class"
        " 'AsyncAction<T>'."
    )
    lines = []
    for name in ["Action0", "Action1", "AsapAction", "Action2", "Action3"]:
        found = [f"{d}{name}.ts:{n}:13 - {said}" for n in (12, 25, 40)]
        if name == "AsapAction":
            found[1:1] = [
                f"{d}AsapAction.ts:26:5 - error TS2412: Type 'T | undefined' is not assignable to type 'T' with"
                " 'exactOptionalPropertyTypes: true'.",
                "  'T' could be instantiated with an arbitrary type which could be unrelated to 'T | undefined'.",
            ]
        lines += found
    lines += [f"{d}Other{k}.ts:{k}:3 - {said}" for k in range(1, 30)]
    lines += ["", "Found 46 errors in 34 files."]
    text = shown(lines, 3500)
    assert text.startswith(d + ":\n")
    assert (
        "\n  AsapAction.ts:\n    12:13 - error TS4114" in text
        and "\n    'T' could be instantiated with an arbitrary type which could be unrelated to 'T | undefined'.\n"
        "    25:13 - error TS4114"
        in text
    )
    assert text.count(d) == 1  # the folder is said once: the file's findings after the elaboration stay in it
    readable = decoded(text).split("\n")
    at = readable.index(
        "  'T' could be instantiated with an arbitrary type which could be unrelated to 'T | undefined'."
    )
    assert readable[at - 1 : at + 2] == lines[7:10]
    assert unexplained_lines("\n".join(lines), text) == []

"""Choose each scenario's must-keep and noise strings from its raw output and write <name>.toml.

Usage: python pick.py            write every <name>.toml
       python pick.py --check    only verify: every string is an exact substring of the
                                 ANSI-stripped output, 5-40 must-keep strings, and the
                                 TOML files match what this script writes

Each scenario below states, after reading its raw output (and never any compactor's
output), which lines an agent needs to act on it: failure ids and messages, error
locations, verdict lines, paths and values.  The code only copies those lines out of
the raw bytes exactly, so a recapture (whose temporary paths and timings differ) can
be picked again by the same rules.  Needs `packaging` (any venv with pip has it).
"""

import gzip
import json
import re
import sys
from pathlib import Path

from packaging.version import Version

OUT = Path(__file__).resolve().parent.parent
META = json.loads((OUT / "make/captured.json").read_text())
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
SPEC = {}
DEB = "Debian 12, 2026-11-27"


def text(name):
    f = OUT / META[name]["output_file"]
    b = f.read_bytes()
    if f.suffix == ".gz":
        b = gzip.decompress(b)
    return ANSI.sub("", b.decode("utf-8", "replace"))


def lines(name):
    return text(name).splitlines()


def add(name, description, source, must_keep, noise=(), bounded=False, published=False, day=DEB):
    """published: the output was taken verbatim from a public source (make/published.py), not run here."""
    SPEC[name] = dict(
        description=description,
        source=f"published: {source}" if published else f"captured: {source}, {day}",
        must_keep=list(must_keep),
        noise=list(noise),
        bounded=bounded,
    )


def q(s):
    return json.dumps(s, ensure_ascii=False)


def write_all(check_only=False):
    problems = []
    for name, s in SPEC.items():
        m = META[name]
        t = text(name)
        for k in s["must_keep"]:
            if k not in t:
                problems.append(f"{name}: must_keep not in output: {k!r}")
        for k in s["noise"]:
            if k not in t:
                problems.append(f"{name}: noise not in output: {k!r}")
        if len(set(s["must_keep"])) != len(s["must_keep"]):
            problems.append(f"{name}: duplicate must_keep")
        if not 5 <= len(s["must_keep"]) <= 40:
            problems.append(f"{name}: {len(s['must_keep'])} must_keep strings")
        body = [
            f"description = {q(s['description'])}",
            f"command = {q(m['command'])}",
            f"exit_code = {m['exit_code']}",
            f"source = {q(s['source'])}",
            f"output_file = {q(m['output_file'])}",
            f"bounded = {'true' if s['bounded'] else 'false'}",
            "must_keep = [",
            *[f"  {q(k)}," for k in s["must_keep"]],
            "]",
            "noise = [" + ("" if not s["noise"] else "\n" + "".join(f"  {q(k)},\n" for k in s["noise"])) + "]",
        ]
        toml = "\n".join(body) + "\n"
        path = OUT / f"{name}.toml"
        if check_only:
            if not path.exists() or path.read_text() != toml:
                problems.append(f"{name}: {path.name} differs from what pick.py writes")
        else:
            path.write_text(toml)
    missing = set(META) - set(SPEC)
    print("written", len(SPEC), "missing spec:", sorted(missing))
    print("\n".join(problems) or "no problems")
    return not problems


HDR = re.compile(r"^_{3,} (\S+) _{3,}$")
LOC = re.compile(r"^(\S+?\.py):(\d+): (\w+)$")


def pytest_blocks(name):
    """[(test name, first E line, raise location line)] in output order."""
    out = []
    cur = None
    for ln in lines(name):
        m = HDR.match(ln)
        if m or ln.startswith("=" * 5):
            if cur:
                out.append(cur)
            cur = [m.group(1), None, None] if m else None
            continue
        if cur is None:
            continue
        if ln.startswith("E ") and cur[1] is None:
            cur[1] = ln.rstrip()
        if LOC.match(ln):
            cur[2] = ln.rstrip()
    if cur:
        out.append(cur)
    return out


def failed_ids(name):
    """FAILED ids, leaving out any id that is a prefix of another (test_x_5 vs test_x_50)."""
    ids = [ln.split()[1] for ln in lines(name) if ln.startswith("FAILED ")]
    return [i for i in ids if not any(j != i and j.startswith(i) for j in ids)]


PY = "Python 3.11.7"
STD = "/root/.pyenv/versions/3.11.7/lib/python3.11/"


def tail2(line):
    """'a/b/c/d.py:12:text' -> 'c/d.py:12:text' (last two path parts, line, match)."""
    m = re.match(r"^(/\S+?\.py):(\d+):(.*)$", line)
    path, no, rest = m.groups()
    return "/".join(path.split("/")[-2:]) + f":{no}:{rest}"


def spread(items, n):
    """n items spread evenly, first and last included."""
    if len(items) <= n:
        return list(items)
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]


def matchlines(name):
    return [ln for ln in lines(name) if re.match(r"^/\S+?\.py:\d+:", ln)]


# ---------------------------------------------------------------- grep
ml = matchlines("grep-pip-cli-defs")
files = []
for ln in ml:
    f = ln.split(":")[0]
    if f not in [x.split(":")[0] for x in files]:
        files.append(ln)
picks = spread(ml, 22)
picks += [x for x in files if x not in picks]
add(
    "grep-pip-cli-defs",
    f"grep -rn over pip's _internal/cli package: {len(ml)} 'def ' matches in 12 files (modest, ~12 kB)",
    "GNU grep 3.8 over pip 23.2.1's package in a " + PY + " venv",
    [tail2(x) for x in sorted(picks, key=ml.index)],
)

ml = matchlines("grep-stdlib-isinstance-email")
add(
    "grep-stdlib-isinstance-email",
    f"grep -rn over the stdlib email package: {len(ml)} isinstance( matches, plus grep's 'binary file matches' notes for .pyc files",
    "GNU grep 3.8 over CPython 3.11.7's Lib/email",
    [tail2(x) for x in spread(ml, 40)],
    noise=["binary file matches"],
)

ml = matchlines("grep-stdlib-notimplemented")
firsts = {}
for ln in ml:
    firsts.setdefault(ln.split(":")[0], ln)
picks = list(firsts.values()) + spread(ml, 16)
picks = sorted(set(picks), key=ml.index)
add(
    "grep-stdlib-notimplemented",
    f"grep -rn --include=*.py over four stdlib packages: {len(ml)} 'raise NotImplementedError' matches in {len(firsts)} files (~13 kB)",
    "GNU grep 3.8 over CPython 3.11.7's Lib/{asyncio,email,importlib,concurrent}",
    [tail2(x) for x in picks],
)

ml = matchlines("grep-stdlib-isinstance-all")
add(
    "grep-stdlib-isinstance-all",
    f"grep -rn --include=*.py over the whole stdlib (tests excluded): {len(ml)} isinstance( matches (~200 kB); keep the first and last entries",
    "GNU grep 3.8 over CPython 3.11.7's Lib",
    [tail2(x) for x in ml[:8] + ml[-8:]],
)

ml = matchlines("grep-import-head-50")
add(
    "grep-import-head-50",
    "grep -rn 'import ' over asyncio bounded by | head -50 (whether grep's stderr notes about .pyc files"
    " get printed before head closes the pipe varies from run to run)",
    "GNU grep 3.8 over CPython 3.11.7's Lib/asyncio",
    [tail2(x) for x in spread(ml, 40)],
    noise=["binary file matches"] if "binary file matches" in text("grep-import-head-50") else [],
    bounded=True,
)


# ---------------------------------------------------------------- pytest
def kinds(blocks):
    """first E line of each distinct exception kind."""
    seen, out = set(), []
    for b in blocks:
        k = b[1].split()[1].split(":")[0] if b[1] else None
        if k == "assert":
            k = "assert=="
        if k and k not in seen:
            seen.add(k)
            out.append(b[1])
    return out


# the docstring of json's raw_decode that pytest prints inside each JSONDecodeError
# traceback, and the separator between traceback entries
PYTEST_NOISE = ["Decode a JSON document from ``s`` (a ``str`` beginning with", "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _"]


b5 = pytest_blocks("pytest-5-failures")
mk = []
for i, b in zip(failed_ids("pytest-5-failures"), b5, strict=True):
    mk += [i, b[1], b[2]]
mk += ["tests/test_money.py:18", "5 failed, 12 passed", "collected 17 items"]
add(
    "pytest-5-failures",
    "pytest at default verbosity, 17 tests with 5 failures: assertion with message, plain assert a == b, int('x'), Decimal('abc'), json.loads on bad input (raised inside the json module)",
    "pytest 9.2.0 on " + PY,
    mk,
    noise=PYTEST_NOISE,
)


def pytest_big(name, n_ids, extra_locs, summary, description, ids=None):
    bl = pytest_blocks(name)
    ids = ids or failed_ids(name)
    mk = spread(ids, n_ids) + [summary]
    mk += kinds(bl)
    mk += extra_locs
    add(name, description, "pytest 9.2.0 on " + PY, mk, noise=PYTEST_NOISE)


pytest_big(
    "pytest-30-failures-q",
    30,
    ["tests/shop_helpers.py:8: KeyError", "pathlib.py:1044: FileNotFoundError"],
    "30 failed, 120 passed",
    "pytest -q over 150 tests with 30 failures: assertion messages, assert a == b, int('x'), Decimal('abc'), json.loads on bad input, pathlib reading a missing file, a KeyError inside the suite's helper module",
)
pytest_big(
    "pytest-30-failures-verbose",
    30,
    ["tests/shop_helpers.py:8: KeyError", "pathlib.py:1044: FileNotFoundError"],
    "30 failed, 120 passed",
    "pytest -v over the same 150-test suite with 30 failures: one PASSED/FAILED line per test, then the failure blocks and the short summary",
)
pytest_big(
    "pytest-200-failures-q",
    28,
    [
        "tests/shop_helpers.py:8: KeyError",
        "json/decoder.py:355: JSONDecodeError",
        "pathlib.py:1044: FileNotFoundError",
        "tests/test_files.py:22: ValueError",
    ],
    "200 failed, 300 passed",
    "pytest -q over 500 tests with 200 failures of seven kinds (~166 kB): keep the verdict, a spread of failing ids, one message of each kind and the raise locations",
)

# ---------------------------------------------------------------- compound: cd && pytest
bl = pytest_blocks("compound-cd-pytest")
ids = failed_ids("compound-cd-pytest")
add(
    "compound-cd-pytest",
    "cd tests && python -m pytest -q: the same 30-failure suite run from inside its tests folder, so ids and locations are relative to it",
    "bash 5.2 + pytest 9.2.0 on " + PY,
    spread(ids, 30)
    + ["30 failed, 120 passed"]
    + kinds(bl)
    + ["shop_helpers.py:8: KeyError", "pathlib.py:1044: FileNotFoundError"],
    noise=PYTEST_NOISE,
)

# ---------------------------------------------------------------- linters
add(
    "mypy-strict",
    "mypy --strict on a small typed module with 12 errors (return types, untyped defs and calls, operand types)",
    "mypy 2.4.1 on " + PY,
    [ln for ln in lines("mypy-strict") if ln.startswith("shop/")]
    + ["Found 12 errors in 1 file (checked 2 source files)"],
)

add(
    "eslint",
    "eslint with the recommended config over one CommonJS file: 10 errors (unused vars, undefined names, unreachable code, duplicate params)",
    "eslint 10.15.0 on node v20.20.2",
    ["/tmp/scen/fx/eslintproj/src/users.js"]
    + [
        re.match(r"^\s+(\d+:\d+\s+error\s+.*?)\s{2,}\S+$", ln).group(1)
        for ln in lines("eslint")
        if re.match(r"^\s+\d+:\d+\s+error", ln)
    ]
    + ["10 problems (10 errors, 0 warnings)"],
)

ruff_codes = []
ls = lines("ruff-check")
for i, ln in enumerate(ls):
    if re.match(r"^[A-Z]+\d+ ", ln):
        ruff_codes.append(ln)
        ruff_codes.append(ls[i + 1].strip().removeprefix("--> "))
add(
    "ruff-check",
    "ruff check . over a fixture with 22 violations in two files, in ruff's full format (code frames and fix hints)",
    "ruff 0.17.6",
    # each rule line and its location; the location strings repeat (1:1 twice) so they are deduplicated
    list(dict.fromkeys(ruff_codes[0::2]))
    + ["shop/orders.py:36:37"]
    + list(dict.fromkeys(ruff_codes[1::2]))[:16]
    + ["Found 22 errors.", "6 fixable with `--fix`"],
)

# ---------------------------------------------------------------- compilers
add(
    "gcc-errors-warnings",
    "gcc -Wall -Wextra on three C files: 3 errors and 6 warnings with caret frames and notes",
    "gcc 12.2.0",
    [ln for ln in lines("gcc-errors-warnings") if re.match(r"^\w+\.[ch]:\d+:\d+: (error|warning|note)", ln)]
    + ["main.c: In function ‘main’:", "eval.c: In function ‘eval’:"],
)

add(
    "cargo-build-errors",
    "cargo build of a no-dependency crate with 3 errors (E0308 mismatched types, E0425 missing function, E0594 assign through & reference) and help suggestions",
    "cargo 1.95.0",
    [
        "error[E0308]: mismatched types",
        "--> src/main.rs:22:5",
        "expected `i64`, found `u32`",
        "error[E0425]: cannot find function `print_summary` in this scope",
        "--> src/main.rs:39:5",
        "error[E0594]: cannot assign to `acc.owner`, which is behind a `&` reference",
        "--> src/main.rs:26:5",
        "help: consider changing this to be a mutable reference",
        "fn rename(acc: &mut Account, name: &str) {",
        'error: could not compile `ledger` (bin "ledger") due to 3 previous errors',
    ],
    noise=["For more information about an error, try `rustc --explain E0308`."],
)

add(
    "make-many-lines",
    "make of a 65-file C project: one cc line per file, one unused-variable warning in the middle, the final link line",
    "GNU Make 4.3 + gcc 12.2.0",
    [
        "src/buffer_41.c:13:9: warning: unused variable ‘spare’ [-Wunused-variable]",
        "int spare;",
        "cc -Wall -Wextra -O2 -std=c11 -c src/buffer_01.c -o build/buffer_01.o",
        "cc -Wall -Wextra -O2 -std=c11 -c src/timer_61.c -o build/timer_61.o",
        "-o build/libdemo-app -lm",
    ],
    noise=["cc -Wall -Wextra -O2 -std=c11 -c src/lexer_27.c -o build/lexer_27.o"],
)

add(
    "compound-make-tee",
    "make 2>&1 | tee build.log on a small C project whose report.c uses an undeclared variable; the pipeline's exit code is tee's (0) although make failed",
    "bash 5.2 + GNU Make 4.3 + gcc 12.2.0",
    [
        "src/report.c:7:9: error: ‘subtotal’ undeclared (first use in this function)",
        "subtotal += items[i].qty * items[i].price;",
        "src/report.c: In function ‘report’:",
        "make: *** [Makefile:10: build/report.o] Error 1",
        "cc -Wall -Wextra -O2 -std=c11 -c src/report.c -o build/report.o",
    ],
)

# ---------------------------------------------------------------- TAP
tap = lines("node-test-tap")
add(
    "node-test-tap",
    "node --test --test-reporter=tap over two files: 11 tests, 6 failing (thrown TypeError, ENOENT, assert.ok, strictEqual and deepStrictEqual diffs, a failing subtest in a suite)",
    "node v20.20.2 test runner",
    [ln.strip() for ln in tap if ln.strip().startswith("not ok")]
    + [ln.strip() for ln in tap if ln.strip().startswith("location:")]
    + [
        "error: 'bad price: four'",
        "ENOENT: no such file or directory, open '/tmp/scen/fx/nodetap/test/fixtures/settings.json'",
        "error: 'gbp rate missing'",
        "+ 'ready-set-go-'",
        "- 'ready-set-go'",
        "+ 'caf-noir'",
        "# tests 11",
        "# pass 4",
        "# fail 6",
        "# skipped 1",
    ],
    noise=["duration_ms: 0.", "Test.runInAsyncScope (node:async_hooks:206:9)"],
)

add(
    "prove",
    "prove -v over two Perl test files: one passing, one failing 3 of 5 (is/is_deeply diagnostics with got/expected) plus a numeric warning",
    "prove (TAP::Harness 3.44) on Perl 5.36.0",
    [
        "Failed test 'parse comma decimal'",
        "at t/parse.t line 9.",
        "got: '4'",
        "expected: '4.5'",
        "Failed test 'slug strips trailing punctuation'",
        "at t/parse.t line 10.",
        "got: 'ready-set-go-'",
        "Failed test 'split drops empty fields'",
        "at t/parse.t line 11.",
        "$got->[2] = ''",
        "$expected->[2] = 'c'",
        "not ok 2 - parse comma decimal",
        "not ok 3 - slug strips trailing punctuation",
        "not ok 4 - split drops empty fields",
        'Argument "4,50" isn\'t numeric in addition (+) at t/parse.t line 5.',
        "t/parse.t (Wstat: 768 (exited 3) Tests: 5 Failed: 3)",
        "Failed tests:  2-4",
        "Files=2, Tests=9",
        "Result: FAIL",
    ],
)

# ---------------------------------------------------------------- small listings
add(
    "pip-show-pytest",
    "pip show pytest: one package's metadata; Requires names what it depends on",
    "pip 23.2.1 on " + PY,
    [
        "Name: pytest",
        "Version: 9.2.0",
        "Location: /tmp/scen/venv/lib/python3.11/site-packages",
        "Requires: iniconfig, packaging, pluggy, pygments",
        "Summary: pytest: simple powerful testing with Python",
    ],
)

add(
    "tree-symlinks",
    "tree of a deploy folder with releases, 7 symlinks (relative, absolute, dangling) shown as name -> target",
    "tree v2.1.0",
    [ln.split("── ")[1] for ln in lines("tree-symlinks") if "── " in ln and ("->" in ln or False)]
    + ["health.py", "app.js", "app.css", "rollback.sh", "server.py", "worker.py", "16 directories, 15 files"],
)

br = lines("git-branch-a")
add(
    "git-branch-a",
    "git branch -a in a repo with 22 local and 31 remote-tracking branches; the current one is feature/pdf-export",
    "git 2.39.5",
    [
        "* feature/pdf-export",
        "  main",
        "  develop",
        "  staging",
        "hotfix/cve-2026-1187",
        "release/3.0",
        "  chore/cache-warmup",
        "  fix/sso",
        "remotes/origin/main",
        "remotes/origin/feature/login-form",
        "remotes/origin/staging",
        "remotes/origin/release/2.3",
    ],
)

add(
    "npm-install-fresh",
    "npm install of three packages with a fresh cache, then npm ls; this npm config turns funding and audit notes off, so install prints one line",
    "npm 11.19.1 on node v20.20.2",
    ["added 117 packages", "npmfresh@ /tmp/scen/fx/npmfresh", "express@5.3.0", "lodash@4.18.1", "request@2.88.2"],
)


# ---------------------------------------------------------------- git status
def status_sections(name):
    secs, cur = {}, None
    for ln in lines(name):
        if ln.endswith(":") and not ln.startswith(("\t", " ")):
            cur = ln
            secs[cur] = []
        elif cur and ln.startswith("\t"):
            secs[cur].append(ln.strip())
    return secs


sec = status_sections("git-status-50")
mk = ["On branch main", "Your branch is ahead of 'origin/main' by 3 commits."] + list(sec)
mk += sec["Changes to be committed:"] + sec["Changes not staged for commit:"]
mk += ["build/", "notes.md", "src/core/new_asyncio_tasks.py"]
add(
    "git-status-50",
    "git status in a clone 3 commits ahead of its upstream: 42 entries (staged modified/deleted/new, unstaged modified/deleted, untracked files and folders)",
    "git 2.39.5",
    mk,
    noise=[
        '(use "git push" to publish your local commits)',
        '(use "git restore --staged <file>..." to unstage)',
        '(use "git add <file>..." to include in what will be committed)',
    ],
)

sec = status_sections("git-status-600")
mk = ["On branch main", "Your branch is ahead of 'origin/main' by 3 commits."] + list(sec)
for s_ in sec:
    mk += sec[s_][:3] + sec[s_][-3:]
mk += [x for x in sec["Changes to be committed:"] if x.startswith("new file:")][:3]
mk += ["build/", "notes.md"]
mk = list(dict.fromkeys(mk))
add(
    "git-status-600",
    f"git status in a clone 3 commits ahead of its upstream with {sum(map(len, sec.values()))} entries across src/, docs/, tools/, lib/, tests/ (~26 kB): keep branch, ahead line, section heads and the first and last entries of each",
    "git 2.39.5",
    mk,
    noise=[
        '(use "git push" to publish your local commits)',
        '(use "git restore --staged <file>..." to unstage)',
        '(use "git add <file>..." to include in what will be committed)',
        '(use "git restore <file>..." to discard changes in working directory)',
    ],
)

sh = lines("git-status-short-600")
groups = {}
for ln in sh:
    groups.setdefault(ln[:2], []).append(ln)
mk = []
for items in groups.values():
    mk += items[:3] + items[-2:]
add(
    "git-status-short-600",
    f"git status --short with {len(sh)} entries (D , M, A , ' M', ' D', ??) in the same ahead-of-upstream clone (~21 kB)",
    "git 2.39.5",
    list(dict.fromkeys(m.lstrip() for m in mk)),
)

ls_ = lines("compound-git-status-log")
add(
    "compound-git-status-log",
    "git status && git log -n 5 in the ~50-entry clone: status, then five commits (three local ones ahead of origin)",
    "bash 5.2 + git 2.39.5",
    [
        "On branch main",
        "Your branch is ahead of 'origin/main' by 3 commits.",
        "Changes to be committed:",
        "Changes not staged for commit:",
        "Untracked files:",
        "modified:   src/net/email__parseaddr.py",
        "deleted:    src/net/email_errors.py",
        "new file:   src/plugins/http_client.py",
        "modified:   src/core/_pyio.py",
        "deleted:    src/core/argparse.py",
        "notes.md",
        "tools/new_logging_config.py",
    ]
    + [ln for ln in ls_ if ln.startswith("commit ")]
    + ["Local change 2", "Local change 1", "Local change 0", "Initial import", "Author: Dana Dev <dana@example.test>"],
    noise=['(use "git push" to publish your local commits)', '(use "git restore --staged <file>..." to unstage)'],
)


# ---------------------------------------------------------------- git diff / log
def diff_files(name):
    return [ln.split(" b/", 1)[1] for ln in lines(name) if ln.startswith("diff --git ")]


def first_hunks(name):
    out, seen = [], set()
    cur = None
    for ln in lines(name):
        if ln.startswith("diff --git "):
            cur = ln
        elif ln.startswith("@@ ") and cur not in seen:
            seen.add(cur)
            out.append(ln)
    return out


df = diff_files("git-diff-40-files")
hk = first_hunks("git-diff-40-files")
add(
    "git-diff-40-files",
    f"git diff over {len(df)} edited Python files (big rewrite hunks, two-line inserts, deleted blocks), ~34 kB: keep every changed path and a couple of hunk heads",
    "git 2.39.5",
    df + [h for h in hk if not h.endswith("@@")][:2],
)

df = diff_files("compound-grep-count-git-diff")
add(
    "compound-grep-count-git-diff",
    f"grep -c TODO notes.txt; git diff: a bare count (18) then a diff over {len(df)} files (~53 kB); the count only stays recognisable next to the diff start, so it is kept as the two-line string",
    "bash 5.2 + GNU grep 3.8 + git 2.39.5",
    ["18\ndiff --git a/app/asynchat.py"] + spread(df, 38) + [first_hunks("compound-grep-count-git-diff")[0]],
)

df = diff_files("git-diff-head5")
hk = first_hunks("git-diff-head5")
add(
    "git-diff-head5",
    "git diff HEAD~5 in a clone of the tokenjuice repository pinned at 8d4e355: 18 files, 262 insertions and 121 deletions (~61 kB), including a 176-line golden hash file",
    "git 2.39.5, tokenjuice repository at 8d4e355",
    df + [h for h in hk if "tokenjuice/" in h or "def " in h][:6] + hk[:4],
)

st = lines("git-diff-head30-stat")
paths = [ln.split("|")[0].strip() for ln in st if "|" in ln]
add(
    "git-diff-head30-stat",
    "git diff HEAD~30 --stat in the tokenjuice clone pinned at 8d4e355: 104 files (~6.5 kB)",
    "git 2.39.5, tokenjuice repository at 8d4e355",
    spread(paths, 39) + ["104 files changed, 3490 insertions(+), 3196 deletions(-)"],
)

lg = lines("git-log-50-stat")
commits = []
for i, ln in enumerate(lg):
    if ln.startswith("commit "):
        subj = lg[i + 4].strip()
        commits.append((ln.split()[1][:7], subj[:50]))
mk = []
for h, s_ in commits[:12] + commits[-3:]:
    mk += [h, s_]
add(
    "git-log-50-stat",
    "git log -n 50 --stat in the tokenjuice clone pinned at 8d4e355: 50 commits with long subjects and per-file stats (~35 kB); keep the newest commits' short hashes and subject starts, and the oldest three",
    "git 2.39.5, tokenjuice repository at 8d4e355",
    list(dict.fromkeys(mk)),
)

# ---------------------------------------------------------------- installs
add(
    "pip-install-fresh-venv",
    "pip install requests rich into a fresh venv with an empty cache: index/link notes, WARNING lines for a missing local index, download progress bars, the install summary",
    "pip 23.2.1 on " + PY + " (this machine's pip config adds local indexes and find-links)",
    [
        "Collecting charset_normalizer<4,>=2 (from requests)",
        "Collecting certifi>=2023.5.7 (from requests)",
        "Collecting markdown-it-py>=2.2.0 (from rich)",
        "Installing collected packages: urllib3, pygments, mdurl, idna, charset_normalizer, certifi, requests, markdown-it-py, rich",
        "Successfully installed certifi-2026.10.19.post1 charset_normalizer-3.5.3 idna-3.20 markdown-it-py-4.3.0 mdurl-0.1.2 pygments-2.21.0 requests-2.34.2 rich-15.0.0 urllib3-2.8.0",
    ],
    noise=["is ignored: it is neither a file nor a directory.", "eta 0:00:00", "Looking in links: /opt/wheels"],
)

tp = lines("compound-npm-install-test")
add(
    "compound-npm-install-test",
    "npm install && npm test: install of two dependencies, then node --test (TAP by default off a terminal) with 6 of 11 tests failing",
    "npm 11.19.1 on node v20.20.2",
    ["added 2 packages", "> node --test test/"]
    + [ln.strip() for ln in tp if ln.strip().startswith("not ok")]
    + [ln.strip() for ln in tp if ln.strip().startswith("location:")]
    + [
        "error: 'bad price: four'",
        "ENOENT: no such file or directory, open '/tmp/scen/fx/npmtwo/test/fixtures/settings.json'",
        "error: 'gbp rate missing'",
        "+ 'ready-set-go-'",
        "- 'ready-set-go'",
        "+ 'caf-noir'",
        "# tests 11",
        "# pass 4",
        "# fail 6",
    ],
    noise=["duration_ms: 0.", "Test.runInAsyncScope (node:async_hooks:206:9)"],
)

# ---------------------------------------------------------------- json
deps = [ln.strip().rstrip(",") for ln in lines("json-npm-view-deps") if ln.startswith('  "')]
add(
    "json-npm-view-deps",
    f"npm view express@5.1.0 dependencies --json: a pretty-printed object of {len(deps)} name: range items",
    "npm 11.19.1, npm registry",
    deps,
)

pk = lines("json-npm-pack-10")
add(
    "json-npm-pack-10",
    "npm pack --dry-run --json in an installed package: a small pretty JSON array holding one object with 11 file objects",
    "npm 11.19.1 on node v20.20.2",
    [
        '"id": "fast-deep-equal@3.1.3"',
        '"filename": "fast-deep-equal-3.1.3.tgz"',
        '"entryCount": 11',
        '"unpackedSize": 12966',
        '"size": 3638',
    ]
    + [ln.strip().rstrip(",") for ln in pk if '"path"' in ln],
)


def newest(sp, n):
    """file names of the highest released versions (the list itself is sorted as text)."""
    vs = sorted((v for v in sp["versions"] if not Version(v).is_prerelease), key=Version)[-n:]
    return [
        f["filename"]
        for f in sp["files"]
        if any(
            f["filename"].startswith(f"{sp['name']}-{v}.tar") or f["filename"].startswith(f"{sp['name']}-{v}-")
            for v in vs
        )
    ]


pl = json.loads(text("json-pip-list-40"))
add(
    "json-pip-list-40",
    f"pip list --format=json in a venv of {len(pl)} packages: one minified line",
    "pip 23.2.1 on " + PY,
    [f'"name": "{p["name"]}", "version": "{p["version"]}"' for p in pl],
)

sp = json.loads(text("json-pypi-simple-400"))
fn = [f["filename"] for f in sp["files"]]
add(
    "json-pypi-simple-400",
    f"curl of PyPI's JSON simple index for pytest: one minified object, {len(fn)} file objects (~141 kB), versions list and meta",
    "curl 7.88.1, PyPI simple API (application/vnd.pypi.simple.v1+json)",
    list(dict.fromkeys(['"name": "pytest"', '"api-version": "1.1"'] + fn[:5] + fn[-5:] + newest(sp, 2))),
)

sp = json.loads(text("json-pypi-simple-4000"))
fn = [f["filename"] for f in sp["files"]]
add(
    "json-pypi-simple-4000",
    f"curl of PyPI's JSON simple index for boto3: one minified object, {len(fn)} file objects (~1.7 MB)",
    "curl 7.88.1, PyPI simple API (application/vnd.pypi.simple.v1+json)",
    list(dict.fromkeys(['"name": "boto3"', '"api-version": "1.1"'] + fn[:5] + fn[-5:] + newest(sp, 2))),
)

ls_all = lines("json-npm-ls-all")
names = []
for ln in ls_all:
    m = re.match(r'^( {4}| {8})"([^"]+)": \{$', ln)
    if m and m.group(2) != "dependencies":
        names.append(m.group(2))
names = list(dict.fromkeys(names))
add(
    "json-npm-ls-all",
    "npm ls --all --json in a project with eslint: the nested dependency tree as pretty JSON (~13.5 kB)",
    "npm 11.19.1 on node v20.20.2",
    ['"name": "eslintproj"', '"version": "10.15.0"', '"version": "10.0.1"'] + [f'"{n}"' for n in spread(names, 30)],
)

# ---------------------------------------------------------------- find
fp = lines("find-pytest-package")
short = [ln.split("site-packages/")[1] for ln in fp]
dirs = [s_ for s_ in short if "." not in s_.split("/")[-1] and "__pycache__" not in s_ and s_.count("/") == 1]
add(
    "find-pytest-package",
    f"find over pytest's _pytest package: {len(fp)} paths (~13.6 kB) in a few subpackages with __pycache__ folders",
    "GNU findutils 4.9.0",
    dirs + spread([s_ for s_ in short if s_.endswith(".py")], 40 - len(dirs)),
)

fs = lines("find-stdlib-test")
add(
    "find-stdlib-test",
    f"find over the stdlib's test and idlelib folders: {len(fs)} paths (~410 kB); keep the two roots and the first and last entries",
    "GNU findutils 4.9.0 over CPython 3.11.7's Lib",
    ["/root/.pyenv/versions/3.11.7/lib/python3.11/test", "/root/.pyenv/versions/3.11.7/lib/python3.11/idlelib"]
    + fs[1:6]
    + fs[-5:],
)

# ---------------------------------------------------------------- logs
lg = lines("cat-app-log")
warn = [ln.split(": ", 1)[1] for ln in lg if " WARNING " in ln]
errs = [ln.split("orders.worker: ", 1)[1] for ln in lg if " ERROR " in ln]
add(
    "cat-app-log",
    f"cat of a service log of {len(lg)} lines (~127 kB): INFO chatter, {len(warn)} WARNING lines, 3 ERROR lines, two Python tracebacks (Decimal in the middle, KeyError near the end)",
    "a real " + PY + " logging run (tests/scenarios/make/applog.py)",
    errs
    + [
        "Traceback (most recent call last):",
        "decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]",
        'File "/tmp/scen/app/service.py", line 45, in parse_order',
        "KeyError: 'SKU-9999'",
        'File "/tmp/scen/app/service.py", line 36, in reserve',
        "worker started pid=4242 queue=orders-main batch=25",
        "worker stopped processed=600",
    ]
    + warn,
)

tl = lines("tail-300-app-log")
warn = [ln.split(": ", 1)[1] for ln in tl if " WARNING " in ln]
errs = [ln.split("orders.worker: ", 1)[1] for ln in tl if " ERROR " in ln]
add(
    "tail-300-app-log",
    "tail -n 300 of the same service log (~31 kB): an ERROR line, a KeyError traceback in the middle, warnings, the stop line",
    "a real " + PY + " logging run (tests/scenarios/make/applog.py)",
    errs
    + [
        "Traceback (most recent call last):",
        'File "/tmp/scen/app/service.py", line 36, in reserve',
        "left = self.stock[sku] - qty",
        "KeyError: 'SKU-9999'",
        "checkpoint processed=500",
        "worker stopped processed=600",
    ]
    + warn,
    bounded=True,
)


# ---------------------------------------------------------------- issue 28: diffs, bounds, floods, exact reads
def diff_sections(name):
    """[(path, [changed lines])] for each `diff --git` section in output order (git show/log -p included)."""
    out = []
    for ln in lines(name):
        if ln.startswith("diff --git "):
            out.append((ln.split(" b/", 1)[1], []))
        elif out and ln[:1] in "+-" and not ln.startswith(("+++ ", "--- ")):
            out[-1][1].append(ln.rstrip())
    return out


def diff_picks(name, n_files, per_file=2, skip=()):
    """For n_files sections spread over the diff (first, middle, last): the path, then its first
    distinctive removed and added lines (at least 8 characters, once in the whole output).
    Files whose path is in `skip` are left out."""
    count = {}
    for ln in lines(name):
        count[ln.rstrip()] = count.get(ln.rstrip(), 0) + 1
    picks = []
    for path, changed in spread([s_ for s_ in diff_sections(name) if s_[1] and s_[0] not in skip], n_files):
        picks.append(path)
        good = [c for c in changed if len(c.strip("+- ")) >= 8 and count[c] == 1]
        minus = [c for c in good if c[0] == "-"][: per_file // 2]
        plus = [c for c in good if c[0] == "+"][: per_file - len(minus)]
        picks += minus + plus
    return list(dict.fromkeys(picks))


def index_noise(name):
    """git's `index abc..def 100644` lines carry nothing an agent uses: the first and last one."""
    idx = [ln for ln in lines(name) if re.match(r"^index [0-9a-f]+\.\.[0-9a-f]+", ln)]
    return list(dict.fromkeys([idx[0], idx[-1]]))


df = diff_sections("git-diff-rename-48-files")
add(
    "git-diff-rename-48-files",
    f"git diff of a rename refactor (sed -i BaseFix -> Fixer) across a copy of lib2to3: {len(df)} files,"
    " one or two changed lines in each; keep changed lines of first, middle and last files with their paths",
    "git 2.39.5 over CPython 3.11.7's Lib/lib2to3",
    diff_picks("git-diff-rename-48-files", 13),
    noise=index_noise("git-diff-rename-48-files"),
)

df = diff_sections("git-show-style-commit")
add(
    "git-show-style-commit",
    f"git show of a big style commit in the tokenjuice clone (9948cdc: types and lint fixes, {len(df)} files,"
    " a few changed lines in each, ~51 kB); keep the subject and changed lines spread over the files",
    "git 2.39.5, tokenjuice repository at 8d4e355",
    ["commit 9948cdc4967d0ff6016400c5f6ccbebab9f24fcc", "style: mypy --strict and ruff clean outside hosts/"]
    + diff_picks("git-show-style-commit", 12),
    noise=index_noise("git-show-style-commit"),
)

lg = lines("git-log-p-5")
heads = [(ln, lg[i + 4].strip()[:60].rstrip()) for i, ln in enumerate(lg) if ln.startswith("commit ")]
add(
    "git-log-p-5",
    "git log -p -n 5 in the tokenjuice clone pinned at 8d4e355: five commits with their patches (~64 kB),"
    " two of them big; keep each commit's hash and subject and changed lines spread over the patches",
    "git 2.39.5, tokenjuice repository at 8d4e355",
    [x for h in heads for x in h] + diff_picks("git-log-p-5", 10),
    noise=index_noise("git-log-p-5"),
)

# ---- outputs the agent bounded itself: nearly every line carrying a fact
E_LINE = re.compile(r"^E\s+(?!\+  where|assert False$)\S")


def bounded_pytest(name):
    ls = lines(name)
    mk = [ln.rstrip() for ln in ls if ln.startswith("FAILED ")]
    mk += [ln.rstrip() for ln in ls if E_LINE.match(ln)]
    mk += [ln.rstrip() for ln in ls if LOC.match(ln) or re.match(r"^\S+\.py:\d+: $", ln)]
    mk += [ln.strip("= ").split(" in ")[0] for ln in ls if re.search(r"\d+ (failed|passed)", ln) and "FAILED" not in ln]
    return list(dict.fromkeys(mk))


add(
    "pytest-q-tail-100",
    "python -m pytest -q 2>&1 | tail -100 over the 150-test suite with 30 failures: the last three failure"
    " blocks, all 30 FAILED summary lines and the verdict (bounded by the agent)",
    "bash 5.2 + pytest 9.2.0 on " + PY,
    bounded_pytest("pytest-q-tail-100"),
    bounded=True,
)

add(
    "compound-cd-pytest-x-tail-40",
    "cd tests && python -m pytest -x 2>&1 | tail -n40: the run stops at the first failure (a missing config file"
    " read through pathlib); the tail keeps the failure block and the summary (bounded by the agent)",
    "bash 5.2 + pytest 9.2.0 on " + PY,
    bounded_pytest("compound-cd-pytest-x-tail-40")
    + [
        "test_cart.py .F",
        "def test_reads_config_5(tmp_path):",
        'cfg = tmp_path / "conf-5.ini"',
        ">       text = cfg.read_text()",
        "pathlib.py:1058: in read_text",
        "stopping after 1 failures",
    ],
    bounded=True,
)

gs = lines("git-show-head2-head-100")
changed = [
    ln.rstrip() for ln in gs if ln[:1] in "+-" and not ln.startswith(("+++", "---")) and len(ln.strip("+- ")) >= 8
]
add(
    "git-show-head2-head-100",
    "git show HEAD~2 | head -100 in a tokenjuice clone pinned at 7ce057c (HEAD~2 is ac4ccf8, a ruff-format commit):"
    " the commit header and the first two files' hunks (bounded by the agent)",
    "git 2.39.5, tokenjuice repository at 7ce057c",
    [
        "commit ac4ccf8828ffba6dfd2d23d09f1ede936058e743",
        "style: ruff format and the safe ruff fixes on tokenjuice/ (line length 120)",
        "diff --git a/pyproject.toml b/pyproject.toml",
        "diff --git a/tokenjuice/bench.py b/tokenjuice/bench.py",
        "@@ -42,8 +42,15 @@ from .shellsyntax import join",
    ]
    + spread(list(dict.fromkeys(changed)), 33),
    bounded=True,
)

mk = [
    ln.rstrip()
    for ln in lines("make-errors-bash-lc-tail-40")
    if re.match(r"^src/\S+:\d+:\d+: (error|warning|note)", ln)
]
add(
    "make-errors-bash-lc-tail-40",
    "bash -lc 'cd proj && make 2>&1 | tail -40' on a 23-file C project: the last clean compile lines, then"
    " parser.c's four errors and two warnings with caret frames and make's Error line (bounded by the agent)",
    "bash 5.2 + GNU Make 4.3 + gcc 12.2.0",
    mk
    + [
        "src/parser.c: In function ‘parse_line’:",
        "src/parser.c: In function ‘parse_file’:",
        "if (*end != ',') return -3",
        "stock_add(s, it.sku, it.qty, it.price, 0);",
        "int stock_add(stock_t *s, const char *sku, int qty, double price);",
        "return s->length;",
        "In file included from src/parser.c:4:",
        "make: *** [Makefile:10: build/parser.o] Error 1",
        "cc -Wall -Wextra -O2 -std=c11 -c src/parser.c -o build/parser.o",
    ],
    bounded=True,
)

js = lines("jest-tail-60")
add(
    "jest-tail-60",
    "npx jest 2>&1 | tail -60 over a suite with 10 failing tests in 4 files: the tail holds the last failures"
    " (jest's file order varies from run to run) with their Expected/Received lines and code frames, then the"
    " summary (bounded by the agent)",
    "jest 30.5.2 on node v20.20.2",
    [
        ln.strip()
        for ln in js
        if ln.strip().startswith(("●", "FAIL ", "at Object.", "at fetchRates", "Expected", "Received", ">"))
        and "node_modules/" not in ln
        # once in the output, so `Received: 1` is not found inside `Received: 1230` by accident
        and text("jest-tail-60").count(ln.strip()) == 1
    ]
    + ["Test Suites: 4 failed, 4 total", "Tests:       10 failed, 14 passed, 24 total"],
    bounded=True,
)

cg = lines("cargo-build-head-c-2000")
add(
    "cargo-build-head-c-2000",
    "cargo build 2>&1 | head -c 2000 on a crate with 11 errors: the first four errors (E0308, E0277) with their"
    " locations, labels and help, cut mid-line at 2,000 bytes (bounded by the agent)",
    "cargo 1.95.0",
    list(dict.fromkeys(ln.strip() for ln in cg if ln.startswith("error[") or ln.strip().startswith("--> src/")))
    + ["help: try using a conversion method"]
    + [
        "expected `String`, found `&str`",
        "Stock { items: HashMap::new(), owner: owner.to_string() }",
        "expected `u32`, found `i64`",
        "no implementation for `u32 * i64`",
        "= help: the trait `Mul<i64>` is not implemented for `u32`",
        "= help: the trait `Sum<u32>` is not implemented for `i64`",
        "value of type `i64` cannot be made by summing a `std::iter::Iterator<Item=u32>`",
    ],
    bounded=True,
)


# ---- verbose test listings: passing ids spread across files, plus the failures
def not_prefix(ids):
    return [i for i in ids if not any(j != i and j.startswith(i) for j in ids)]


pv = lines("pytest-v-4-failures")
passed = [ln.split(" PASSED")[0] for ln in pv if " PASSED " in ln]
add(
    "pytest-v-4-failures",
    "python -m pytest -v over 114 tests in 5 files, 4 failing: one line per test, then 4 failure blocks;"
    " keep passing ids spread across the files as well as the failures",
    "pytest 9.2.0 on " + PY,
    [f"{i} PASSED" for i in spread(passed, 20)]
    + [ln.split(" FAILED")[0] + " FAILED" for ln in pv if " FAILED " in ln]
    + bounded_pytest("pytest-v-4-failures")[4:],
    noise=PYTEST_NOISE[:1],
)

ra = lines("pytest-ra-4-failures")
passed = not_prefix([ln.rstrip() for ln in ra if ln.startswith("PASSED ")])
add(
    "pytest-ra-4-failures",
    "python -m pytest -rA over the same 114 tests: dots, 4 failure blocks, then a PASSED line for each of the"
    " 110 passing tests and the FAILED lines; keep passing ids spread across the files as well as the failures",
    "pytest 9.2.0 on " + PY,
    spread(passed, 20) + bounded_pytest("pytest-ra-4-failures"),
    noise=PYTEST_NOISE[:1],
)

sm = lines("pytest-q-small")
add(
    "pytest-q-small",
    "python -m pytest -q over 10 tests with 2 failures (~1.1 kB): nearly every line carries a fact",
    "pytest 9.2.0 on " + PY,
    bounded_pytest("pytest-q-small")
    + ["..F....F..", "def test_widget_0_checked():", "def test_total_matches_1():", ">       assert got == expected"],
)


# ---- floods: the project's own matches and findings first, some vendored ones
def own_and_vendored(ms, own, n_vendored):
    mine = [m for m in ms if own(m)]
    return mine + spread([m for m in ms if not own(m)], n_vendored)


def rel(line):
    """'./src/a.py:12:text' -> 'src/a.py:12:text'; an installed file's path from its site-packages/
    on (copies of one library sit both in third_party/ and in .venv/, so two path parts are not enough)."""
    line = line.removeprefix("./").rstrip()
    return line[line.index("site-packages/") :] if "site-packages/" in line.split(":", 1)[0] else line


gm = [ln for ln in lines("grep-timeout-venv-vendored") if ln.startswith("./")]
add(
    "grep-timeout-venv-vendored",
    f"grep -rn timeout . in a Python project: {len(gm)} matches (~100 kB), 5 in its own src/, the rest in"
    " third_party/ (vendored requests and urllib3) and .venv/ site-packages, plus grep's notes on .pyc files",
    "GNU grep 3.8",
    [rel(m) for m in own_and_vendored(gm, lambda m: m.startswith("./src/"), 14)],
    noise=["binary file matches"],
)

rm = [ln for ln in lines("rg-timeout-vendored") if re.match(r"^\S+:\d+:", ln)]
add(
    "rg-timeout-vendored",
    f"rg -n timeout in the same project: {len(rm)} matches (~24 kB; .venv is hidden and skipped), 5 in src/,"
    " the rest in third_party/; ripgrep's file order varies from run to run",
    "ripgrep 13.0.0",
    [rel(m) for m in own_and_vendored(rm, lambda m: m.startswith("src/"), 14)],
)

jm = [ln for ln in lines("grep-require-node-modules") if ln.startswith("./")]
add(
    "grep-require-node-modules",
    f'grep -rn "require(\'./" . in a node project: {len(jm)} matches (~56 kB), one in its own src/, the rest'
    " in node_modules/ (jest and its dependencies)",
    "GNU grep 3.8",
    [rel(m) for m in own_and_vendored(jm, lambda m: m.startswith("./src/"), 16)],
)

rl = lines("ruff-check-vendored")
findings = []
for i, ln in enumerate(rl):
    if re.match(r"^[A-Z]+\d+ ", ln) and rl[i + 1].strip().startswith("-->"):
        findings.append((ln.rstrip(), rl[i + 1].strip().removeprefix("--> ")))
n_all, n_own = len(findings), sum(f[1].startswith("src/") for f in findings)
# a location that is a prefix of another (stock.py:3:1 of stock.py:3:12) would be found by accident
locs = not_prefix(list(dict.fromkeys(f[1] for f in findings)))
findings = [f for f in findings if f[1] in locs]
own = [f for f in findings if f[1].startswith("src/")]
mk = [x for f in own if "F821" in f[0] for x in f]
mk += [f[1] for f in own if "F821" not in f[0]]
mk += [f[0] for f in own if "F821" not in f[0] and rl.count(f[0]) == 1]
mk += [f[1] for f in spread([f for f in findings if not f[1].startswith("src/")], 6)]
add(
    "ruff-check-vendored",
    f"ruff check . (E, F, W, B, UP, I, SIM) over a project whose third_party/ holds copies of requests and urllib3:"
    f" {n_all} findings in full format (~180 kB), {n_own} in its own src/ including 5 undefined names (F821)",
    "ruff 0.17.6",
    list(dict.fromkeys(mk)) + [next(ln for ln in rl if ln.startswith("Found ")), "93 fixable with `--fix`"],
)

fl = lines("flake8-vendored")
add(
    "flake8-vendored",
    f"flake8 . (max-line-length 100, .venv excluded) over the same project: {len(fl)} findings (~12 kB),"
    " 12 in its own src/ (5 undefined names), the rest in third_party/",
    "flake8 7.5.0 on " + PY,
    [ln.removeprefix("./") for ln in own_and_vendored(fl, lambda m: m.startswith("./src/"), 14)],
)

pl = lines("pylint-urllib3")
emsg = [ln for ln in pl if re.match(r"^\S+:\d+:\d+: [EF]\d{4}", ln)]
other = [ln for ln in pl if re.match(r"^\S+:\d+:\d+: [CRW]\d{4}", ln)]
add(
    "pylint-urllib3",
    f"pylint over a vendored copy of urllib3: {len(emsg) + len(other)} messages (~72 kB), mostly C/R/W,"
    f" {len(emsg)} E messages (import-error, raising-bad-type, possibly-used-before-assignment, ...) and the score",
    "pylint 4.1.5 (astroid 4.4.0) on " + PY,
    [ln.rstrip() for ln in emsg]
    + [ln.rstrip() for ln in spread(other, 8)]
    + [next(ln for ln in pl if ln.startswith("Your code has been rated at"))],
)

# ---- exact reads of structured files over 32 KiB
pk = lines("cat-package-lock-json")
keys = [ln.strip().rstrip("{ ").rstrip() for ln in pk if re.match(r'^    "node_modules/[^"]+": \{$', ln)]
integ = [ln.strip().rstrip(",") for ln in pk if '"integrity"' in ln]
add(
    "cat-package-lock-json",
    f"cat package-lock.json of a project with jest (npm 11, lockfileVersion 3): {len(keys)} package entries,"
    " ~130 kB; keep the top-level keys, the root entry, first, middle and last packages",
    "npm 11.19.1 on node v20.20.2",
    ['"name": "jsapp"', '"lockfileVersion": 3', '"requires": true', '"packages": {', '"jest": "^30.5.2"']
    + spread(keys, 18)
    + spread(integ, 3),
)

pn = lines("cat-pnpm-lock-yaml")
i_snap = pn.index("snapshots:")
pkeys = [
    ln.strip().rstrip(":") for ln in pn[:i_snap] if re.match(r"^  \S.*:( \{\})?$", ln) and "@" in ln and ln[2] != "."
]
skeys = [ln.strip() for ln in pn[i_snap:] if re.match(r"^  \S.*:( \{\})?$", ln)]
add(
    "cat-pnpm-lock-yaml",
    f"cat pnpm-lock.yaml after pnpm 10 installed express, zod and jest: {len(pkeys)} packages and their"
    " snapshots (~111 kB); keep the header, the importer's specifiers, first, middle and last entries",
    "pnpm 10.34.9 on node v20.20.2",
    [
        "lockfileVersion: '9.0'",
        "importers:",
        "packages:",
        "snapshots:",
        "specifier: 5.1.0",
        "version: 30.5.2(@types/node@26.6.11)",
    ]
    + spread(pkeys, 14)[:-1]
    + skeys[-2:]
    + spread([ln.strip() for ln in pn if ln.strip().startswith("resolution: {integrity:")], 3),
)

uv = lines("cat-uv-lock")
n_pkg = uv.count("[[package]]")
# each package's sdist file name says its name and version on one line (a bare `name = "idna"` also
# matches the `{ name = "idna" }` dependency entries of other packages)
sdists = [re.search(r'/([^/"]+\.tar\.gz)"', ln).group(1) for ln in uv if ln.startswith("sdist = ")]
add(
    "cat-uv-lock",
    f"cat uv.lock of a project depending on fastapi, httpx, sqlalchemy and pydantic-settings: {n_pkg} packages"
    " with sdist and wheel hashes (~87 kB); keep the header, every package's sdist (name and version),"
    " the project's own entry and requirements",
    "uv 0.13.9, PyPI",
    ["version = 1", 'requires-python = ">=3.11"', 'name = "uvapp"', 'source = { virtual = "." }']
    + sdists
    + ['{ name = "pydantic-settings", specifier = ">=2.2" }', '{ name = "ruff", specifier = ">=0.5" }'],
)

ap = lines("cat-airports-csv")
add(
    "cat-airports-csv",
    f"cat of vega_datasets' airports.csv: a header and {len(ap) - 1} rows (~210 kB); keep the header, the first"
    " and last rows and rows spread between",
    "vega_datasets 0.9.0 (PyPI)",
    [ap[0]] + spread(ap[1:], 24),
)

cj = text("cat-cars-json")
cars = json.loads(cj)
add(
    "cat-cars-json",
    f"cat of vega_datasets' cars.json: a pretty JSON array of {len(cars)} car objects (~100 kB); keep the keys,"
    " the first and last objects' names, names spread between",
    "vega_datasets 0.9.0 (PyPI)",
    ['"Miles_per_Gallon":', '"Displacement":', '"Horsepower":', '"Acceleration":', '"Origin":"Europe"']
    # the first and last objects' names, then names that occur once, so each string points at one object
    + [f'"Name":{q(cars[0]["Name"])}', f'"Name":{q(cars[-1]["Name"])}']
    + [
        f'"Name":{q(c["Name"])}' for c in spread([c for c in cars[1:-1] if cj.count(f'"Name":{q(c["Name"])}') == 1], 20)
    ],
)

# ---------------------------------------------------------------- issue 28: more structured reads
# Files that come with the machine's installs and JSON that tools print about a project.
# An agent reading a big structured file needs its top-level keys and, for a collection,
# its entries by name: the first, the last and entries spread between.


def once(text_, candidates):
    """the candidates that occur once in the text, so each string points at one place"""
    return [c for c in candidates if text_.count(c) == 1]


gy = text("cat-gcloud-resource-map-yaml")
apis = once(gy, [f"\n{ln}\n" for ln in gy.split("\n") if re.match(r"^[a-z][\w-]*:$", ln)])
add(
    "cat-gcloud-resource-map-yaml",
    f"cat of google-cloud-sdk's resource_map.yaml: {len(apis)} APIs, each with its collections and supported"
    " API versions (~85 kB YAML); keep the first and last APIs and APIs spread between",
    "google-cloud-sdk (Debian package)",
    [api.strip("\n") for api in spread(apis, 22)]
    + ["  folders.approvalRequests:", "    home_directory: access_context_manager.levels"],
)

bj = text("cat-boto3-ec2-resources-json")
bd = json.loads(bj)
add(
    "cat-boto3-ec2-resources-json",
    f"cat of boto3's EC2 resource model (resources-1.json): the service's {len(bd['service']['actions'])} actions and"
    f" {len(bd['resources'])} resources (~77 kB pretty JSON); keep the top-level keys, every resource by name, a"
    " spread of the service's actions",
    "boto3 (pyenv site-packages)",
    ['"service": {', '"resources": {', '"hasMany": {']
    + once(bj, [f"    {q(name)}: {{" for name in bd["resources"]])
    + spread(once(bj, [f"      {q(name)}: {{" for name in bd["service"]["actions"]]), 5),
)

nc = lines("cat-numpy-log2-csv")
add(
    "cat-numpy-log2-csv",
    f"cat of numpy's umath-validation-set-log2.csv: a header and {len(nc) - 1} rows of float32 and float64"
    " cases (~69 kB); keep the header, the first and last rows and rows spread between",
    "numpy (pyenv site-packages)",
    [nc[0]] + spread(once(text("cat-numpy-log2-csv"), nc[1:]), 20),
)

nj = text("json-npm-ls-jest")


def dep_names(node, found):
    for name, child in (node.get("dependencies") or {}).items():
        if name not in found:
            found.append(name)
        dep_names(child, found)
    return found


deps = dep_names(json.loads(nj), [])
add(
    "json-npm-ls-jest",
    f"npm ls --all --json in a project with jest 30: the nested dependency tree, {len(deps)} packages (~89 kB"
    " pretty JSON); keep the project, jest and its version, packages spread over the tree by name",
    "npm 11.19.1 on node v20.20.2",
    ['"name": "jestls"', '"jest": {', '"version": "30.5.2"'] + [q(name) for name in spread(deps[1:], 24)],
)

pi = text("json-pip-inspect")
installed = [item["metadata"] for item in json.loads(pi)["installed"]]
add(
    "json-pip-inspect",
    f"pip inspect in a venv with requests and rich: {len(installed)} installed packages with their full metadata"
    " (~114 kB JSON); keep pip's and Python's versions and every package's name",
    "pip 23.2.1, PyPI",
    ['"pip_version": "23.2.1"', '"python_full_version": "3.11.7"']
    + [f'"name": {q(m["name"])}' for m in installed]
    + once(pi, [f'"version": {q(m["version"])}' for m in installed]),
)


# ---------------------------------------------------------------- issue 28: logs, builds, infra
def body(line):
    """a journal or syslog line without its 'Mon DD HH:MM:SS host ' prefix"""
    return re.sub(r"^\w{3} [ \d]\d \d\d:\d\d:\d\d \S+ ", "", line).rstrip()


def published_source(name):
    return META[name]["published"]


def grep(name, pattern):
    return [ln.rstrip() for ln in lines(name) if re.search(pattern, ln)]


# a journal with an OOM kill: every kernel/systemd line of the kill, the other failure kinds once each
jl = lines("journalctl-boot-oom-killer")
oom = grep(
    "journalctl-boot-oom-killer",
    r"invoked oom-killer|oom-kill:|Out of memory: Killed process|killed by the OOM killer|Failed with result 'oom-kill'",
)
firsts = {}
for ln in grep(
    "journalctl-boot-oom-killer",
    r"Failed with result 'exit-code'|fatal IO error|Failed to disable ULP|xHC error in resume|Error opening audit socket",
):
    firsts.setdefault(re.sub(r"\[\d+\]", "", body(ln)), ln)
add(
    "journalctl-boot-oom-killer",
    f"journalctl -b of an Arch laptop ({len(jl)} lines, ~880 kB, mostly desktop and fingerprint-daemon DEBUG chatter): the kernel OOM killer kills chrome at 16:07, systemd marks the session scope failed with result 'oom-kill', then X clients die",
    published_source("journalctl-boot-oom-killer"),
    oom + list(firsts.values()) + [jl[0].rstrip(), jl[-1].rstrip()],
    noise=["DEBUG:root:>cmd>"],
    published=True,
)

ll = lines("journalctl-boot-soft-lockup")
lock = grep(
    "journalctl-boot-soft-lockup",
    r"BUG: soft lockup|hard LOCKUP|NETDEV WATCHDOG|WARNING: CPU: |status=1/FAILURE|\[ERR\]|failed VCE resume|ERROR: Cannot create report",
)
add(
    "journalctl-boot-soft-lockup",
    f"journalctl -b of an Ubuntu home server ({len(ll)} lines, ~635 kB): boot chatter, user services exiting with status=1/FAILURE, then at 14:55 soft lockups, a NETDEV WATCHDOG timeout with a kernel WARNING and a hard LOCKUP",
    published_source("journalctl-boot-soft-lockup"),
    list(dict.fromkeys(lock)) + [ll[0].rstrip(), ll[-1].rstrip()],
    noise=["kernel: BIOS-e820: [mem 0x0000000000000000-0x000000000009ffff] usable"],
    published=True,
)

add(
    "journalctl-u-postgresql",
    "journalctl -u postgresql of a PostgreSQL 13 server at DEBUG level dumping parse trees: one CREATE DOMAIN fails with 'unrecognized node type', then the client connection resets",
    published_source("journalctl-u-postgresql"),
    [
        "ERROR:  unrecognized node type: 16782051",
        "STATEMENT:  CREATE DOMAIN schema_meta AS raw_schema_meta CHECK ((value).version IS NOT NULL AND (value).version >= 1);",
        'NOTICE:  type "schema_meta" does not exist, skipping',
        "LOG:  could not receive data from client: Connection reset by peer",
        "DEBUG:  unexpected EOF on client connection",
        "LOG:  starting PostgreSQL 13.3 on x86_64-pc-linux-gnu",
        "LOG:  database system is ready to accept connections",
        "Started PostgreSQL database server.",
        "mmap(150994944) with MAP_HUGETLB failed, huge pages disabled: Cannot allocate memory",
    ],
    noise=[":hasWindowFuncs false"],
    published=True,
)

pg = lines("cat-postgresql-log")
fails = [ln.rstrip() for ln in pg if re.search(r" (FATAL|ERROR):  ", ln)]
detail = [
    ln.rstrip()
    for i, ln in enumerate(pg)
    if re.search(r" (DETAIL|STATEMENT):  ", ln) and re.search(r" (FATAL|ERROR|DETAIL):  ", pg[i - 1])
]
add(
    "cat-postgresql-log",
    f"cat of a PostgreSQL 15 server log ({len(pg)} lines, ~92 kB) with connection logging on: {len(fails)} FATAL/ERROR lines (wrong password, missing database and role, missing table, duplicate key, syntax error, statement timeout, terminated backend) among connection chatter",
    "PostgreSQL 15.18 (Debian 15.18-0+deb12u1), psql 15.18, on loopback",
    fails
    + detail
    + [
        grep("cat-postgresql-log", r"duration: \d")[0],
        grep("cat-postgresql-log", r"starting PostgreSQL")[0],
        grep("cat-postgresql-log", r"database system is shut down")[0],
    ],
    noise=["LOG:  connection received: host=127.0.0.1 port="],
)

wl = lines("cat-flask-healthcheck-log")
add(
    "cat-flask-healthcheck-log",
    f"cat of a Flask app log ({len(wl)} lines, ~55 kB): {sum('GET /healthz' in x for x in wl)} health-check access lines, a few real requests, two handler exceptions with tracebacks (KeyError, ZeroDivisionError) and two 404s",
    "Flask 3.1.0 / werkzeug dev server on " + PY,
    grep("cat-flask-healthcheck-log", r"ERROR shop: Exception on")
    + grep("cat-flask-healthcheck-log", r'File "/tmp/scen/web/app.py"')
    + grep("cat-flask-healthcheck-log", r"^(KeyError|ZeroDivisionError): ")
    + [re.search(r'"GET .*', ln).group(0) for ln in wl if re.search(r'" (404|500) -', ln)]
    + [re.search(r"order \d+ served.*", ln).group(0) for ln in wl if "served" in ln]
    + ["starting shop api on 127.0.0.1:"],
    noise=['"GET /healthz HTTP/1.1" 200 -'],
)

gl = lines("go-run-panic")
batches = [ln for ln in gl if "status=ok" in ln]
add(
    "go-run-panic",
    f"go run . of a worker that logs {len(batches)} batch lines (~36 kB), three slow-batch warnings and checkpoints, then panics on an index out of range inside an audit pass",
    "go1.19.8 (Debian golang-1.19)",
    [
        "panic: runtime error: index out of range [4] with length 1",
        "goroutine 1 [running]:",
        "main.lastLine(...)",
        "/tmp/scen/fx/goworker/main.go:32",
        "main.process(",
        "/tmp/scen/fx/goworker/main.go:43",
        "/tmp/scen/fx/goworker/main.go:56",
        "exit status 2",
        re.search(r"batch=\d+ orders=.*", batches[-1]).group(0),
        re.search(r"starting pid=\d+ .*", gl[0]).group(0).split("pid=")[0] + "pid=",
        "queue=orders-main batch=25 audit_every=40",
    ]
    + [re.search(r"WARN .*", ln).group(0) for ln in gl if " WARN " in ln]
    + [re.search(r"checkpoint .*", ln).group(0) for ln in gl if "checkpoint" in ln][-2:],
    noise=[re.search(r"batch=\d+ orders=.*", batches[len(batches) // 2]).group(0)],
)

add(
    "cmake-configure-libuv",
    "cmake -S . -B build configuring libuv (uvloop 0.23.0's vendored copy) with -Wshadow: compiler detection, 20 compiler-flag probes (most MSVC ones failing as expected), the option summary",
    "cmake 3.25.1 + gcc 12.2.0",
    [
        "-- The C compiler identification is GNU 12.2.0",
        "Install prefix:  /usr/local",
        "Target system:   Linux",
        "C compiler:    /usr/bin/cc (GNU)",
        "CFLAGS:         -Wshadow",
        "-- clang-tidy not found: install clang-tidy or set -DCLANG_TIDY_EXE to run tidy analysis on this platform",
        "-- Configuring done",
        "-- Generating done",
        "-- Build files have been written to: /tmp/scen/fx/libuv/build",
    ],
    noise=[
        "-- Detecting C compiler ABI info - done",
        "-- Performing Test UV_LINT_W4 - Failed",
        "-- Check for working C compiler: /usr/bin/cc - skipped",
    ],
)

bl = lines("cmake-build-libuv")
add(
    "cmake-build-libuv",
    f"cmake --build build of libuv: {sum('Building C object' in x for x in bl)} '[ NN%] Building C object' lines (35 sources, for the shared and the static library), two real -Wshadow warnings printed once per library, both link lines",
    "cmake 3.25.1, GNU Make 4.3, gcc 12.2.0",
    list(dict.fromkeys(ln.rstrip() for ln in bl if re.search(r"(warning|note):|In function|Linking|Built target", ln)))
    + ["struct uv__queue wq;", "size_t namelen = strlen(ent->ifa_name);"],
    noise=["[  2%] Building C object CMakeFiles/uv.dir/src/idna.c.o"],
)

cw = lines("cargo-workspace-error")
add(
    "cargo-workspace-error",
    f"cargo build of a workspace of 24 local crates: {sum('Compiling' in x for x in cw)} Compiling lines, one unused-mut warning, then E0308 in the pricing crate stops the build",
    "cargo 1.95.0",
    [
        "error[E0308]: mismatched types",
        "--> crates/pricing/src/lib.rs:17:22",
        "net_cents(gross, discount)",
        "expected `i64`, found `u32`",
        "--> crates/pricing/src/lib.rs:10:8",
        "pub fn net_cents(gross: i64, discount: i64) -> i64 {",
        "help: you can convert a `u32` to an `i64`",
        "net_cents(gross, discount.into())",
        "error: could not compile `pricing` (lib) due to 1 previous error",
        "warning: variable does not need to be mutable",
        "--> crates/shop-types/src/lib.rs:4:9",
        "Compiling pricing v0.1.0 (/tmp/scen/fx/shopws/crates/pricing)",
    ],
    noise=[
        "Compiling codec v0.1.0 (/tmp/scen/fx/shopws/crates/codec)",
        "For more information about this error, try `rustc --explain E0308`.",
    ],
)

rl = lines("ruff-statistics")
stats = [ln.strip() for ln in rl if re.match(r"^\s*\d+\t[A-Z]+\d+", ln)]
add(
    "ruff-statistics",
    f"ruff check --statistics with every rule selected over six copied stdlib packages: {len(stats)} rule lines (count, code, fixability, name), two config warnings, the total",
    "ruff 0.17.6",
    stats[:12] + spread(stats[12:], 22) + [ln for ln in rl if ln.startswith(("Found ", "[*] ", "warning: "))],
)

pr = lines("pip-install-requirements-bad-pin")
add(
    "pip-install-requirements-bad-pin",
    "pip install -r requirements.txt into a fresh venv with an empty cache: 14 pins collected and downloaded with progress bars and ignored-index warnings, then the 15th pin names a version that does not exist",
    "pip 23.2.1 on " + PY + " (this machine's pip config adds local indexes and find-links)",
    [
        re.match(r"^ERROR: Could not find a version that satisfies the requirement structlog==99.1.0", ln).group(0)
        for ln in pr
        if ln.startswith("ERROR: Could not")
    ]
    + ["ERROR: No matching distribution found for structlog==99.1.0", "(from versions: 0.1.0, 0.2.0"]
    + [ln.strip() for ln in pr if ln.startswith(("Collecting ", "Processing "))],
    noise=[
        "eta 0:00:00",
        "is ignored: it is neither a file nor a directory.",
        "Downloading SQLAlchemy-2.0.36-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (3.2 MB)",
    ],
)

add(
    "terraform-init",
    "terraform init in a project using the kreuzwerker/docker provider (colour codes kept): two steps, the provider reused from the lock file, the success line and two advice paragraphs",
    published_source("terraform-init"),
    [
        "Initializing the backend...",
        "Initializing provider plugins...",
        "- Reusing previous version of kreuzwerker/docker from the dependency lock file",
        "- Using previously-installed kreuzwerker/docker v3.0.2",
        "Terraform has been successfully initialized!",
    ],
    noise=[
        'You may now begin working with Terraform. Try running "terraform plan" to see',
        "If you ever set or change modules or backend configuration for Terraform,",
    ],
    published=True,
)

add(
    "terraform-plan-out",
    "terraform plan -out=tfplan creating a docker image and container (colour codes kept): the boilerplate symbol legend, two resources with every attribute, the plan line, output changes, the saved-plan advice",
    published_source("terraform-plan-out"),
    [
        "# docker_container.nginx_container will be created",
        'resource "docker_container" "nginx_container" {',
        'image                                       = "nginx:latest"',
        'name                                        = "nginx-test"',
        "external = 8080",
        "internal = 80",
        "# docker_image.nginx will be created",
        'resource "docker_image" "nginx" {',
        "keep_locally = true",
        "Plan: 2 to add, 0 to change, 0 to destroy.",
        "Changes to Outputs:",
        "container_info = {",
        "port = 8080",
        "Saved the plan to: tfplan",
        'terraform apply "tfplan"',
    ],
    noise=["Terraform used the selected providers to generate the following execution"],
    published=True,
)

ta = lines("cat-terraform-apply-log")
created = [re.search(r"# (\S+) will be created", ln).group(1) for ln in ta if " will be created" in ln]
add(
    "cat-terraform-apply-log",
    f"cat of a saved terraform apply log (~179 kB, colour codes kept): a first run that fails creating the VPC (VpcLimitExceeded), then a whole second run: the plan of {len(created)} resources, creation progress with 'Still creating...' lines, apply complete and outputs",
    published_source("cat-terraform-apply-log"),
    [
        "Error: creating EC2 VPC: operation error EC2: CreateVpc, https response error StatusCode: 400",
        "api error VpcLimitExceeded: The maximum number of VPCs has been reached.",
        "with module.vpc.aws_vpc.this[0],",
        'on .terraform/modules/vpc/main.tf line 28, in resource "aws_vpc" "this":',
        "Plan: 81 to add, 0 to change, 0 to destroy.",
        "Apply complete! Resources: 81 added, 0 changed, 0 destroyed.",
        'cluster_endpoint = "https://A9262876289D51D4D7037E1C06D6794C.sk1.us-west-2.eks.amazonaws.com"',
        'cluster_name = "openclaw-kata-eks"',
        'configure_kubectl = "aws eks --region us-west-2 update-kubeconfig --name openclaw-kata-eks"',
        'kata_namespace = "kata-system"',
        'openclaw_namespace = "openclaw"',
    ]
    + [f"# {c} will be created" for c in spread(created, 12)],
    noise=["Still creating... [00m10s elapsed]"],
    published=True,
)

add(
    "docker-compose-logs",
    "docker compose logs -f of a Django backend and its Postgres db (Docker Desktop on Windows): db initialisation chatter, then the backend cannot reach the database socket and prints two chained tracebacks",
    published_source("docker-compose-logs"),
    [
        "`version` is obsolete",
        "backend-1  | Exception in thread django-main-thread:",
        "backend-1  | psycopg2.OperationalError: could not connect to server: No such file or directory",
        "backend-1  | django.db.utils.OperationalError: could not connect to server: No such file or directory",
        'connections on Unix domain socket "/var/run/postgresql/.s.PGSQL.5432"?',
        "backend-1  | The above exception was the direct cause of the following exception:",
        'File "/usr/local/lib/python3.10/site-packages/django/core/management/commands/runserver.py", line 136, in inner_run',
        'File "/usr/local/lib/python3.10/site-packages/psycopg2/__init__.py", line 122, in connect',
        "backend-1  | System check identified no issues (0 silenced).",
        'db-1       | initdb: warning: enabling "trust" authentication for local connections',
        "db-1       | PostgreSQL init process complete; ready for start up.",
        'listening on IPv4 address "0.0.0.0", port 5432',
        "db-1       | 2024-08-09 06:01:48.826 UTC [1] LOG:  database system is ready to accept connections",
    ],
    noise=["db-1       | creating subdirectories ... ok"],
    published=True,
)

kv = text("kubectl-apply-validation-errors")
add(
    "kubectl-apply-validation-errors",
    "kubectl apply -f of a Deployment with eleven unknown fields: one long client-side validation error line listing each ValidationError",
    published_source("kubectl-apply-validation-errors"),
    ['error: error validating "cursed.yaml": error validating data:']
    + re.findall(r"ValidationError\([\w.]+\): unknown field \"\w+\"", kv)
    + ["turn validation off with --validate=false"],
    published=True,
)

# ---- issue 28: search, lint and listing floods, second round (make/floods.py, fx/tjflood:
# this repository at 4ab9641 with a .venv holding requests, click and rich)
ROUND2 = "Debian 12, 2026-12-06"
TJ = "the tokenjuice repository at 4ab9641"

gp = [ln for ln in lines("grep-def-parse-venv") if ln.startswith("./")]
g_own = [m for m in gp if not m.startswith("./.venv/")]
g_installed = [m for m in gp if m.startswith("./.venv/")]
add(
    "grep-def-parse-venv",
    f'grep -rn "def parse" . in {TJ}: {len(gp)} matches (~40 kB), {len(g_own)} in the project\'s own files'
    f" (tokenjuice/, tests/, reducers/), the rest in .venv/ site-packages, plus grep's notes on .pyc files;"
    " keep the project's matches spread over it and installed ones spread over the rest",
    "GNU grep 3.8 in " + TJ,
    [rel(m) for m in spread(g_own, 24)] + [rel(m) for m in spread(g_installed, 12)],
    noise=["binary file matches"],
    day=ROUND2,
)

rv = [ln for ln in lines("rg-valueerror-own") if re.match(r"^\S+:\d+:", ln)]
rv_short = [ln for ln in rv if len(ln) <= 300]
rv_long = [ln for ln in rv if len(ln) > 2000]
add(
    "rg-valueerror-own",
    f"rg -n ValueError in {TJ} (.venv is ignored): {len(rv)} matches in"
    f" {len({ln.split(':')[0] for ln in rv})} of the project's own files (~260 kB: {len(rv_long)} matches are"
    " whole JSON documents of tens of kB on one line); keep the first and last matches, a spread between, and"
    " the place of each giant line",
    "ripgrep 13.0.0 in " + TJ,
    rv_short[:5]
    + spread(rv_short[5:-5], 20)
    + rv_short[-5:]
    + [":".join(ln.split(":", 2)[:2]) + ":" for ln in rv_long],
    day=ROUND2,
)

rs = lines("ruff-select-all-reduce")
rs_findings = []
for i, ln in enumerate(rs[:-1]):
    arrow = re.match(r"^\s*--> (\S+)$", rs[i + 1])
    if re.match(r"^[A-Z]+\d+ ", ln) and arrow:
        rs_findings.append((ln.rstrip(), arrow.group(1)))
rs_codes = list(dict.fromkeys(f[0].split()[0] for f in rs_findings))
rs_first = [next(f[0] for f in rs_findings if f[0].split()[0] == code) for code in rs_codes]
rs_locs = not_prefix(list(dict.fromkeys(f[1] for f in rs_findings)))
add(
    "ruff-select-all-reduce",
    f"ruff check --select ALL over tokenjuice/reduce of {TJ}: {len(rs_findings)} findings of {len(rs_codes)}"
    " codes in full format (~365 kB: docstring style, relative imports, magic values; no pyflakes error);"
    " keep a message of codes spread over their first appearance, locations spread over all findings and"
    " the totals",
    "ruff 0.17.6 in " + TJ,
    spread(rs_first, 22)
    + spread([loc for loc in dict.fromkeys(f[1] for f in rs_findings) if loc in rs_locs], 14)
    + [next(ln for ln in rs if ln.startswith("Found ")), next(ln for ln in rs if "fixable with" in ln)],
    day=ROUND2,
)

pc = lines("pylint-click-site-packages")
pc_errors = [ln.rstrip() for ln in pc if re.match(r"^\S+:\d+:\d+: [EF]\d{4}", ln)]
pc_other = [ln.rstrip() for ln in pc if re.match(r"^\S+:\d+:\d+: [CRW]\d{4}", ln)]
add(
    "pylint-click-site-packages",
    f"pylint over click 8.5.1 as installed in {TJ}'s .venv: {len(pc_errors) + len(pc_other)} messages"
    f" (~70 kB), {len(pc_errors)} of them E messages, and the score; keep every E message, others spread"
    " over the rest, the score",
    "pylint 4.1.5 (astroid 4.4.0) on " + PY,
    pc_errors + spread(pc_other, 16) + [next(ln for ln in pc if ln.startswith("Your code has been rated at"))],
    day=ROUND2,
)

fv = [ln for ln in lines("find-venv-py") if ln.strip()]
add(
    "find-venv-py",
    f'find .venv -name "*.py" in {TJ}: {len(fv)} paths (~88 kB) of pip, setuptools, requests, click, rich'
    " and their dependencies; keep the first and last paths and a spread between",
    "GNU findutils 4.9.0 in " + TJ,
    fv[:5] + spread(fv[5:-5], 20) + fv[-5:],
    day=ROUND2,
)

# ---- issue 28: diffs and statuses of public repositories (make/diffs.py)
CLICK = "git 2.39.5, pallets/click at 2c8cd3ac"
PIPWORK = "git 2.39.5, pypa/pip at 6d309205 after ruff --fix, git rm, git mv and new files"


def commit_heads(name):
    """[(commit line, its subject line)] in output order (merges too)."""
    lg = lines(name)
    out = []
    for i, ln in enumerate(lg):
        if ln.startswith("commit "):
            subject = next(x for x in lg[i + 1 : i + 8] if x.startswith("    "))
            out.append((ln, subject.strip()))
    return out


def file_heads(name, n):
    """The first hunk header of n files spread over the diff, where it names its place (`@@ ... @@ def f`)."""
    return spread([h for h in first_hunks(name) if not h.endswith("@@")], n)


def deleted_paths(name):
    lg = lines(name)
    return [lg[i - 1].split(" b/", 1)[1] for i, ln in enumerate(lg) if ln.startswith("deleted file mode")]


def status_groups(name):
    """{(section, state): [entry, ...]} of a long git status, in output order."""
    groups, section = {}, None
    for ln in lines(name):
        if ln.endswith(":") and not ln.startswith(("\t", " ")):
            section = ln
        elif section and ln.startswith("\t"):
            entry = ln.strip()
            state = entry.split(":", 1)[0] if re.match(r"^[a-z ]+:  ", entry) else "untracked"
            groups.setdefault((section, state), []).append(entry)
    return groups


cs = commit_heads("git-show-click-annotations")
add(
    "git-show-click-annotations",
    "git show of a typing refactor in pallets/click (ecdeb0c6: deferred evaluation of annotations, 18 files, 117 hunks,"
    " ~46 kB); keep the commit, its subject and changed lines spread over the files",
    CLICK,
    [cs[0][0], cs[0][1]] + diff_picks("git-show-click-annotations", 12) + file_heads("git-show-click-annotations", 2),
    noise=index_noise("git-show-click-annotations"),
)

add(
    "git-diff-click-fstrings",
    "git diff between two commits of pallets/click (9897d81d, f-strings everywhere: 40 files, one to a dozen changed"
    " lines in each, ~56 kB); keep changed lines of first, middle and last files with their paths",
    CLICK,
    diff_picks("git-diff-click-fstrings", 12) + file_heads("git-diff-click-fstrings", 2),
    noise=index_noise("git-diff-click-fstrings"),
)

cs = commit_heads("git-log-p-click-release")
add(
    "git-log-p-click-release",
    f"git log -p between two releases of pallets/click (8.4.0..8.4.1: {len(cs)} commits, merges among them, ~51 kB);"
    " keep the hash and subject of commits spread over the range and changed lines spread over the patches",
    CLICK,
    [x for h in spread(cs, 6) for x in h] + diff_picks("git-log-p-click-release", 8),
    noise=index_noise("git-log-p-click-release"),
)

gone = deleted_paths("git-diff-cached-pip-codemod")
add(
    "git-diff-cached-pip-codemod",
    f"git diff --cached after a ruff --fix codemod of pip ({len(diff_sections('git-diff-cached-pip-codemod')) - len(gone)}"
    f" changed files, a renamed module among them, and {len(gone)} deleted vendored files, ~128 kB); keep changed"
    " lines of files spread over the diff, the rename and the deleted files' paths",
    PIPWORK,
    ["rename from src/pip/_internal/utils/compat.py", "rename to src/pip/_internal/utils/_compat.py"]
    + [gone[0], gone[-1]]
    + diff_picks("git-diff-cached-pip-codemod", 11, skip=gone)
    + file_heads("git-diff-cached-pip-codemod", 2),
    noise=index_noise("git-diff-cached-pip-codemod"),
)

gs = status_groups("git-status-pip-codemod")
mk = ["On branch modernise", "Changes to be committed:", "Changes not staged for commit:", "Untracked files:"]
for entries in gs.values():
    mk += entries[:2] + entries[-2:]
add(
    "git-status-pip-codemod",
    f"git status after a ruff --fix codemod of pip ({sum(map(len, gs.values()))} entries: staged modified, deleted"
    " and renamed, unstaged modified and deleted, untracked files and a folder, ~12 kB); keep the branch, the"
    " section heads and the first and last entries of each state in each section",
    PIPWORK,
    list(dict.fromkeys(mk)),
    noise=[
        '(use "git restore --staged <file>..." to unstage)',
        '(use "git add/rm <file>..." to update what will be committed)',
        '(use "git add <file>..." to include in what will be committed)',
    ],
)

sh = lines("git-status-short-pip-codemod")
groups = {}
for ln in sh:
    groups.setdefault(ln[:2], []).append(ln)
mk = []
for items in groups.values():
    mk += items[:2] + items[-2:]
add(
    "git-status-short-pip-codemod",
    f"git status --short after the same codemod ({len(sh)} entries: 'M ', 'D ', 'R ', ' M', ' D', ??; ~9.5 kB);"
    " keep the first and last entries of each pair of state letters",
    PIPWORK,
    list(dict.fromkeys(m.lstrip() for m in mk)),
)

# -- An audit round (helper h62, 2026-12-06): outputs of public packages run on this
# machine (click, Flask, requests, itsdangerous and attrs sdists from PyPI, semver from npm,
# a small C project, a small Rust crate). The strings were written down by hand from the raw
# output, before any tokenjuice output of it was seen: what the agent needs for its next step.
AUDIT = "Debian 12, 2026-12-06"

add(
    "pytest-q-click-help-format",
    "python -m pytest -q over click 8.5.1's own suite with three real bugs put in (help indent, IntRange clamp, option normalisation): 20 failures among 2,414 passes, three of them with names long enough that pytest's title rule shrinks to one underscore a side (~30 kB); keep failing ids spread over the summary, one E line of each failure kind, raise sites and the verdict",
    "pytest 9.2.0 on Python 3.11.7",
    [
        "FAILED tests/test_arguments.py::test_argument_help_lists_undocumented_arguments",
        "FAILED tests/test_commands.py::test_deprecated_empty_help_no_leading_space[None-True]",
        "FAILED tests/test_formatting.py::test_formatting_custom_type_metavar - Assert...",
        "FAILED tests/test_options.py::test_option_help_preserve_paragraphs - Assertio...",
        "FAILED tests/test_types/test_IntRange.py::test_range[type8-5-4] - AssertionEr...",
        "E         At index 1 diff: '   SRC         Source path' != '  SRC         Source path'",
        "E       AssertionError: assert '\\n  (DEPRECATED' in 'Usage: cli [OPTIONS]\\n\\n   (DEPRECATED)\\n\\n Options:\\n    --help  Show this message and exit.\\n'",
        "E         At index 2 diff: '   First paragraph.' != '  First paragraph.'",
        "E       AssertionError: assert 3 == 4",
        "E        +  where 3 = convert('5', None, None)",
        "tests/test_arguments.py:341: AssertionError",
        "tests/test_commands.py:578: AssertionError",
        "tests/test_formatting.py:32: AssertionError",
        "tests/test_options.py:1110: AssertionError",
        "tests/test_types/test_IntRange.py:21: AssertionError",
        "20 failed, 2414 passed, 24 skipped, 31000 deselected, 1 xfailed",
    ],
    day=AUDIT,
)
add(
    "unittest-textwrap-23-failures",
    "python -m unittest test.test_textwrap against a copy of textwrap.py whose wrap width is one short: 23 FAIL blocks with assertion diffs (~30 kB); keep FAIL lines spread over the run, assertion messages, a test's own frame, Ran and the verdict",
    "Python 3.11.7 unittest",
    [
        "FAIL: test_subsequent_indent (test.test_textwrap.IndentTestCases.test_subsequent_indent)",
        "FAIL: test_break_long_words_on_hyphen (test.test_textwrap.LongWordWithHyphensTestCase.test_break_long_words_on_hyphen)",
        "FAIL: test_placeholder (test.test_textwrap.ShortenTestCase.test_placeholder)",
        "FAIL: test_em_dash (test.test_textwrap.WrapTestCase.test_em_dash)",
        "FAIL: test_whitespace (test.test_textwrap.WrapTestCase.test_whitespace)",
        "AssertionError: Lists differ: ['Hello', 'there, how', 'are you', 'this fine', [30 chars]it!'] != ['Hello there,', 'how are you', 'this fine', \"da[27 chars]it!']",
        "AssertionError: 'Hello there,$$' != 'Hello there, how$$'",
        "AssertionError: Lists differ: ['yaba', 'daba-doo'] != ['yaba daba-', 'doo']",
        "line 761, in test_subsequent_indent",
        "Ran 66 tests",
        "FAILED (failures=23)",
    ],
    day=AUDIT,
)
add(
    "flake8-click-src",
    "flake8 src in click 8.5.1: 453 findings, 382 of them E501, with three E302 and three E203 at the ends of their files (~31 kB); keep every E302 and E203 with its place, the first F401, an E501 and the codes",
    "flake8 7.5.0 (pycodestyle 2.15.0, pyflakes 4.1.0) on Python 3.11.7",
    [
        "src/click/_textwrap.py:60:32: E203 whitespace before ':'",
        "src/click/parser.py:106:46: E203 whitespace before ':'",
        "src/click/shell_completion.py:588:1: E302 expected 2 blank lines, found 0",
        "src/click/types.py:1348:1: E302 expected 2 blank lines, found 0",
        "src/click/types.py:1356:1: E302 expected 2 blank lines, found 0",
        "src/click/__init__.py:10:1: F401 '.core.Argument' imported but unused",
        "src/click/utils.py:670:80: E501 line too long (84 > 79 characters)",
        "E501 line too long",
        "F401",
    ],
    day=AUDIT,
)
add(
    "ruff-select-all-flask-fix",
    "ruff check --select ALL src in Flask 3.1.3, whose pyproject sets fix = true: 1,226 findings, 185 fixed in place and listed per file (~605 kB); keep the security and naming codes that occur once with their places, the fixed line and the totals",
    "ruff 0.17.6",
    [
        "S307 Use of possibly insecure function; consider using `ast.literal_eval`",
        "src/flask/cli.py:1028:13",
        "S102 Use of `exec` detected",
        "src/flask/config.py:209:17",
        "S324 Probable use of insecure hash functions in `hashlib`: `sha1`",
        "src/flask/sessions.py:280:12",
        "S704 Unsafe use of `markupsafe.Markup` detected",
        "src/flask/json/tag.py:191:16",
        "N818 Exception name `FormDataRoutingRedirect` should be named with an Error suffix",
        "TRY004 Prefer `TypeError` exception for invalid type",
        "src/flask/sansio/scaffold.py:687:13",
        "PLW0603 Using the global statement to update `_werkzeug_version` is discouraged",
        "Fixed 185 errors:",
        "Found 1226 errors (185 fixed, 1041 remaining).",
        "103 unsafe fixes available with `--fix --unsafe-fixes`.",
    ],
    day=AUDIT,
)
add(
    "tsc-checkjs-semver",
    "npx tsc --allowJs --checkJs --noEmit --strict over semver 7's JavaScript (npm pack): 396 errors of 13 codes, 232 of them TS7006 (~38 kB); keep one error of each rare code with its place and spread TS7006 and TS2339 lines",
    "TypeScript 7.0.2 via npx, Node 20.20.2",
    [
        "semver/ranges/min-version.js(20,3): error TS2322: Type 'null' is not assignable to type 'SemVer'.",
        "semver/internal/re.js(9,11): error TS2309: An export assignment cannot be used in a module with other exported elements.",
        "semver/internal/re.js(46,3): error TS7053: Element implicitly has an 'any' type because expression of type 'any' can't be used to index type '{}'.",
        "semver/internal/debug.js(8,6): error TS7019: Rest parameter 'args' implicitly has an 'any[]' type.",
        "semver/internal/debug.js(4,10): error TS2591: Cannot find name 'process'.",
        "semver/classes/comparator.js(139,9): error TS2305: Module '\"../internal/re\"' has no exported member 'safeRe'.",
        "semver/ranges/min-version.js(24,9): error TS7034: Variable 'setMin' implicitly has type 'any' in some locations where its type cannot be determined.",
        "semver/classes/comparator.js(10,16): error TS7006: Parameter 'comp' implicitly has an 'any' type.",
        "semver/classes/comparator.js(30,48): error TS2339: Property 'version' does not exist on type 'symbol | SemVer'.",
        "semver/ranges/valid.js(4,28): error TS7006: Parameter 'options' implicitly has an 'any' type.",
    ],
    day=AUDIT,
)
add(
    "pylint-itsdangerous",
    "pylint src/itsdangerous in the itsdangerous 2.2.0 sdist: 60 messages, no error, the score (~7 kB, modest); keep every warning and refactor message with its place, conventions of each code and the score",
    "pylint 4.1.5 on Python 3.11.7",
    [
        "src/itsdangerous/signer.py:231:15: W0718: Catching too general exception Exception (broad-exception-caught)",
        'src/itsdangerous/signer.py:200:8: R1705: Unnecessary "elif" after "return", replace only that "elif" with "if" (no-else-return)',
        "src/itsdangerous/serializer.py:331:0: W0613: Unused argument 'kwargs' (unused-argument)",
        "src/itsdangerous/timed.py:185:4: W0237: Parameter 'salt' has been renamed to 'max_age' in overriding 'TimedSerializer.loads' method (arguments-renamed)",
        "src/itsdangerous/timed.py:185:4: W0221: Variadics removed in overriding 'TimedSerializer.loads' method (arguments-differ)",
        "src/itsdangerous/timed.py:222:4: W0237: Parameter 'salt' has been renamed to 'max_age' in overriding 'TimedSerializer.loads_unsafe' method (arguments-renamed)",
        "src/itsdangerous/timed.py:114:15: W0718: Catching too general exception Exception (broad-exception-caught)",
        "src/itsdangerous/timed.py:182:5: W0511: TODO: Signature is incompatible because parameters were added (fixme)",
        "src/itsdangerous/encoding.py:20:18: W0621: Redefining name 'string' from outer scope (line 4) (redefined-outer-name)",
        "src/itsdangerous/encoding.py:28:18: W0621: Redefining name 'string' from outer scope (line 4) (redefined-outer-name)",
        "src/itsdangerous/serializer.py:42:0: R0902: Too many instance attributes (8/7) (too-many-instance-attributes)",
        'src/itsdangerous/serializer.py:18:4: C0103: Type variable name "_TSerialized" doesn\'t conform to predefined naming style (invalid-name)',
        'src/itsdangerous/encoding.py:42:0: C0103: Constant name "_base64_alphabet" doesn\'t conform to UPPER_CASE naming style (invalid-name)',
        "src/itsdangerous/__init__.py:5:0: C0414: Import alias does not rename original package (useless-import-alias)",
        "src/itsdangerous/__init__.py:26:8: C0415: Import outside toplevel (importlib.metadata) (import-outside-toplevel)",
        "src/itsdangerous/serializer.py:110:4: R0913: Too many arguments (7/5) (too-many-arguments)",
        "Your code has been rated at 8.67/10",
    ],
    day=AUDIT,
)
add(
    "mypy-requests",
    "mypy src/requests in the requests 2.34.2 sdist without its dependencies installed: 61 errors, import-not-found ones among real type errors, with notes (~10 kB, modest); keep the real type errors with their places, a missing-stub error of each kind and the verdict",
    "mypy 2.4.1 on Python 3.11.7",
    [
        'src/requests/certs.py:15: error: Cannot find implementation or library stub for module named "certifi"  [import-not-found]',
        'src/requests/compat.py:67: error: Library stubs not installed for "simplejson"  [import-untyped]',
        'src/requests/compat.py:100: error: Module "urllib.request" has no attribute "proxy_bypass_environment"  [attr-defined]',
        'src/requests/hooks.py:44: error: Item "function" of "Iterable[Callable[[Response], Any]] | Callable[[Response], Any]" has no attribute "__iter__" (not iterable)  [union-attr]',
        "src/requests/cookies.py:241: error: Return value expected  [return-value]",
        "src/requests/utils.py:231: error: Missing return statement  [return]",
        'src/requests/utils.py:1107: error: Incompatible types in assignment (expression has type "Pattern[bytes]", variable has type "Pattern[str]")  [assignment]',
        "src/requests/auth.py:221: error: If x = b'abc'",
        'src/requests/models.py:686: error: Incompatible types in assignment (expression has type "Callable[..., PreparedRequest]", variable has type "HTTPBasicAuth")  [assignment]',
        'src/requests/models.py:1008: error: No overload variant of "iter_content" of "Response" matches argument types "int", "bool"  [call-overload]',
        'src/requests/help.py:34: error: Name "OpenSSL" already defined on line 30  [no-redef]',
        "src/requests/sessions.py:132: error: Missing return statement  [empty-body]",
        'src/requests/sessions.py:232: error: Argument "fragment" to "_replace" of "_ParseResultBase" has incompatible type "str | bytes"; expected "str"  [arg-type]',
        'src/requests/__init__.py:85: error: Unsupported operand types for >= ("tuple[str, str, str]" and "tuple[int, int, int]")  [operator]',
        'src/requests/__init__.py:133: error: Incompatible types in assignment (expression has type "None", variable has type Module)  [assignment]',
        'src/requests/adapters.py:63: error: Cannot find implementation or library stub for module named "urllib3.contrib.socks"  [import-not-found]',
        "Found 61 errors in 12 files (checked 19 source files)",
    ],
    day=AUDIT,
)
add(
    "cargo-test-ledger-2-failures",
    "cargo test in a small ledger crate with two failing tests, with RUST_BACKTRACE set (stack backtraces, ~3.4 kB); keep each FAILED line, its panic place and message, left/right and the result line",
    "cargo 1.95.0",
    [
        "test tests::rejects_garbage ... FAILED",
        "test tests::parses_small_amounts ... FAILED",
        "thread 'tests::rejects_garbage' (14136) panicked at src/lib.rs:74:44:",
        'called `Result::unwrap()` on an `Err` value: "invalid float literal"',
        "thread 'tests::parses_small_amounts' (14134) panicked at src/lib.rs:64:9:",
        "assertion `left == right` failed: 0.29 should be 29 cents",
        "left: 28",
        "right: 29",
        "test result: FAILED. 4 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out",
        "error: test failed, to rerun pass `--lib`",
    ],
    day=AUDIT,
)
add(
    "make-gcc-kv-errors",
    "make in a three-file C project: a missing semicolon (the error that stops make), an implicit declaration, a format warning and two more warnings (~1.2 kB); keep every diagnostic with its place and make's error line",
    "GNU Make 4.3, gcc 12.2.0",
    [
        "main.c:14:14: warning: format ‘%d’ expects argument of type ‘int’, but argument 2 has type ‘size_t’ {aka ‘long unsigned int’} [-Wformat=]",
        "main.c:15:12: warning: implicit declaration of function ‘store_lookup’ [-Wimplicit-function-declaration]",
        "parse.c:10:28: error: expected ‘;’ before ‘return’",
        "10 |     *value = strdup(eq + 1)",
        "parse.c:6:9: warning: unused variable ‘unused_len’ [-Wunused-variable]",
        "parse.c:12:1: warning: control reaches end of non-void function [-Wreturn-type]",
        "make: *** [Makefile:7: parse.o] Error 1",
    ],
    day=AUDIT,
)
add(
    "pytest-v-click-all",
    "python -m pytest -v over the same click suite after more edits: 2,239 PASSED lines and 20 failures with -v's full diffs (~243 kB); keep failing ids among the result lines, one E line of each kind, raise sites, summary lines and the verdict",
    "pytest 9.2.0 on Python 3.11.7",
    [
        "tests/test_arguments.py::test_argument_help_lists_undocumented_arguments FAILED",
        "tests/test_commands.py::test_deprecated_empty_help_no_leading_space[None-True] FAILED",
        "tests/test_formatting.py::test_global_show_default FAILED",
        "tests/test_types/test_IntRange.py::test_range[type8-5-4] FAILED",
        "E         At index 1 diff: '   SRC         Source path' != '  SRC         Source path'",
        "E         At index 3 diff: '   -f TEXT  Output file name  [default: out.txt]' != '  -f TEXT  Output file name  [default: out.txt]'",
        "E       AssertionError: assert 2 == 1",
        "E       AssertionError: assert 3 == 4",
        "tests/test_arguments.py:341: AssertionError",
        "tests/test_types/test_IntRange.py:21: AssertionError",
        "FAILED tests/test_options.py::test_option_help_preserve_paragraphs - Assertio...",
        "FAILED tests/test_types/test_IntRange.py::test_range[type7-0-1] - AssertionEr...",
        "20 failed, 2239 passed, 24 skipped, 31000 deselected, 1 xfailed",
    ],
    day=AUDIT,
)
add(
    "git-status-click-mixed",
    "git status in click's tree after a staged delete, a staged rename, staged and unstaged edits, an unstaged delete and untracked files and a folder (~1.1 kB, modest); keep the branch, the section heads and every entry",
    "git 2.39.5",
    [
        "On branch master",
        "Changes to be committed:",
        "deleted:    docs/quickstart.md",
        "renamed:    docs/api.md -> docs/reference.md",
        "modified:   src/click/core.py",
        "modified:   src/click/types.py",
        "Changes not staged for commit:",
        "modified:   src/click/_compat.py",
        "modified:   src/click/decorators.py",
        "modified:   src/click/shell_completion.py",
        "modified:   src/click/utils.py",
        "deleted:    tests/test_compat.py",
        "modified:   tests/test_types/test_Path.py",
        "Untracked files:",
        "docs/quickstart.md",
        "notes.txt",
        "src/click/_vendor/",
    ],
    day=AUDIT,
)
add(
    "rg-flask-request",
    "rg -n 'request\\\\.' src tests in the Flask 3.1.3 sdist: 176 matches in 28 files (~14 kB); keep matches spread over source and test files",
    "ripgrep 13.0.0",
    [
        "src/flask/globals.py:39:an active HTTP request. Consult the documentation on testing for",
        "src/flask/views.py:183:        meth = getattr(self, request.method.lower(), None)",
        "src/flask/app.py:804:        handler = self._find_error_handler(e, request.blueprints)",
        "src/flask/sansio/scaffold.py:479:",
        "src/flask/ctx.py:426:            ctx = _cv_request.get()",
        'tests/test_appctx.py:184:        assert flask.request.environ["werkzeug.request"] is not None',
        "tests/test_testing.py:255:        return jsonify(flask.request.get_json())",
        'tests/test_basic.py:1063:        flask.request.form["missing_key"]',
        "tests/test_reqctx.py:257:",
        "src/flask/sessions.py:327:        val = request.cookies.get(self.get_cookie_name(app))",
        'src/flask/cli.py:1064:        " when dispatching a request."',
    ],
    day=AUDIT,
)

# -- A second audit round (helper h64, 2026-12-06): JS/TS, Java, C/C++, Rust, git and shell
# outputs run on this machine (jest, mocha, vitest, tsc, eslint over express and lodash from npm,
# npm, esbuild, javac, cmake, make -j4, cargo, git conflicts, find and env as a user). The strings
# were written down by hand from each raw output before any tokenjuice output of it was seen.
AUDIT2 = "Debian 12, 2026-12-06"

add(
    "find-root-libuv-all",
    "find / as an unprivileged user: 914 'Permission denied' lines (/proc, /etc, /tmp, /var) around 9 paths found (~47 kB); keep every path found and that folders were unreadable",
    "GNU findutils 4.9.0, run as nobody",
    [
        "/usr/share/doc/libuv1",
        "/usr/lib/x86_64-linux-gnu/libuv.so.1",
        "/usr/lib/x86_64-linux-gnu/libuv.so.1.0.0",
        "/var/cache/apt/archives/libuv1_1.44.2-1+deb12u1_amd64.deb",
        "/var/lib/dpkg/info/libuv1:amd64.md5sums",
        "/var/lib/dpkg/info/libuv1:amd64.symbols",
        "Permission denied",
    ],
    day=AUDIT2,
)
add(
    "find-root-name-full",
    "find over /etc, /var, /root and /proc/1 as an unprivileged user: 135 'Permission denied' lines around 11 paths (~7 kB); keep the paths found",
    "GNU findutils 4.9.0, run as nobody",
    [
        "/etc/pam.d/passwd",
        "/etc/passwd-",
        "/etc/passwd",
        "/var/lib/dpkg/info/passwd.conffiles",
        "/var/cache/apt/archives/passwd_1%3a4.13+dfsg1-1+deb12u2_amd64.deb",
    ],
    day=AUDIT2,
)
add(
    "jest-cart-failures",
    "npx jest --ci over a cart module: 6 failures (toBe, toThrow, toEqual diff, a snapshot diff, a 500 ms timeout, a TypeError) among 104 tests (~5.5 kB, modest); keep each failing title, its expected/received or diff line, its place and the summary lines",
    "jest 30.5.2 via npx, Node 20.20.2",
    [
        "● cart › total sums price times qty",
        "Expected: 12",
        "Received: 11",
        "at Object.toBe (test/cart.test.js:4:65)",
        "● cart › applyDiscount rejects unknown code",
        'Expected substring: "invalid discount code"',
        'Received message:   "unknown discount code: BOGUS"',
        "at applyDiscount (src/cart.js:7:9)",
        "● cart › formatUser builds a display object",
        '-   "active": true,',
        "at Object.toEqual (test/cart.test.js:13:8)",
        "● cart › formatUser snapshot",
        '-   "name": "Grace M. Hopper",',
        '+   "name": "Grace Hopper",',
        "● cart › fetchPrice resolves for slow sku",
        'thrown: "Exceeded timeout of 500 ms for a test.',
        "at test (test/cart.test.js:18:3)",
        "● cart › formatUser tolerates a missing email",
        "TypeError: Cannot read properties of undefined (reading 'toLowerCase')",
        "at toLowerCase (src/cart.js:10:57)",
        "Test Suites: 1 failed, 12 passed, 13 total",
        "Tests:       6 failed, 98 passed, 104 total",
        "Snapshots:   1 failed, 1 total",
    ],
    day=AUDIT2,
)
add(
    "mocha-cart",
    "npx mocha over the same cart module: 4 failures (strict equal, deep equal diff, timeout, TypeError) among 36 tests (~2 kB, modest); keep each failing title, its message and place, and the counts",
    "mocha 12.0.3 via npx, Node 20.20.2",
    [
        "32 passing",
        "4 failing",
        "total sums:",
        "11 !== 12",
        "at Context.<anonymous> (test/mocha-cart.spec.js:4:41)",
        "formatUser deep:",
        "-   active: true,",
        "at Context.<anonymous> (test/mocha-cart.spec.js:8:12)",
        "fetchPrice slow:",
        "Error: Timeout of 300ms exceeded.",
        "missing email:",
        "TypeError: Cannot read properties of undefined (reading 'toLowerCase')",
        "at formatUser (src/cart.js:10:57)",
        "at Context.<anonymous> (test/mocha-cart.spec.js:13:37)",
    ],
    day=AUDIT2,
)
add(
    "vitest-run-cart",
    "npx vitest run over the same cart module, coloured: 4 failures (toBe, toEqual diff, timeout, toThrow) among 24 tests (~6 kB, modest); keep each FAIL title, its message and place, and the Tests line",
    "vitest 4.1.12 via npx, Node 20.20.2",
    [
        "FAIL  vt/cart.test.mjs > cart (vitest) > total sums",
        "AssertionError: expected 11 to be 12 // Object.is equality",
        "vt/cart.test.mjs:5:88",
        "FAIL  vt/cart.test.mjs > cart (vitest) > formatUser deep",
        '-   "active": true,',
        "vt/cart.test.mjs:8:8",
        "FAIL  vt/cart.test.mjs > cart (vitest) > fetchPrice slow",
        "Error: Test timed out in 300ms.",
        "vt/cart.test.mjs:10:3",
        "FAIL  vt/cart.test.mjs > cart (vitest) > discount bogus",
        "AssertionError: expected [Function] to throw error matching /invalid/ but got 'unknown discount code: X'",
        "vt/cart.test.mjs:12:68",
        "Tests  4 failed | 20 passed (24)",
    ],
    day=AUDIT2,
)
add(
    "tsc-pretty-userservice",
    "npx tsc --noEmit --pretty over a two-file TS project: 8 errors with code frames and related-location notes, coloured (~3 kB, modest); keep every error with its place and the verdict",
    "TypeScript 7.0.2 via npx, Node 20.20.2",
    [
        "src/model.ts:3:55 - error TS18048: 'u.email' is possibly 'undefined'.",
        "src/service.ts:2:25 - error TS2307: Cannot find module './nowhere' or its corresponding type declarations.",
        "src/service.ts:6:62 - error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
        "src/service.ts:7:79 - error TS2554: Expected 1 arguments, but got 2.",
        "src/service.ts:8:21 - error TS2322: Type 'string' is not assignable to type 'number'.",
        "src/service.ts:9:78 - error TS2551: Property 'lenght' does not exist on type 'string'. Did you mean 'length'?",
        "src/service.ts:12:7 - error TS2741: Property 'roles' is missing in type '{ id: number; name: string; }' but required in type 'User'.",
        "src/service.ts:13:9 - error TS2322: Type 'string' is not assignable to type 'number'.",
        "Found 8 errors in 2 files.",
    ],
    day=AUDIT2,
)
add(
    "eslint-express-lib",
    "npx eslint express/lib (express 4.22.3 from npm pack) with no-var and eqeqeq on: 377 errors, 363 of them no-var (~29 kB); keep the rare rules with their lines and files, and the totals",
    "eslint 9.39.5 via npx, Node 20.20.2",
    [
        "/tmp/h64/eslint/express/lib/request.js",
        "245:38  error  Do not access Object.prototype method 'hasOwnProperty' from target object  no-prototype-builtins",
        "/tmp/h64/eslint/express/lib/response.js",
        "334:36  error  Unnecessary escape character: \\[          no-useless-escape",
        "/tmp/h64/eslint/express/lib/router/index.js",
        "116:9   error  Expected a conditional expression and instead saw an assignment  no-cond-assign",
        "466:9   error  'fn' is already defined                                          no-redeclare",
        "540:12  error  'err' is defined but never used                                  no-unused-vars",
        "/tmp/h64/eslint/express/lib/view.js",
        "179:12  error  'e' is defined but never used             no-unused-vars",
        "574:27  error  Expected '===' and instead saw '=='       eqeqeq",
        "✖ 377 problems (377 errors, 0 warnings)",
        "361 errors and 0 warnings potentially fixable with the `--fix` option.",
    ],
    day=AUDIT2,
)
add(
    "eslint-lodash-big",
    "npx eslint lodash/lodash.js lodash/fp (lodash 4.18.1): 1,470 errors, 1,087 no-var and 348 eqeqeq (~133 kB); keep the one-off rules with their lines, the file and the totals",
    "eslint 9.39.5 via npx, Node 20.20.2",
    [
        "/tmp/h64/eslint/lodash/lodash.js",
        "169:21   error  Unexpected control character(s) in regular expression: \\x00  no-control-regex",
        "291:29   error  Unexpected combined character in character class             no-misleading-character-class",
        "5532:55   error  Unexpected comma in middle of array                          no-sparse-arrays",
        "5795:9    error  Expected a 'break' statement before 'case'                   no-fallthrough",
        "17244:5    error  'define' is not defined                                      no-undef",
        "✖ 1470 problems (1470 errors, 0 warnings)",
    ],
    day=AUDIT2,
)
add(
    "javac-shop-symbols",
    "javac -Xlint:all over a three-class package: two 'cannot find symbol' errors with their symbol and location lines and an incompatible-types error (~0.7 kB); keep every error with its place and details",
    "OpenJDK javac 17.0.15",
    [
        "src/shop/Item.java:6: error: cannot find symbol",
        "symbol:   variable undefinedThing",
        "location: class Item",
        "src/shop/Order.java:11: error: cannot find symbol",
        "symbol:   variable customer",
        "location: class Order",
        "src/shop/Order.java:12: error: incompatible types: List<Item> cannot be converted to List<String>",
        "3 errors",
    ],
    day=AUDIT2,
)
add(
    "cmake-build-link-error",
    "cmake --build build of a small C++ project: two warnings in a library source, then an undefined reference at link time (~1.4 kB); keep the warnings with their places, the undefined reference and make's error lines",
    "cmake 3.25.1, GNU Make 4.3, g++ 12.2.0",
    [
        "/tmp/h64/cpp/src/stock.cpp:4:23: warning: comparison of integer expressions of different signedness: ‘int’ and ‘std::vector<Item>::size_type’ {aka ‘long unsigned int’} [-Wsign-compare]",
        "/tmp/h64/cpp/src/stock.cpp:5:13: warning: unused variable ‘unused’ [-Wunused-variable]",
        "report.cpp:(.text+0x121): undefined reference to `audit_log(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)'",
        "collect2: error: ld returned 1 exit status",
        "gmake[2]: *** [CMakeFiles/inv.dir/build.make:98: inv] Error 1",
    ],
    day=AUDIT2,
)
add(
    "make-j4-interleaved",
    "make -j4 -k over eight C files, two with errors and three with warnings, their diagnostics interleaved with compile lines (~1.5 kB); keep every diagnostic with its place and make's error lines",
    "GNU Make 4.3, gcc 12.2.0",
    [
        "beta.c:8:15: error: expected ‘;’ before ‘}’ token",
        "delta.c:7:14: warning: format ‘%s’ expects argument of type ‘char *’, but argument 2 has type ‘int’ [-Wformat=]",
        "make: *** [<builtin>: beta.o] Error 1",
        "zeta.c:6:21: warning: implicit declaration of function ‘undeclared_fn’ [-Wimplicit-function-declaration]",
        "theta.c:4:38: error: storage size of ‘x’ isn’t known",
        "theta.c:4:38: warning: unused variable ‘x’ [-Wunused-variable]",
        "make: *** [<builtin>: theta.o] Error 1",
        "make: Target 'app' not remade because of errors.",
    ],
    day=AUDIT2,
)
add(
    "cargo-clippy-invrs",
    "cargo clippy on a small crate with no dependencies: 7 clippy warnings with help text (~3.3 kB, modest); keep each warning with its place and the suggested replacements",
    "cargo 1.95.0, clippy",
    [
        "warning: unneeded `return` statement",
        "--> src/lib.rs:8:5",
        "warning: writing `&Vec` instead of `&[_]` involves a new object where a slice will do",
        "--> src/lib.rs:3:21",
        "warning: the loop variable `i` is only used to index `items`",
        "--> src/lib.rs:5:14",
        "warning: manual implementation of an assign operation",
        "--> src/lib.rs:6:9",
        "help: replace it with: `t += items[i].price * items[i].qty as f64`",
        "warning: called `filter(..).next()` on an `Iterator`. This is more succinctly expressed by calling `.find(..)` instead",
        "--> src/lib.rs:12:5",
        "help: try: `items.iter().find(|i| i.sku == sku)`",
        "warning: writing `&String` instead of `&str` involves a new object where a slice will do",
        "--> src/lib.rs:15:25",
        "warning: length comparison to zero",
        "--> src/lib.rs:15:44",
    ],
    day=AUDIT2,
)
add(
    "cargo-test-invrs",
    "cargo test with two failing tests and RUST_BACKTRACE set (~2.8 kB); keep the FAILED lines, panic places, messages, left/right and the result",
    "cargo 1.95.0",
    [
        "test tests::totals ... FAILED",
        "test tests::finds ... FAILED",
        "thread 'tests::totals' (13829) panicked at src/lib.rs:21:79:",
        "left: 3.0",
        "right: 3.5",
        "thread 'tests::finds' (13827) panicked at src/lib.rs:23:78:",
        "sku b should be found",
        "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out",
    ],
    day=AUDIT2,
)
add(
    "git-diff-merge-conflict",
    "git diff during a merge stopped on two conflicted files of express (a combined diff with conflict markers, ~1.4 kB); keep both sides of each conflict and the file headers",
    "git 2.39.5",
    [
        "diff --cc lib/application.js",
        "+let deprecate = require('depd')('express');",
        "+ const deprecate = require('depd')('express');",
        "+  this.cache = new Map();",
        "+   this.cache = Object.create(null);",
        "diff --cc lib/response.js",
        "+res.status = function status(code) { // main: coerce",
        "+ res.status = function status(code) { // feature: validate",
        "<<<<<<< HEAD",
        ">>>>>>> feature",
    ],
    day=AUDIT2,
)
add(
    "env-with-secrets",
    "env in a shell holding cloud, GitHub, database, Stripe and OpenAI credentials (~0.6 kB); keep every variable name and the plain values; the secret values are noise that must not be shown",
    "coreutils env 9.1",
    [
        "AWS_REGION=eu-west-1",
        "AWS_ACCESS_KEY_ID=",
        "AWS_SECRET_ACCESS_KEY=",
        "GITHUB_TOKEN=",
        "DATABASE_URL=",
        "STRIPE_API_KEY=",
        "OPENAI_API_KEY=",
        "REDIS_PASSWORD=",
        "NODE_ENV=production",
        "APP_PORT=8080",
        "LOG_LEVEL=debug",
        "PWD=/home/dev/shop",
    ],
    noise=[
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYh64SECRETKEY",
        "ghp_h64FakeToken0123456789abcdefABCDEF01",
        "s3cr3tPassw0rd",
        "sk_live_h64fake51HqZ2eKJ9xYzAbCdEfGh",
        "sk-proj-h64FAKEabcdefghijklmnopqrstuvwxyz0123",
        "hunter2-h64",
    ],
    day=AUDIT2,
)
add(
    "cat-node-server-log",
    "cat server.log of a node service: 2,200 access lines around two errors with stack traces and a pool warning (~142 kB); keep the errors, their frames, the warning and the first and last lines",
    "a log written by a script standing in for the service",
    [
        "ERROR [orders] payment capture failed order=ord_88213 provider=stripe status=402 code=card_declined",
        "ERROR [orders] Error: Payment required",
        "at capture (/srv/shop/src/payments.js:88:11)",
        "at async placeOrder (/srv/shop/src/orders.js:142:5)",
        "WARN  [db] pool exhausted waiting=12 max=10 after 5000ms",
        "ERROR [api] TypeError: Cannot read properties of null (reading 'sku')",
        "at lineTotal (/srv/shop/src/cart.js:27:19)",
        "at cartTotal (/srv/shop/src/cart.js:33:22)",
        "2026-12-06T09:00:00.537Z INFO  [http] GET /static/app.js 304 69ms",
        "2026-12-06T09:17:28.708Z INFO  [http] GET /static/app.js 200 66ms",
    ],
    day=AUDIT2,
)
add(
    "npm-install-peer-conflict",
    "npm install react@17 react-dom@18: ERESOLVE on react-dom's peer dependency (~0.8 kB); keep the conflict, both requirements and the way out",
    "npm 11.19.1, Node 20.20.2",
    [
        "ERESOLVE unable to resolve dependency tree",
        "Found: react@17.0.2",
        'react@"17" from the root project',
        'peer react@"^18.3.1" from react-dom@18.3.1',
        'react-dom@"18" from the root project',
        "--legacy-peer-deps",
    ],
    day=AUDIT2,
)
add(
    "npm-run-build-esbuild-resolve",
    "npm run build running esbuild: three imports that do not resolve, with code frames (~0.7 kB); keep each error and its place, and the count",
    "esbuild 0.28.2, npm 11.19.1",
    [
        '✘ [ERROR] Could not resolve "./format"',
        "app/index.js:2:20:",
        '✘ [ERROR] Could not resolve "lodahs"',
        "app/index.js:3:19:",
        '✘ [ERROR] Could not resolve "./view.js"',
        "app/index.js:4:23:",
        "3 errors",
    ],
    day=AUDIT2,
)
add(
    "python-traceback-keyerror",
    "python3 tb.py: a KeyError raised inside a recursive merge (~0.3 kB); keep each frame, the failing line and the exception",
    "Python 3.11.7",
    [
        'File "/tmp/h64/sh/tb.py", line 14, in <module>',
        'File "/tmp/h64/sh/tb.py", line 12, in main',
        'File "/tmp/h64/sh/tb.py", line 7, in merge',
        "out[k] = merge(out[k], v) if isinstance(v, dict) else v",
        "KeyError: 'cache'",
    ],
    day=AUDIT2,
)
FOLLOWUPS = "Debian 12, 2026-12-07"

add(
    "python-c-requests-connection-refused",
    "python -c calling requests.get on a closed port: four chained tracebacks through requests, urllib3 and http.client, none in the project's code (~4.2 kB); keep every exception line, the chain separators, each trace's first and last frame and the frames where the call crosses into another package",
    "Python 3.11.7, requests 2.34.2, urllib3 2.8.0",
    [
        'File "<string>", line 1, in <module>',
        'requests/adapters.py", line 729, in send',
        "raise ConnectionError(e, request=request)",
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=9): Max retries exceeded with url: /api/orders",
        "During handling of the above exception, another exception occurred:",
        "The above exception was the direct cause of the following exception:",
        "urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='127.0.0.1', port=9): Max retries exceeded with url: /api/orders",
        "urllib3.exceptions.NewConnectionError: HTTPConnection(host='127.0.0.1', port=9): Failed to establish a new connection: [Errno 111] Connection refused",
        "ConnectionRefusedError: [Errno 111] Connection refused",
        'urllib3/connection.py", line 239, in _new_conn',
        'urllib3/util/connection.py", line 73, in create_connection',
        'urllib3/connectionpool.py", line 793, in urlopen',
        'http/client.py", line 986, in send',
        'urllib3/connection.py", line 254, in _new_conn',
        'requests/adapters.py", line 696, in send',
        'urllib3/util/retry.py", line 555, in increment',
        'requests/sessions.py", line 784, in send',
    ],
    day=FOLLOWUPS,
)
add(
    "python-c-jinja2-template-filter",
    "python -c rendering a Jinja2 template that uses an unknown filter: the traceback runs through jinja2's loader and compiler into the template file (~1.3 kB); keep the frames, the template line and the TemplateAssertionError",
    "Python 3.11.7, Jinja2 3.1.6",
    [
        'File "<string>", line 4, in <module>',
        'jinja2/environment.py", line 1016, in get_template',
        'jinja2/loaders.py", line 138, in load',
        'jinja2/environment.py", line 942, in handle_exception',
        'File "templates/orders.html", line 7, in template',
        '<p>Total: {{ orders | sum(attribute="total") | money }}</p>',
        "jinja2.exceptions.TemplateAssertionError: No filter named 'money'.",
    ],
    day=FOLLOWUPS,
)
add(
    "django-migrate-no-psycopg",
    "python manage.py migrate with the postgresql engine and no psycopg installed: three chained tracebacks, the last through Django's app loading, importlib and the database backend (~4.4 kB); keep both ModuleNotFoundErrors, the ImproperlyConfigured line and where it was raised, the project's frames and the frames where the call crosses packages",
    "Python 3.11.7, Django 5.2.20",
    [
        "ModuleNotFoundError: No module named 'psycopg'",
        "ModuleNotFoundError: No module named 'psycopg2'",
        "During handling of the above exception, another exception occurred:",
        'django/db/backends/postgresql/base.py", line 25, in <module>',
        'django/db/backends/postgresql/base.py", line 27, in <module>',
        'shop/manage.py", line 22, in <module>',
        'shop/manage.py", line 18, in main',
        'django/db/backends/postgresql/base.py", line 29, in <module>',
        'raise ImproperlyConfigured("Error loading psycopg2 or psycopg module")',
        "django.core.exceptions.ImproperlyConfigured: Error loading psycopg2 or psycopg module",
        'django/apps/config.py", line 269, in import_models',
        'django/db/utils.py", line 113, in load_backend',
        'django/contrib/auth/models.py", line 5, in <module>',
    ],
    day=FOLLOWUPS,
)
add(
    "django-migrate-runsql-error",
    "python manage.py migrate where a RunSQL migration names a column that does not exist: 18 migrations applied, then a chained traceback from sqlite3 through Django's migration executor (~5.5 kB); keep the migration that failed, both exception lines, where it was re-raised and the frames of the call path",
    "Python 3.11.7, Django 5.2.20, SQLite 3.40",
    [
        "Applying orders.0002_backfill_cents...Traceback (most recent call last):",
        "Applying orders.0001_initial... OK",
        "Apply all migrations: admin, auth, contenttypes, orders, sessions",
        "sqlite3.OperationalError: no such column: total_cents",
        "The above exception was the direct cause of the following exception:",
        "django.db.utils.OperationalError: no such column: total_cents",
        'shop/manage.py", line 22, in <module>',
        'django/db/backends/sqlite3/base.py", line 356, in execute',
        'django/db/backends/utils.py", line 103, in _execute',
        'django/db/migrations/operations/special.py", line 135, in _run_sql',
        'django/db/utils.py", line 91, in __exit__',
        "raise dj_exc_value.with_traceback(traceback) from exc_value",
        'django/core/management/commands/migrate.py", line 353, in handle',
    ],
    day=FOLLOWUPS,
)
add(
    "npx-esbuild-27-warnings",
    "npx esbuild bundling five modules with 27 warnings of nine kinds (typeof, NaN and -0 comparisons, duplicate keys and cases, direct eval…), each with its place and code frame (~9.3 kB); keep one warning of each kind, places spread over the files, the count and the output file",
    "esbuild 0.28.2, npm 11.19.1",
    [
        '▲ [WARNING] The "typeof" operator will never evaluate to "elemnt" [impossible-typeof]',
        "src/index.js:5:20:",
        'The CommonJS "module" variable is treated as a global variable in an ECMAScript module and may not work as expected [commonjs-variable-in-esm]',
        'Duplicate key "ok" in object literal [duplicate-object-key]',
        '"import.meta" is not available with the "iife" output format and will be empty [empty-import-meta]',
        'Comparison with NaN using the "===" operator here is always false [equals-nan]',
        'Comparison with -0 using the "===" operator will also match 0 [equals-negative-zero]',
        "This case clause will never be evaluated because it duplicates an earlier case clause [duplicate-case]",
        'Suspicious use of the "!" operator inside the "in" operator [suspicious-boolean-not]',
        "Using direct eval with a bundler is not recommended and may cause problems [direct-eval]",
        "src/money.js:10:16:",
        "src/stock.js:8:50:",
        "src/cart.js:24:60:",
        "src/util.js:20:9:",
        "27 warnings",
        "dist/app.js  3.0kb",
        "⚡ Done in 8ms",
    ],
    day=FOLLOWUPS,
)
add(
    "npx-esbuild-missing-exports",
    "npx esbuild where three imports name exports that do not exist, after 27 warnings (~9.9 kB); keep the three errors with their places, the count and warnings spread over the kinds",
    "esbuild 0.28.2, npm 11.19.1",
    [
        '✘ [ERROR] No matching export in "src/util.js" for import "missingHelper"',
        "src/cart.js:2:9:",
        '✘ [ERROR] No matching export in "src/util.js" for import "unknownExport"',
        "src/view.js:2:36:",
        '✘ [ERROR] No matching export in "src/money.js" for import "currencyOf"',
        "src/view.js:3:28:",
        "27 warnings and 3 errors",
        '▲ [WARNING] The "typeof" operator will never evaluate to "elemnt" [impossible-typeof]',
        "src/index.js:5:20:",
        "Using direct eval with a bundler is not recommended and may cause problems [direct-eval]",
        "src/money.js:10:16:",
        'Duplicate key "ok" in object literal [duplicate-object-key]',
        "This case clause will never be evaluated because it duplicates an earlier case clause [duplicate-case]",
        "src/util.js:20:9:",
    ],
    day=FOLLOWUPS,
)
add(
    "make-j4-zlib-clean",
    "make -j4 of zlib 1.2.13 after ./configure: 33 compile commands, the static and shared libraries and the test programs linked, no diagnostic (~3.8 kB); keep the archive, the shared library, the links and the last programs; the compile commands of files that built cleanly are noise",
    "GNU Make 4.3, gcc 12.2.0, zlib 1.2.13 (Debian's orig tarball)",
    [
        "ar rc libz.a adler32.o",
        "-o libz.so.1.2.13 adler32.lo",
        "ln -s libz.so.1.2.13 libz.so.1",
        "-o minigzipsh minigzip.o  -L. libz.so.1.2.13",
        "-o example64 example64.o",
    ],
    noise=[
        "-c -o adler32.o adler32.c",
        "-DPIC -c -o objs/inflate.o inflate.c",
        "-c -o gzwrite.o gzwrite.c",
    ],
    day=FOLLOWUPS,
)
add(
    "make-j4-zlib-error",
    "make -j4 of zlib with an unknown struct member put into gzlib.c and a pointer from an integer into trees.c (~1.5 kB); keep the error and the warning with their places, code lines and functions, the failing compile command and make's error line; clean compile commands are noise",
    "GNU Make 4.3, gcc 12.2.0, zlib 1.2.13 (Debian's orig tarball)",
    [
        "gzlib.c:330:21: error: ‘gz_state’ has no member named ‘want_min’",
        "if (size < state->want_min)",
        "gzlib.c: In function ‘gzbuffer’:",
        "make: *** [Makefile:192: gzlib.o] Error 1",
        "trees.c:411:17: warning: initialization of ‘int *’ from ‘uInt’ {aka ‘unsigned int’} makes pointer from integer without a cast [-Wint-conversion]",
        "int *last = s->sym_next;",
        "trees.c: In function ‘init_block’:",
        "-c -o gzlib.o gzlib.c",
    ],
    noise=[
        "-c -o adler32.o adler32.c",
        "-c -o crc32.o crc32.c",
        "-c -o inflate.o inflate.c",
        "-c -o compress.o compress.c",
    ],
    day=FOLLOWUPS,
)
add(
    "make-j4-zlib-warnings-error",
    "make -j4 of the same tree with -Wall -Wextra -Wshadow -Wconversion: 37 warnings of five files interleaved across jobs (crc32.c's after deflate.c's command, gzlib.c's error after gzread.c's), then make's error (~12 kB); keep the error, its command and make's error line, a warning of each file; clean compile commands are noise",
    "GNU Make 4.3, gcc 12.2.0, zlib 1.2.13 (Debian's orig tarball)",
    [
        "gzlib.c:330:21: error: ‘gz_state’ has no member named ‘want_min’",
        "if (size < state->want_min)",
        "make: *** [Makefile:192: gzlib.o] Error 1",
        "-c -o gzlib.o gzlib.c",
        "trees.c:411:17: warning: initialization of ‘int *’ from ‘uInt’ {aka ‘unsigned int’} makes pointer from integer without a cast [-Wint-conversion]",
        "deflate.c:571:20: warning: conversion from ‘ulg’ {aka ‘long unsigned int’} to ‘unsigned int’ may change value [-Wconversion]",
        "crc32.c:815:20: warning: conversion from ‘long unsigned int’ to ‘z_crc_t’ {aka ‘unsigned int’} may change value [-Wconversion]",
        "inflate.c:265:14: warning: conversion from ‘long int’ to ‘int’ may change value [-Wconversion]",
        "gzread.c:35:15: warning: conversion from ‘ssize_t’ {aka ‘long int’} to ‘int’ may change value [-Wconversion]",
        "trees.c:725:40: warning: conversion from ‘int’ to ‘ush’ {aka ‘short unsigned int’} may change value [-Wconversion]",
    ],
    noise=[
        "-c -o adler32.o adler32.c",
        "-c -o inftrees.o inftrees.c",
        "-c -o compress.o compress.c",
        "-c -o gzclose.o gzclose.c",
    ],
    day=FOLLOWUPS,
)
add(
    "cargo-clippy-shelf",
    "cargo clippy on a two-module crate with no dependencies: 11 warnings, each with help text and the lint's documentation link (~4.7 kB, modest); keep each warning with its place and what clippy suggests; the documentation links are boilerplate",
    "cargo 1.95.0, clippy",
    [
        "warning: manual implementation of an assign operation",
        "--> src/price.rs:4:9",
        "help: replace it with: `sum += *p`",
        "warning: unneeded `return` statement",
        "--> src/price.rs:15:5",
        "help: remove `return`",
        "warning: usage of a legacy numeric constant",
        "--> src/price.rs:19:17",
        "help: use the associated constant instead",
        "--> src/lib.rs:9:24",
        "help: try: `books.iter().find(|b| &b.title == title)`",
        "--> src/lib.rs:20:5",
        "warning: the loop variable `i` is only used to index `books`",
        "help: consider using an iterator",
        "warning: equality checks against true are unnecessary",
        "help: try: `books[i].pages > 500`",
        "help: replace it with: `n += 1`",
        "warning: length comparison to zero",
        "help: using `!is_empty` is clearer and more explicit: `!book.tags.is_empty()`",
        "warning: accessing first element with `book.tags.get(0)`",
        "help: try: `book.tags.first()`",
        "warning: `shelf` (lib) generated 11 warnings (run `cargo clippy --fix --lib -p shelf -- ` to apply 8 suggestions)",
    ],
    noise=[
        "= help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#assign_op_pattern",
        "= help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return",
        "= help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#len_zero",
        "= help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#get_first",
    ],
    day=FOLLOWUPS,
)

# -- A third audit round (helper h41, 2026-12-07): coverage tables, pre-commit, Go, valgrind, g++
# templates, shellcheck, prettier, vite, and system listings (apt-get, pip freeze, diff -u, du, ls -laR,
# sqlite3) run on this machine. The strings were written down by hand from each raw output before any
# tokenjuice output of it was seen.
AUDIT3 = "Debian 12, 2026-12-07"

add(
    "pytest-cov-click-term-missing",
    "pytest -q --cov=click --cov-report=term-missing over click 8.1.8 with two bugs put into types.py: 3 failures, then the coverage table of 17 files with their missing lines and branches (~8 kB, modest); keep each failure's id, E line and place, the table's rows with their Missing column, the TOTAL and the verdict",
    "pytest 8.4.2, pytest-cov 7.1.0, coverage 7.18.0, Python 3.11.7",
    [
        "_______________________ test_boolean_conversion[on-True] _______________________",
        "E       AssertionError: assert 'Usage: cli [...id boolean.\\n' == 'True'",
        "E         + Error: Invalid value for '--flag': 'on' is not a valid boolean.",
        "tests/test_basic.py:251: AssertionError",
        "E       AssertionError: assert '--method [foo|bar|baz]' in 'Usage: cli [OPTIONS]\\n\\nOptions:\\n  --method [foo,bar,baz]\\n  --help                  Show this message and exit.\\n'",
        "tests/test_basic.py:382: AssertionError",
        "E       assert \"Invalid value for '{foo|bar|baz}': 'meh' is not one of 'foo', 'bar', 'baz'.\" in \"Usage: cli [OPTIONS] {foo,bar,baz}\\nTry 'cli --help' for help.\\n\\nError: Invalid value for '{foo,bar,baz}': 'meh' is not one of 'foo', 'bar', 'baz'.\\n\"",
        "tests/test_basic.py:397: AssertionError",
        "Name                            Stmts   Miss Branch BrPart  Cover   Missing",
        "src/click/__init__.py              67      0      0      0   100%",
        "src/click/_compat.py              314    100     86     25    66%   22->24, 25, 40-41, 48, 70-71, 75, 102-107",
        "src/click/_termui_impl.py         469    190    192     27    55%   32-33, 68->76, 74, 177->179",
        "src/click/_textwrap.py             32      9      8      0    68%   14-23",
        "src/click/_winconsole.py          159    159     28      0     0%   9-279",
        "src/click/core.py                1127     96    494     46    90%   41-44, 80, 111-113, 620->624",
        "2837->2840, 2841, 2869, 3007-3009, 3018, 3027-3029",
        "src/click/decorators.py           187     62     62      4    63%   17-19, 214, 231-232, 307, 380-392, 403-409, 456-522",
        "src/click/exceptions.py           127     13     42     14    83%   11-13, 20, 45->48",
        "src/click/formatting.py           138      5     50      7    94%   72, 123->125, 155->158, 191->exit, 227, 239-240, 252",
        "src/click/globals.py               24      3      8      2    84%   5-7, 39",
        "src/click/parser.py               250     12    108      9    94%   36-41, 81, 94->77",
        "src/click/shell_completion.py     200     21     58      6    87%   40, 52, 261",
        "src/click/termui.py               196     27     84     13    85%   20, 51-53",
        "src/click/testing.py              238     15     50      4    93%   18, 43, 46",
        "src/click/types.py                413     40    120      9    90%   17-21, 118, 162, 178-186, 198, 211-219, 224, 308, 382, 402, 466->469, 488, 505-506, 514, 548, 616, 628, 640, 723->726, 737->743, 849, 990, 1053-1058",
        "src/click/utils.py                235     49     98     14    76%   22-24, 30, 39-41",
        "TOTAL                            4176    801   1488    180    79%",
        "FAILED tests/test_basic.py::test_boolean_conversion[on-True] - AssertionError...",
        "FAILED tests/test_basic.py::test_choice_option - AssertionError: assert '--me...",
        'FAILED tests/test_basic.py::test_choice_argument - assert "Invalid value for ...',
        "3 failed, 625 passed, 21 skipped, 1 xfailed in 4.15s",
    ],
    noise=[
        ".......................................................................F [ 11%]",
    ],
    day=AUDIT3,
)
add(
    "coverage-report-m-jinja2",
    "coverage report -m after a branch-coverage run of jinja2 3.1.6's 909 passing tests: 49 files with their missing lines and branches (~6 kB, modest); keep the header, the rows of the source files with their Missing column, rows of the tests that miss lines, and the TOTAL",
    "coverage 7.18.0, pytest 8.4.2, Python 3.11.7",
    [
        "Name                           Stmts   Miss Branch BrPart  Cover   Missing",
        "src/jinja2/__init__.py            32      0      0      0   100%",
        "src/jinja2/async_utils.py         57      1     16      1    97%   10",
        "src/jinja2/bccache.py            168     62     32      7    58%   23-27, 70-71, 75-76, 80-82, 87, 137, 144, 158->161, 210, 215-259, 276-277, 293-298, 303-305, 309-315, 321-328, 403",
        "src/jinja2/compiler.py          1199     52    428     31    94%   27-29, 54, 112, 122, 310->312",
        "1163->1172, 1172->exit, 1443, 1728, 1730, 1791-1792, 1844, 1911-1913, 1936",
        "src/jinja2/debug.py               79      6     34      5    90%   11, 119, 124, 176-177, 181->168, 187",
        "src/jinja2/environment.py        588     63    174     31    86%   58-62, 100, 103, 375",
        "1620, 1625-1626, 1628->exit, 1646->1643, 1648-1650, 1658",
        "src/jinja2/exceptions.py          66      6     18      3    89%   4, 70->84, 122-127",
        "src/jinja2/ext.py                371     62    158     23    81%   21-40, 124, 152->154",
        "src/jinja2/filters.py            513     48    176     25    89%   32-41, 117->120",
        "src/jinja2/idtracking.py         211     11     88      8    93%   7, 18-22, 58->60",
        "src/jinja2/lexer.py              341     17    124     13    94%   18-20, 198->203",
        "src/jinja2/loaders.py            269     36     86     12    85%   21-22, 95-99",
        "src/jinja2/meta.py                41      6     26      3    78%   12, 89->85, 104-112",
        "src/jinja2/nativetypes.py         66      6     18      5    87%   28, 35->37, 79, 85, 116, 126-127",
        "src/jinja2/nodes.py              555     58    122     14    86%   16-18, 96-101",
        "src/jinja2/optimizer.py           19      3      4      1    83%   17, 23-24",
        "src/jinja2/parser.py             661     21    278     16    96%   13-15, 113",
        "src/jinja2/runtime.py            485     40    124     15    90%   31-37, 79-85",
        "src/jinja2/sandbox.py            158     37     62     14    69%   99, 128-129, 131-132, 134-135, 137, 139-140, 142-143, 147-148, 174, 294-312, 358, 374, 377, 412, 431",
        "src/jinja2/tests.py               66      2      2      1    96%   12, 27",
        "src/jinja2/utils.py              318     35     96      7    88%   17, 133-137",
        "src/jinja2/visitor.py             42     10     24      4    76%   10-12, 69, 71-72, 78, 87-92",
        "tests/test_api.py                302      2      8      1    99%   278, 408",
        "tests/test_ext.py                357      1     26      3    99%   194, 205->207, 215->exit",
        "tests/test_loader.py             299      8      8      1    96%   218->exit, 275-276, 406-410, 418, 421",
        "tests/test_security.py           132      3      4      0    98%   20, 31, 34",
        "TOTAL                          10330    597   2200    247    92%",
    ],
    day=AUDIT3,
)
add(
    "pre-commit-run-all-files",
    "pre-commit run --all-files over itsdangerous 2.2.0 in git after sloppy edits, seven local hooks all failing: trailing-whitespace, end-of-file-fixer, check-yaml, check-toml, isort, black and 54 flake8 findings (~6.6 kB, modest); keep each hook's verdict, the files each fixed, the yaml and toml errors with their places, the F findings and E501 lines spread over the files",
    "pre-commit 4.7.0, pre-commit-hooks 6.0.0, isort 9.0.2, black 26.10.1, flake8 7.5.0, Python 3.11.7",
    [
        "trim trailing whitespace.................................................Failed",
        "Fixing README.md",
        "Fixing src/itsdangerous/signer.py",
        "fix end of files.........................................................Failed",
        "Fixing PKG-INFO",
        "Fixing src/itsdangerous/timed.py",
        "check yaml...............................................................Failed",
        "while parsing a flow sequence",
        'in "deploy.yaml", line 1, column 4',
        "expected ',' or ']', but got ':'",
        'in "deploy.yaml", line 2, column 2',
        "check toml...............................................................Failed",
        "broken.toml: Illegal character '\\n' (at line 2, column 10)",
        "isort....................................................................Failed",
        "Fixing /tmp/h41/pc/proj/tests/test_itsdangerous/test_signer.py",
        "Fixing /tmp/h41/pc/proj/docs/conf.py",
        "Fixing /tmp/h41/pc/proj/src/itsdangerous/timed.py",
        "black....................................................................Failed",
        "reformatted src/itsdangerous/signer.py",
        "reformatted tests/test_itsdangerous/test_signer.py",
        "reformatted src/itsdangerous/timed.py",
        "reformatted tests/test_itsdangerous/test_encoding.py",
        "reformatted src/itsdangerous/serializer.py",
        "flake8...................................................................Failed",
        "docs/conf.py:41:80: E501 line too long (88 > 79 characters)",
        "src/itsdangerous/__init__.py:5:1: F401 '.encoding.base64_decode' imported but unused",
        "src/itsdangerous/__init__.py:21:1: F401 '.url_safe.URLSafeTimedSerializer' imported but unused",
        "src/itsdangerous/signer.py:6:1: F401 'os' imported but unused",
        "src/itsdangerous/signer.py:215:9: F841 local variable 'unused_key' is assigned to but never used",
        "src/itsdangerous/url_safe.py:47:80: E501 line too long (88 > 79 characters)",
        "tests/test_itsdangerous/test_serializer.py:184:80: E501 line too long (87 > 79 characters)",
        "src/itsdangerous/serializer.py:274:80: E501 line too long (94 > 79 characters)",
        "src/itsdangerous/timed.py:232:80: E501 line too long (87 > 79 characters)",
        "tests/test_itsdangerous/test_timed.py:1:1: F401 'json' imported but unused",
    ],
    noise=["All done! ✨ 🍰 ✨"],
    day=AUDIT3,
)
add(
    "go-vet-inv",
    "go vet ./... over a small Go module: a printf mismatch in one package, seven findings in another (lock copied, loop variable captured, printf args, a bad struct tag, unreachable code) (~0.8 kB, modest); keep every finding with its place",
    "go 1.19.8",
    [
        "# example.com/inv/stock",
        "stock/stock.go:59:9: fmt.Sprintf format %d reads arg #3, but call has 2 args",
        "# example.com/inv/report",
        "report/report.go:18:9: String passes lock by value: example.com/inv/report.Summary contains sync.Mutex",
        "report/report.go:50:11: loop variable p captured by func literal",
        "report/report.go:19:9: fmt.Sprintf format %d reads arg #3, but call has 2 args",
        "report/report.go:56:3: fmt.Printf format %v reads arg #1, but call has 0 args",
        "report/report.go:14:2: struct field tag `json:count` not compatible with reflect.StructTag.Get: bad syntax for struct tag value",
        "report/report.go:26:2: unreachable code",
        "report/report.go:37:2: unreachable code",
    ],
    day=AUDIT3,
)
add(
    "go-build-type-errors",
    "go build ./... over a small Go module after edits that break two packages: swapped arguments, mixed numeric types, an undefined function (~0.5 kB, modest); keep every error with its place and the package headers",
    "go 1.19.8",
    [
        "# example.com/inv/order",
        "order/order.go:19:20: cannot use l.Qty (variable of type int) as type string in argument to s.Take",
        "order/order.go:19:27: cannot use l.SKU (variable of type string) as type int in argument to s.Take",
        "order/order.go:23:11: invalid operation: s.Value() + len(lines) (mismatched types float64 and int)",
        "# example.com/inv/cmd/invd",
        "cmd/invd/main.go:18:20: undefined: stock.Count",
        "cmd/invd/main.go:19:14: cannot use s.Value() (value of type float64) as type int in variable declaration",
    ],
    day=AUDIT3,
)
add(
    "go-test-inv-failures",
    "go test -count=1 ./... over a Go module holding copies of the stdlib's encoding/csv and path with a bug put into each, and a stock package with three failing tests (~1.5 kB, modest); keep every failing test and subtest with its message and place, the got/want lines and each package's verdict",
    "go 1.19.8",
    [
        "ok  \texample.com/inv/order",
        "--- FAIL: TestRead (",
        "--- FAIL: TestRead/TrimSpace (0.00s)",
        'got  [[" a" "  b" "   c"]]',
        'want [["a" "b" "c"]]',
        "--- FAIL: TestRead/TrimQuote (0.00s)",
        'reader_test.go:439: unexpected Readall() error: parse error on line 1, column 2: bare " in non-quoted-field',
        "--- FAIL: TestRead/TrailingCommaSpaceEOF (0.00s)",
        "--- FAIL: TestRead/TrailingCommaSpaceEOL (0.00s)",
        'got  [["a" "b" "c" " "]]',
        "--- FAIL: TestRead/NonASCIICommaAndComment (0.00s)",
        'got  [["a" "b,c" " \\td,e"]]',
        "FAIL\texample.com/inv/std/csv",
        "--- FAIL: ExampleJoin (0.00s)",
        "a/../../xyz",
        "../xyz",
        "FAIL\texample.com/inv/std/path",
        "ok  \texample.com/inv/std/tabwriter",
        "--- FAIL: TestTakeTooMany (0.00s)",
        "stock_test.go:33: Take(b2, 5) = nil, want an error (only 4 left); qty now -1",
        "--- FAIL: TestValue/nuts (0.00s)",
        "stock_test.go:55: Value() = 3, want 3.75",
        "--- FAIL: TestLabel (0.00s)",
        'stock_test.go:64: Label = "A1 bolt x4"',
        "FAIL\texample.com/inv/stock",
    ],
    day=AUDIT3,
)
add(
    "go-test-v-inv",
    "go test -count=1 -v ./... over the same module: 263 lines of RUN/PASS chatter around the same failures (~9 kB, modest); keep every failing test and subtest with its message and place, the got/want lines and each package's verdict",
    "go 1.19.8",
    [
        "ok  \texample.com/inv/order",
        "--- FAIL: TestRead (",
        "reader_test.go:442: ReadAll() output:",
        'got  [[" a" "  b" "   c"]]',
        'want [["a" "b" "c"]]',
        'reader_test.go:439: unexpected Readall() error: parse error on line 1, column 2: bare " in non-quoted-field',
        'got  [["a" "b" "c" " "]]',
        'got  [["a" "b,c" " \\td,e"]]',
        "--- FAIL: TestRead/TrimSpace (0.00s)",
        "--- FAIL: TestRead/TrimQuote (0.00s)",
        "--- FAIL: TestRead/TrailingCommaSpaceEOF (0.00s)",
        "--- FAIL: TestRead/TrailingCommaSpaceEOL (0.00s)",
        "--- FAIL: TestRead/NonASCIICommaAndComment (0.00s)",
        "FAIL\texample.com/inv/std/csv",
        "--- FAIL: ExampleJoin (0.00s)",
        "a/../../xyz",
        "FAIL\texample.com/inv/std/path",
        "ok  \texample.com/inv/std/tabwriter",
        "stock_test.go:33: Take(b2, 5) = nil, want an error (only 4 left); qty now -1",
        "--- FAIL: TestTakeTooMany (0.00s)",
        "stock_test.go:55: Value() = 3, want 3.75",
        "--- FAIL: TestValue/nuts (0.00s)",
        'stock_test.go:64: Label = "A1 bolt x4"',
        "--- FAIL: TestLabel (0.00s)",
        "FAIL\texample.com/inv/stock",
    ],
    noise=[
        "=== RUN   TestRead/BareDoubleQuotes",
        "--- PASS: TestRead/BareDoubleQuotes (0.00s)",
        "=== RUN   TestPanicDuringFlush",
    ],
    day=AUDIT3,
)
add(
    "valgrind-leak-check-full",
    "valgrind --leak-check=full of a small C program with a read past a block, a jump on an uninitialised value, a double free and two leaks (~2.6 kB, modest); keep each error kind with its frames in the program's own files, the program's output, the heap and leak summaries and the error summary",
    "valgrind 3.19.0, gcc 12.2.0",
    [
        "Invalid read of size 4",
        "at 0x109352: main (leaky.c:45)",
        "Address 0x4a41410 is 0 bytes after a block of size 32 alloc'd",
        "by 0x109263: window (leaky.c:30)",
        "by 0x109329: main (leaky.c:43)",
        "Conditional jump or move depends on uninitialised value(s)",
        "at 0x10937E: main (leaky.c:48)",
        "Invalid free() / delete / delete[] / realloc()",
        "by 0x1093C7: main (leaky.c:53)",
        "Address 0x4a413f0 is 0 bytes inside a block of size 32 free'd",
        "by 0x1093BB: main (leaky.c:52)",
        "sum 10",
        "total 140",
        "in use at exit: 130 bytes in 6 blocks",
        "total heap usage: 13 allocs, 8 frees, 4,378 bytes allocated",
        "30 bytes in 5 blocks are definitely lost in loss record 1 of 2",
        "by 0x1091B5: push (leaky.c:9)",
        "by 0x1092EF: main (leaky.c:40)",
        "100 bytes in 1 blocks are definitely lost in loss record 2 of 2",
        "by 0x1093A4: main (leaky.c:50)",
        "definitely lost: 130 bytes in 6 blocks",
        "ERROR SUMMARY: 5 errors from 5 contexts (suppressed: 0 from 0)",
    ],
    noise=[
        "Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.",
        "Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info",
    ],
    day=AUDIT3,
)
add(
    "gpp-template-errors",
    "g++ -std=c++17 -Wall -c over one C++ file misusing std::map, std::set, std::sort and a vector of unique_ptr: four errors, three of them deep in libstdc++ templates with their instantiation chains and 20 candidate notes (~12 kB); keep each error with its place, the program's own lines that set each off (`required from here`) and the code line of the first",
    "g++ 12.2.0 (Debian 12.2.0-14+deb12u1)",
    [
        "tmpl.cpp: In function ‘int main()’:",
        "tmpl.cpp:25:24: error: no match for ‘operator[]’ (operand types are ‘std::map<std::__cxx11::basic_string<char>, std::vector<Order> >’ and ‘int’)",
        "int n = by_customer[42].size();",
        "tmpl.cpp:26:14:   required from here",
        "/usr/include/c++/12/bits/stl_algo.h:1938:50: error: no match for ‘operator-’",
        "tmpl.cpp:23:48:   required from here",
        "/usr/include/c++/12/bits/stl_uninitialized.h:90:56: error: static assertion failed: result type must be constructible from input type",
        "tmpl.cpp:19:25:   required from here",
        "/usr/include/c++/12/bits/stl_function.h:408:20: error: no match for ‘operator<’ (operand types are ‘const Order’ and ‘const Order’)",
    ],
    day=AUDIT3,
)
add(
    "shellcheck-usr-bin-scripts",
    "shellcheck over six of Debian's own scripts in /usr/bin (apt-key, bashbug, gzexe, gpg-zip, ldd, lesspipe): 121 findings, two parse errors in bashbug, warnings of 12 codes, most of them SC2006/SC2086 style and info with their suggested fixes (~28 kB); keep the errors with their place and line, one place and message of each warning code, and the first and last places",
    "ShellCheck 0.9.0",
    [
        "In apt-key line 5:",
        "In apt-key line 78:",
        'trap "${CURRENTTRAP}" 0 HUP INT QUIT ILL ABRT FPE SEGV PIPE TERM',
        "SC2064 (warning): Use single quotes, otherwise this expands now rather than when signalled.",
        "In apt-key line 134:",
        "SC2062 (warning): Quote the grep pattern so the shell won't interpret it.",
        "In apt-key line 585:",
        "SC2166 (warning): Prefer [ p ] || [ q ] as [ p -o q ] is not well defined.",
        "SC3037 (warning): In POSIX sh, echo flags are undefined.",
        "SC3043 (warning): In POSIX sh, 'local' is undefined.",
        "SC2155 (warning): Declare and assign separately to avoid masking return values.",
        "In bashbug line 57:",
        "SC1007 (warning): Remove space after = if trying to assign a value (for empty string, use var='' ... ).",
        "In bashbug line 135:",
        "elif [ -x /usr/bin/vim; then",
        "SC1073 (error): Couldn't parse this test expression. Fix to allow more checks.",
        "SC1072 (error): Expected test to end here (don't wrap commands in []/[[]]). Fix any mentioned problems and try again.",
        "In gzexe line 79:",
        "SC2172 (warning): Trapping signals by number is not well defined. Prefer signal names.",
        "In gpg-zip line 139:",
        "In ldd line 26:",
        "SC2034 (warning): TEXTDOMAIN appears unused. Verify use (or export if used externally).",
        "In ldd line 160:",
        "SC2034 (warning): verify_out appears unused. Verify use (or export if used externally).",
        "In lesspipe line 336:",
        "SC2164 (warning): Use 'cd ... || exit' or 'cd ... || return' in case cd fails.",
        "In lesspipe line 349:",
    ],
    day=AUDIT3,
)
add(
    "prettier-check-express",
    "npx prettier --check . over express 4.22.1 (npm pack) with an example added whose JS does not parse: a syntax error with its code frame and 15 files not formatted (~0.9 kB, modest); keep the error with its place and frame line, every file listed and the closing line",
    "prettier 3.10.2 via npx, Node 20.20.2",
    [
        "[error] examples/cart/index.js: SyntaxError: Unexpected token (8:86)",
        "res.send({ items: items, total: items.reduce(function(a, b) { return a + b.price, 0) })",
        "[warn] examples/cart/package.json",
        "[warn] History.md",
        "[warn] index.js",
        "[warn] lib/application.js",
        "[warn] lib/express.js",
        "[warn] lib/middleware/init.js",
        "[warn] lib/middleware/query.js",
        "[warn] lib/request.js",
        "[warn] lib/response.js",
        "[warn] lib/router/index.js",
        "[warn] lib/router/layer.js",
        "[warn] lib/router/route.js",
        "[warn] lib/utils.js",
        "[warn] lib/view.js",
        "[warn] Readme.md",
        "Error occurred when checking code style in the above file.",
    ],
    day=AUDIT3,
)
add(
    "vite-build-warnings",
    "npx vite build of a small app (lodash-es, d3) whose page and code draw four warnings: a classic script that cannot be bundled, a CSS url left to runtime, eval, a module imported both statically and dynamically (~0.9 kB, modest); keep each warning with its file, the emitted files with their sizes and the verdict",
    "vite 6.4.6 via npx, Node 20.20.2",
    [
        '<script src="/legacy/analytics.js"> in "/index.html" can\'t be bundled without type="module" attribute',
        "/img/bg.png referenced in /img/bg.png didn't resolve at build time, it will remain unchanged to be resolved at runtime",
        "✓ 678 modules transformed.",
        'src/main.js (10:0): Use of eval in "src/main.js" is strongly discouraged as it poses security risks and may cause issues with minification.',
        "(!) /tmp/h41/js/viteapp/src/chart.js is dynamically imported by /tmp/h41/js/viteapp/src/main.js but also statically imported by /tmp/h41/js/viteapp/src/main.js, dynamic import will not move module into another chunk.",
        "dist/index.html                   0.29 kB │ gzip:  0.21 kB",
        "dist/assets/index-CAXUkq-H.css    0.14 kB │ gzip:  0.14 kB",
        "dist/assets/index-CLl3w1ny.js   137.79 kB │ gzip: 39.99 kB",
        "✓ built in 3.71s",
    ],
    day=AUDIT3,
)
add(
    "apt-get-install-tools",
    "apt-get install -y of ten tools, four already installed: the plan, 13 new packages, downloads, dpkg's unpack and set-up lines and triggers (~5 kB, modest); keep what was already there, the additional and NEW package lists, the counts and sizes, and each requested tool's set-up line",
    "apt 2.6.1, Debian 12 bookworm",
    [
        "strace is already the newest version (6.1-0.1).",
        "lsof is already the newest version (4.95.0-1).",
        "ripgrep is already the newest version (13.0.0-4+b2).",
        "fd-find is already the newest version (8.6.0-3).",
        "The following additional packages will be installed:",
        "libgit2-1.5 libhttp-parser2.9 libmbedcrypto7 libmbedtls14 libmbedx509-1",
        "The following NEW packages will be installed:",
        "bat htop hyperfine libgit2-1.5 libhttp-parser2.9 libmbedcrypto7 libmbedtls14",
        "libmbedx509-1 libnl-3-200 libnl-genl-3-200 ltrace ncdu tree",
        "0 upgraded, 13 newly installed, 0 to remove and 106 not upgraded.",
        "Need to get 2838 kB/3984 kB of archives.",
        "After this operation, 9728 kB of additional disk space will be used.",
        "Setting up ncdu (1.18-0.2) ...",
        "Setting up ltrace (0.7.3-6.4) ...",
        "Setting up tree (2.1.0-1) ...",
        "Setting up hyperfine (1.15.0-2) ...",
        "Setting up bat (0.22.1-4) ...",
        "Setting up htop (3.2.2-2) ...",
    ],
    noise=[
        "(Reading database ... 45%",
        "Preparing to unpack .../03-libmbedtls14_2.28.3-1_amd64.deb ...",
        "debconf: delaying package configuration, since apt-utils is not installed",
    ],
    day=AUDIT3,
)
add(
    "diff-u-click-core",
    "diff -u of click's core.py between the 8.1.7 and 8.1.8 sdists: 22 hunks, many of them black's `: ...` reflow of overloads, a few real changes (the help option cached, new error messages, a default shown as \"\") (~11 kB); keep the two file lines, hunk headers spread over the file and the distinctive removed and added lines of the real changes",
    "GNU diffutils 3.8",
    [
        "--- click-8.1.7/src/click/core.py\t2023-08-17 17:25:39.000000000 +0000",
        "+++ click-8.1.8/src/click/core.py\t2024-12-19 17:04:12.000000000 +0000",
        "@@ -39,6 +39,8 @@",
        "+    from .decorators import HelpOption",
        "@@ -115,9 +117,16 @@",
        '+    """Returns all declared parameters in the order they should be processed.',
        '+    def forward(__self, __cmd: "Command", *args: t.Any, **kwargs: t.Any) -> t.Any:',
        "@@ -1221,12 +1225,13 @@",
        "+        self._help_option: t.Optional[HelpOption] = None",
        "@@ -1289,25 +1294,29 @@",
        '-        def show_help(ctx: Context, param: "Parameter", value: str) -> None:',
        "+            self._help_option = HelpOption(help_options)",
        "+            return rv  # type: ignore[return-value]",
        "@@ -2681,7 +2684,9 @@",
        '-            raise TypeError("Could not determine name for option")',
        '+                f"Could not determine name for option with declarations {decls!r}"',
        "@@ -2810,10 +2815,12 @@",
        "-                    (self.opts if self.default else self.secondary_opts)[0]",
        "+                    (self.opts if default_value else self.secondary_opts)[0]",
        '+            elif default_value == "":',
        "@@ -3021,7 +3026,7 @@",
        '-            raise TypeError("Could not determine name for argument")',
        '+            raise TypeError("Argument is marked as exposed, but does not have a name.")',
    ],
    day=AUDIT3,
)
add(
    "du-ah-sort-h-jinja2",
    "du -ah | sort -h in jinja2 3.1.6's unpacked sdist after a coverage run: 106 entries, smallest first (~3 kB, modest); keep the first entries and the largest ones at the end with their sizes, the total last",
    "GNU coreutils 9.1",
    [
        "0\t./src/jinja2/py.typed",
        "4.0K\t./LICENSE.txt",
        "24K\t./tests/test_core_tags.py",
        "28K\t./tests/res/templates",
        "32K\t./src/jinja2/ext.py",
        "32K\t./src/jinja2/lexer.py",
        "36K\t./src/jinja2/nodes.py",
        "36K\t./src/jinja2/runtime.py",
        "40K\t./src/jinja2/parser.py",
        "48K\t./requirements",
        "56K\t./src/jinja2/filters.py",
        "64K\t./docs/templates.rst",
        "64K\t./src/jinja2/environment.py",
        "76K\t./src/jinja2/compiler.py",
        "220K\t./docs",
        "364K\t./tests",
        "536K\t./src/jinja2",
        "620K\t./.coverage",
        "1.8M\t.",
    ],
    day=AUDIT3,
)
add(
    "du-ah-sort-h-node-modules",
    "du -ah node_modules | sort -h in a vite app (vite 6, lodash-es, d3): 1,426 entries, smallest first (~60 kB); keep the first entry and the largest ones at the end with their sizes, the total last",
    "GNU coreutils 9.1",
    [
        "0\tnode_modules/.bin/csv2json",
        "584K\tnode_modules/d3/dist/d3.js",
        "888K\tnode_modules/d3",
        "1016K\tnode_modules/rollup/dist/shared/rollup.js",
        "1.5M\tnode_modules/vite/dist/node/chunks/dep-Cohbwjf9.js",
        "2.2M\tnode_modules/@rollup/rollup-linux-x64-gnu/rollup.linux-x64-gnu.node",
        "2.7M\tnode_modules/lodash-es",
        "2.7M\tnode_modules/vite",
        "3.1M\tnode_modules/rollup",
        "9.9M\tnode_modules/@esbuild/linux-x64/bin/esbuild",
        "10M\tnode_modules/@esbuild",
        "27M\tnode_modules",
    ],
    day=AUDIT3,
)
add(
    "ls-laR-itsdangerous-git",
    "ls -laR at the top of a git checkout of itsdangerous 2.2.0: 568 lines, 470 of them the .git folder's hooks, logs and 58 loose-object folders (~21 kB); keep the top listing's entries, each project folder's header and its files with sizes",
    "GNU coreutils 9.1",
    [
        "-rw-r--r-- 1 root root  903 Dec  7 00:20 .pre-commit-config.yaml",
        "-rw-r--r-- 1 root root 7946 Dec  7 00:20 CHANGES.rst",
        "-rw-r--r-- 1 root root   17 Dec  7 00:20 broken.toml",
        "-rw-r--r-- 1 root root   14 Dec  7 00:20 deploy.yaml",
        "-rw-r--r-- 1 root root 1868 Dec  7 00:20 pyproject.toml",
        "-rw-r--r-- 1 root root  960 Dec  7 00:20 tox.ini",
        "./docs:",
        "-rw-r--r-- 1 root root 1943 Dec  7 00:20 conf.py",
        "-rw-r--r-- 1 root root  615 Dec  7 00:20 url_safe.rst",
        "./docs/_static:",
        "-rw-r--r-- 1 root root 18971 Dec  7 00:20 itsdangerous-logo.png",
        "./requirements:",
        "-rw-r--r-- 1 root root 3125 Dec  7 00:20 dev.txt",
        "./src/itsdangerous:",
        "-rw-r--r-- 1 root root  1427 Dec  7 00:20 __init__.py",
        "-rw-r--r-- 1 root root 15783 Dec  7 00:20 serializer.py",
        "-rw-r--r-- 1 root root  9633 Dec  7 00:20 signer.py",
        "-rw-r--r-- 1 root root  8108 Dec  7 00:20 timed.py",
        "-rw-r--r-- 1 root root  2461 Dec  7 00:20 url_safe.py",
        "./tests/test_itsdangerous:",
        "-rw-r--r-- 1 root root 6718 Dec  7 00:20 test_serializer.py",
        "-rw-r--r-- 1 root root  760 Dec  7 00:20 test_url_safe.py",
    ],
    noise=["-r--r--r--  1 root root 2437 Dec  7 00:20 a880d31b7361ebe33afe0d66bc33e0ed6701ba"],
    day=AUDIT3,
)
add(
    "sqlite3-airports-texas-ca",
    "sqlite3 -header over a database of the vega airports table: the 414 airports of California and Texas, one row a line with `|` between columns (~24 kB); keep the header, the first and last rows, the last of California and first of Texas, and rows spread between",
    "SQLite 3.40.1",
    [
        "iata|name|city|state|latitude|longitude",
        "L70|Agua Dulce Airpark|Agua Dulce|CA|34.50415889|-118.3128561",
        "CRO|Corcoran|Corcoran|CA|36.10245111|-119.5948469",
        "L04|Holtville|Holtville|CA|32.84032361|-115.2674806",
        "L52|Oceano County|Oceano|CA|35.10136472|-120.6221153",
        "SEE|Gillespie|San Diego (El Cajon)|CA|32.82623111|-116.9724497",
        "O46|Weed|Weed|CA|41.47487|-122.4530739",
        "O52|Sutter County|Yuba City|CA|39.12655889|-121.6091328",
        "ABI|Abilene Regional|Abilene|TX|32.41132|-99.68189722",
        "T89|Castroville Municipal|Castroville|TX|29.34192083|-98.85090056",
        "FTW|Fort Worth Meacham International|Fort Worth|TX|32.81977778|-97.36244444",
        "GRK|Robert Gray AAF|Killeen|TX|31.06489778|-97.82779778",
        "ORG|Orange County|Orange|TX|30.06916667|-93.80091667",
        "VHN|Culberson County|Van Horn|TX|31.05784417|-104.7838056",
        "F51|Winnsboro Municipal|Winnsboro|TX|32.93884556|-95.27886083",
    ],
    day=AUDIT3,
)
add(
    "pip-freeze-bigvenv",
    "pip freeze in a venv holding jupyterlab, boto3, pandas, sqlalchemy, fastapi and httpx with their dependencies: 106 pins (~2 kB, modest); keep the pins of the packages asked for, their main dependencies, and the first and last pins",
    "pip 23.2.1, Python 3.11.7",
    [
        "annotated-doc==0.0.7",
        "boto3==1.44.18",
        "botocore==1.44.18",
        "fastapi==0.165.0",
        "httpx==0.29.0",
        "jupyterlab==4.6.6",
        "numpy==2.4.6",
        "pandas==3.1.1",
        "pydantic==2.14.4",
        "requests==2.34.2",
        "SQLAlchemy==2.1.9",
        "starlette==1.10.0",
        "tornado==6.6.1",
        "websocket-client==1.9.2",
    ],
    day=AUDIT3,
)
add(
    "tox-itsdangerous",
    "tox in itsdangerous 2.2.0 (its own tox.ini: py312 to py38, pypy310, style, typing, docs) with a timestamp bug put into timed.py, second run: five envs skipped, py311's pytest -v with 10 failures among 297, style's pre-commit outside git, typing passing, docs failing offline (~44 kB); keep each failing test with its place and E line, pytest's verdict, each env's error and the closing table",
    "tox 4.67.17, pytest 8.1.1 (the env's own pins), Python 3.11.7",
    [
        "py312: skipped because could not find python interpreter with spec(s): py312",
        "py311: commands[0]> pytest -v --tb=short --basetemp=/tmp/h41/tox/itsdangerous/.tox/py311/tmp",
        "_______________________ TestTimestampSigner.test_max_age _______________________",
        "tests/test_itsdangerous/test_timed.py:43: in test_max_age",
        "E   AssertionError: assert FakeDatetime(2011, 6, 24, 0, 9, 6, tzinfo=datetime.timezone.utc) == datetime.datetime(2011, 6, 24, 0, 9, 5, tzinfo=datetime.timezone.utc)",
        "tests/test_itsdangerous/test_timed.py:47: in test_return_timestamp",
        "E   AssertionError: assert (b'value', Fa...timezone.utc)) == (b'value', da...timezone.utc))",
        "tests/test_itsdangerous/test_timed.py:115: in test_return_payload",
        "E   AssertionError: assert ({'id': 42}, ...timezone.utc)) == ({'id': 42}, ...timezone.utc))",
        "FAILED tests/test_itsdangerous/test_timed.py::TestTimestampSigner::test_max_age",
        "FAILED tests/test_itsdangerous/test_url_safe.py::TestTimedSerializer::test_max_age",
        "FAILED tests/test_itsdangerous/test_url_safe.py::TestURLSafeTimedSerializer::test_return_payload[zlib]",
        "10 failed, 287 passed in 1.21s",
        "py311: FAIL ✖ in 2.59 seconds",
        "An error has occurred: FatalError: git failed. Is it installed, and are you in a Git repository directory?",
        "style: FAIL ✖ in 0.18 seconds",
        "Success: no issues found in 8 source files",
        "0 errors, 0 warnings, 0 informations",
        "typing: OK ✔ in 4.06 seconds",
        "Warning, treated as error:",
        "intersphinx inventory 'https://docs.python.org/3/objects.inv' not fetchable",
        "py311: FAIL code 1 (2.59=setup[1.02]+cmd[1.57] seconds)",
        "style: FAIL code 1 (0.18=setup[0.01]+cmd[0.17] seconds)",
        "typing: OK (4.06=setup[0.58]+cmd[0.40,1.61,1.47] seconds)",
        "docs: FAIL code 2 (1.54=setup[0.77]+cmd[0.77] seconds)",
        "evaluation failed :( (12.09 seconds)",
    ],
    noise=[
        "tests/test_itsdangerous/test_encoding.py::test_want_bytes[tomorrow] PASSED [  0%]",
        ".pkg: get_requires_for_build_wheel> python /tmp/h41/venv/lib/python3.11/site-packages/pyproject_api/_backend.py True flit_core.buildapi",
    ],
    day=AUDIT3,
)
add(
    "uv-pip-compile",
    "uv pip compile requirements.in -o requirements.txt for a FastAPI service's six direct requirements: 30 pins, each with the packages that pull it in (~1.7 kB, modest); keep the resolution line and every pin",
    "uv 0.13.9",
    [
        "Resolved 30 packages in 603ms",
        "annotated-doc==0.0.7",
        "annotated-types==0.8.0",
        "anyio==4.16.0",
        "certifi==2026.10.19.post1",
        "click==8.5.1",
        "fastapi==0.165.0",
        "greenlet==3.5.6",
        "h11==0.16.0",
        "httpcore==1.0.9",
        "httptools==0.9.0",
        "httpx==0.29.0",
        "idna==3.21",
        "markdown-it-py==4.3.0",
        "mdurl==0.1.2",
        "opentelemetry-api==1.45.3",
        "pydantic==2.14.4",
        "pydantic-core==2.50.5",
        "pydantic-settings==2.16.3",
        "pygments==2.21.0",
        "python-dotenv==1.2.4",
        "pyyaml==6.0.4",
        "rich==15.0.0",
        "sqlalchemy==2.1.9",
        "starlette==1.10.0",
        "typing-extensions==4.16.0",
        "typing-inspection==0.4.5",
        "uvicorn==0.55.0",
        "uvloop==0.23.0",
        "watchfiles==1.3.0",
        "websockets==17.4",
    ],
    day=AUDIT3,
)
add(
    "coverage-report-m-click-pytest-trio",
    "coverage report -m after a branch-coverage run of click 8.1.8's tests measuring click and, as installed, pytest, pluggy and trio: 235 rows, the project's 16 last after 219 of site-packages, padded to 150 columns (~51 kB); keep the header, the first row, a trio row, the last installed row, the project's rows with their Missing column and the TOTAL",
    "coverage 7.18.0, pytest 8.4.2, Python 3.11.7",
    [
        "Name                                                                                                      Stmts   Miss Branch BrPart  Cover   Missing",
        "/tmp/h41/cvenv/lib/python3.11/site-packages/_pytest/__init__.py                                               5      0      0      0   100%",
        "/tmp/h41/cvenv/lib/python3.11/site-packages/trio/_core/_run.py                                             1066   1066    368      0     1%   1-3139",
        "/tmp/h41/cvenv/lib/python3.11/site-packages/trio/to_thread.py                                                 2      2      0      0     0%   1-4",
        "src/click/__init__.py                                                                                        67      0      0      0   100%",
        "src/click/core.py                                                                                          1127     96    494     46    90%   41-44, 80, 111-113, 620->624, 629-632, 679, 695, 766, 801, 804->803, 905, 908, 938->937, 957, 963, 1066-1069, 1074, 1102-1107, 1124-1125, 1145->1149, 1161, 13",
        "src/click/decorators.py                                                                                     187     62     62      4    63%   17-19, 214, 231-232, 307, 380-392, 403-409, 456-522",
        "src/click/formatting.py                                                                                     138      5     50      7    94%   72, 123->125, 155->158, 191->exit, 227, 239-240, 252",
        "src/click/testing.py                                                                                        238     15     50      4    93%   18, 43, 46, 49, 52, 92, 327-330, 339-340, 418, 482-483",
        "src/click/types.py                                                                                          413     40    120      9    90%   17-21, 118, 162, 178-186, 198, 211-219, 224, 308, 382, 402, 466->469, 488, 505-506, 514, 548, 616, 628, 640, 723->726, 737->743, 849, 990, 1053-1058",
        "src/click/utils.py                                                                                          235     49     98     14    76%   22-24, 30, 39-41, 49-52, 87, 95->103, 130, 144-146, 175->exit, 213, 299->318, 313-316, 330, 349-352, 392, 477-489, 505, 508-514, 517, 544, 547, 608->611, 611-",
        "TOTAL                                                                                                     41665  29112   9776    995    30%",
    ],
    day=AUDIT3,
)

# -- Query results (helper h44, 2026-12-07): a PostgreSQL 15 server on this machine and sqlite3 over the
# vega airports and cars data. Header, footer, first and last rows and every sixth row between, written
# down from each raw output before any tokenjuice output of it was seen.
QUERIES = "Debian 12, 2026-12-07"

add(
    "psql-airports-florida",
    "psql -c over the vega airports table loaded into a local PostgreSQL 15 server: Florida's 100 airports in psql's aligned table, padded columns under a header and a +-junction rule, then (100 rows) (~10 kB, modest); keep the header, the first and last rows, every sixth row between and the row count",
    "psql 15.18 against PostgreSQL 15.18 on loopback",
    [
        "iata |                   name                   |       city       |  latitude   |  longitude",
        "AAF  | Apalachicola Municipal                   | Apalachicola     | 29.72754583 | -85.02744778",
        "1J0  | Tri-County                               | Bonifay          | 30.84577778 | -85.60138889",
        "CEW  | Bob Sikes                                | Crestview        | 30.77883333 | -86.52211111",
        "DTS  | Destin-Ft. Walton Beach                  | Destin           | 30.40006111 | -86.47147722",
        "FMY  | Page                                     | Ft. Myers        | 26.58661111 |    -81.86325",
        "X51  | Homestead General Aviation               | Homestead        | 25.49872139 | -80.55422528",
        "VQQ  | Cecil                                    | Jacksonville     | 30.21867306 | -81.87666444",
        "LAL  | Lakeland Linder Regional                 | Lakeland         | 27.98891667 | -82.01855556",
        "MAI  | Marianna Municipal                       | Marianna         | 30.83780556 | -85.18188889",
        "TNT  | Dade Collier T And T                     | Miami            | 25.86180556 |      -80.897",
        "OCF  | Ocala Regional/Jim Taylor                | Ocala            | 29.17261111 | -82.22416667",
        "OMN  | Ormond Beach Municipal                   | Ormond Beach     | 29.30113889 | -81.11380556",
        "PCM  | Plant City Municipal                     | Plant City       | 28.00021667 | -82.16424167",
        "SEF  | Sebring  And Industrial Park             | Sebring          | 27.45640278 |     -81.3424",
        "TPA  | Tampa International                      | Tampa            | 27.97547222 |    -82.53325",
        "X59  | Valkaria                                 | Valkaria         | 27.96196472 | -80.55977556",
        "PBI  | Palm Beach International                 | West Palm Beach  | 26.68316194 | -80.09559417",
        "ZPH  | Zephyrhills Municipal                    | Zephyrhills      | 28.22806472 | -82.15591639",
        "(100 rows)",
    ],
    day=QUERIES,
)
add(
    "sqlite3-box-cars-japan",
    "sqlite3 -box over the vega cars table: the 79 Japanese cars by fuel economy in a table drawn with box characters (~10 kB, modest); keep the header, the first and last rows and every sixth row between",
    "SQLite 3.40.1",
    [
        "│            Name             │ Miles_per_Gallon │ Cylinders │ Horsepower │ Weight_in_lbs │    Year    │",
        "│ mazda glc                   │ 46.6             │ 4         │ 65         │ 2110          │ 1980-01-01 │",
        "│ honda civic                 │ 38               │ 4         │ 67         │ 1965          │ 1982-01-01 │",
        "│ mazda glc custom l          │ 37               │ 4         │ 68         │ 2025          │ 1982-01-01 │",
        "│ maxda glc deluxe            │ 34.1             │ 4         │ 65         │ 1975          │ 1979-01-01 │",
        "│ honda civic cvcc            │ 33               │ 4         │ 53         │ 1795          │ 1975-01-01 │",
        "│ toyota corolla              │ 32.4             │ 4         │ 75         │ 2350          │ 1982-01-01 │",
        "│ honda civic (auto)          │ 32               │ 4         │ 67         │ 1965          │ 1982-01-01 │",
        "│ toyota corolla 1200         │ 31               │ 4         │ 65         │ 1773          │ 1971-01-01 │",
        "│ honda Accelerationord lx    │ 29.5             │ 4         │ 68         │ 2135          │ 1978-01-01 │",
        "│ datsun pl510                │ 27               │ 4         │ 88         │ 2130          │ 1970-01-01 │",
        "│ toyota corona               │ 25               │ 4         │ 95         │ 2228          │ 1971-01-01 │",
        "│ datsun 710                  │ 24               │ 4         │ 97         │ 2545          │ 1975-01-01 │",
        "│ mazda rx-4                  │ 21.5             │ 3         │ 110        │ 2720          │ 1977-01-01 │",
        "│ maxda rx3                   │ 18               │ 3         │ 90         │ 2124          │ 1973-01-01 │",
    ],
    day=QUERIES,
)

# -- Linters and type checkers read back (helper h46, 2026-12-07): real runs on this machine of the
# findings forms a cut linter run is said in (a folder said once, tsc's path once per file): tsc over
# rxjs 7.8.2's sources (npm pack) under strict flags, pylint, mypy --strict, ruff's concise and flake8's
# formats over installed and vendored packages, eslint's unix and compact formatters (npm's
# eslint-formatter-unix and -compact) over axios 1.21.1 and async 3.2.6 (npm pack), gcc over Lua 5.4.4
# (Debian's orig tarball, the checksum of bookworm's .dsc). Written down from each raw output by rule
# before any tokenjuice output of it was seen.
LINTREAL = "Debian 12, 2026-12-07"


def first_of_each(items, key):
    """The first item of each key, in output order."""
    seen, out = set(), []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def with_spread(picked, items, n):
    """picked (each once), then n items spread over items that are not already picked."""
    picked = list(dict.fromkeys(picked))
    return picked + spread([x for x in dict.fromkeys(items) if x not in picked], n)


TSC_HEAD_PLAIN = re.compile(r"^\S+\(\d+,\d+\): error (TS\d+): ")
tp = lines("tsc-rxjs-strict-pretty-false")
tp_heads = [ln for ln in tp if TSC_HEAD_PLAIN.match(ln)]
tp_rare = [ln for ln in first_of_each(tp_heads, lambda ln: TSC_HEAD_PLAIN.match(ln)[1])]
# the deepest elaboration of the error whose chain is longest, and one elaboration of each other depth
tp_elab = first_of_each([ln for ln in tp if ln.startswith("  ")], lambda ln: len(ln) - len(ln.lstrip()))
add(
    "tsc-rxjs-strict-pretty-false",
    f"npx tsc --pretty false over rxjs 7.8.2's src under strict, exactOptionalPropertyTypes,"
    f" noUncheckedIndexedAccess, noImplicitOverride and noUnused*: {len(tp_heads)} errors in tsc's"
    " `path(line,col): error TS…` form, many with indented elaborations (up to seven deep), no verdict line"
    " (~21 kB); keep the first error of each code, an elaboration of each depth, errors spread over the rest",
    "TypeScript 7.0.2 via npx, Node 20.20.2",
    with_spread(tp_rare, tp_heads, 10) + [x for x in tp_elab if x not in tp_rare],
    day=LINTREAL,
)

TSC_HEAD_PRETTY = re.compile(r"^\S+:\d+:\d+ - error (TS\d+): ")
tq = lines("tsc-pretty-rxjs-strict")
tq_heads = [ln for ln in tq if TSC_HEAD_PRETTY.match(ln)]
tq_rare = first_of_each(tq_heads, lambda ln: TSC_HEAD_PRETTY.match(ln)[1])
tq_related = first_of_each(
    [ln.strip() for ln in tq if re.match(r"^  \S+:\d+:\d+ - ", ln)], lambda ln: ln.split(" - ")[1]
)
tq_table = [ln for ln in tq if re.match(r"^ +\d+  rxjs/", ln)]
add(
    "tsc-pretty-rxjs-strict",
    f"npx tsc --pretty over the same rxjs sources and flags: {len(tq_heads)} errors as `path:line:col - error"
    " TS…` with elaborations, code excerpts under them and related locations, the verdict and a per-file table"
    " (coloured, ~45 kB); keep the first error of each code, each kind of related location, errors spread"
    " over the rest, the verdict and the table's first and last rows",
    "TypeScript 7.0.2 via npx, Node 20.20.2",
    with_spread(tq_rare, tq_heads, 10)
    + tq_related
    + [next(ln for ln in tq if ln.startswith("Found ")), tq_table[0].strip(), tq_table[-1].strip()],
    day=LINTREAL,
)

PYLINT_MSG = re.compile(r"^\S+:\d+:\d+: ([CRWEF])(\d{4}): ")
pr = lines("pylint-requests-site-packages")
pr_msgs = [ln.rstrip() for ln in pr if PYLINT_MSG.match(ln)]
pr_errors = [ln for ln in pr_msgs if PYLINT_MSG.match(ln)[1] in "EF"]
add(
    "pylint-requests-site-packages",
    f"pylint over requests 2.34.2 as installed in a project's .venv: {len(pr_msgs)} messages under"
    f" `************* Module` headings (~44 kB), {len(pr_errors)} of them E messages, a duplicate-code excerpt"
    " and the score; keep every E message, others spread over the rest, the score",
    "pylint 4.1.5 (astroid 4.4.0) on " + PY,
    with_spread(pr_errors, pr_msgs, 18) + [next(ln.strip() for ln in pr if "Your code has been rated at" in ln)],
    day=LINTREAL,
)

MYPY_ERR = re.compile(r"^\S+:\d+: error: .*  \[([a-z-]+)\]$")
mr = lines("mypy-strict-p-requests")
mr_errors = [ln for ln in mr if MYPY_ERR.match(ln)]
mr_overload = [ln for ln in mr if ": note:     def " in ln or ": note: Possible overload variants:" in ln]
add(
    "mypy-strict-p-requests",
    f"mypy --strict -p requests (requests 2.34.2 ships py.typed): {len(mr_errors)} errors of"
    f" {len({MYPY_ERR.match(ln)[1] for ln in mr_errors})} codes in 14 files (~23 kB), notes under some"
    " (an error code a `type: ignore` does not cover, stub hints, overload variants); keep the first error of"
    " each code, the overload variants under the call-overload error, and the verdict",
    "mypy 2.4.1 (compiled) on " + PY,
    first_of_each(mr_errors, lambda ln: MYPY_ERR.match(ln)[1]) + mr_overload + [mr[-1].strip()],
    day=LINTREAL,
)

CONCISE = re.compile(r"^\S+:\d+:\d+: ([A-Z]+\d+) ")
rc = lines("ruff-concise-pip-vendor-pygments")
rc_findings = [ln for ln in rc if CONCISE.match(ln)]
add(
    "ruff-concise-pip-vendor-pygments",
    f"ruff check --output-format concise over pip's vendored pygments in a .venv: {len(rc_findings)} findings"
    " of 22 codes, 157 UP031 (~43 kB), and the totals; keep the first finding of each code, others spread"
    " over the rest, the totals",
    "ruff 0.17.6",
    with_spread(first_of_each(rc_findings, lambda ln: CONCISE.match(ln)[1]), rc_findings, 8)
    + [ln for ln in rc if ln.startswith("Found ") or ln.startswith("[*] ")],
    day=LINTREAL,
)

fd = lines("flake8-pip-vendor-distlib")
fd_findings = [ln for ln in fd if CONCISE.match(ln)]
fd_codes = first_of_each(fd_findings, lambda ln: CONCISE.match(ln)[1])
add(
    "flake8-pip-vendor-distlib",
    f"flake8 over pip's vendored distlib in a .venv: {len(fd_findings)} findings of {len(fd_codes)} codes, 140"
    " E501 (~46 kB), no totals line; keep the first finding of each code (the 36 rarest if more), others"
    " spread over the rest",
    "flake8 7.5.0 (pycodestyle 2.15.0, pyflakes 3.5.0) on " + PY,
    with_spread(
        sorted(fd_codes, key=lambda ln: sum(1 for x in fd_findings if CONCISE.match(x)[1] == CONCISE.match(ln)[1]))[
            :32
        ],
        fd_findings,
        8,
    ),
    day=LINTREAL,
)

ESLINT_UNIX = re.compile(r"^\S+:\d+:\d+: .* \[(\w+)(?:/(\S+))?\]$")
ESLINT_COMPACT = re.compile(r"^\S+: line \d+, col \d+, (\w+) - .* \(([\w-]+)\)$")


def eslint_picks(name, shape, n):
    """The first problem of each (severity, rule), n others spread over the rest, the total."""
    found = [ln for ln in lines(name) if shape.match(ln)]
    total = next(ln for ln in lines(name) if ln.endswith(" problems"))
    return len(found), with_spread(first_of_each(found, lambda ln: shape.match(ln).groups()), found, n) + [total]


eu_count, eu_picks = eslint_picks("eslint-f-unix-axios-lib", ESLINT_UNIX, 14)
add(
    "eslint-f-unix-axios-lib",
    f"npx eslint -f unix axios/lib (axios 1.21.1 from npm pack; recommended rules plus eqeqeq, no-var,"
    f" prefer-const, no-shadow): {eu_count} problems as `path:line:col: message [Error/rule]`,"
    " unused-directive warnings among them (~15 kB); keep the first problem of each rule, others spread over"
    " the rest, the total",
    "eslint 10.16.0 via npx, eslint-formatter-unix, Node 20.20.2",
    eu_picks,
    day=LINTREAL,
)

ec_count, ec_picks = eslint_picks("eslint-f-compact-async-internal", ESLINT_COMPACT, 16)
add(
    "eslint-f-compact-async-internal",
    f"npx eslint -f compact async/internal (async 3.2.6 from npm pack; the same rules): {ec_count}"
    " problems as `path: line N, col M, Error - message (rule)` (~13 kB); keep the first problem of each"
    " rule, others spread over the rest, the total",
    "eslint 10.16.0 via npx, eslint-formatter-compact, Node 20.20.2",
    ec_picks,
    day=LINTREAL,
)

GCC_WARN = re.compile(r"^(\S+?\.[ch]):\d+:\d+: warning: .* \[(-W[\w-]+)\]$")
gl = lines("gcc-wconversion-lua-src")
gl_warnings = [ln for ln in gl if GCC_WARN.match(ln)]
gl_first = first_of_each(gl_warnings, lambda ln: GCC_WARN.match(ln)[2])
gl_header = next(ln for ln in gl_warnings if GCC_WARN.match(ln)[1].endswith(".h"))
gl_macro = next(ln for ln in gl if ": note: in expansion of macro" in ln)
gl_code = gl[gl.index(gl_warnings[0]) + 1]  # the source line under the first warning
add(
    "gcc-wconversion-lua-src",
    f"gcc -Wall -Wextra -Wconversion -O2 -c *.c in Lua 5.4.4's src: {len(gl_warnings)} warnings (216"
    " -Wsign-conversion, 52 -Wconversion) with source excerpts, `In function` and `In file included from`"
    " context and macro-expansion notes, exit 0 (~105 kB); keep the first warning of each flag, the first in"
    " a header, the first macro note and the code line under the first warning, warnings spread over the"
    " rest (the last included)",
    "gcc 12.2.0 (Debian 12.2.0-14+deb12u1)",
    with_spread(gl_first + [gl_header, gl_macro, gl_code], gl_warnings, 20),
    day=LINTREAL,
)

if __name__ == "__main__":
    sys.exit(0 if write_all(check_only="--check" in sys.argv[1:]) else 1)

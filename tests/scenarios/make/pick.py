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


def add(name, description, source, must_keep, noise=(), bounded=False):
    SPEC[name] = dict(
        description=description,
        source=f"captured: {source}, {DEB}",
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


if __name__ == "__main__":
    sys.exit(0 if write_all(check_only="--check" in sys.argv[1:]) else 1)

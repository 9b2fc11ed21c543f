"""Every secret shape on every channel, through real processes (issue 29): a shape is a
command an agent runs whose output (or whose own words) hold a secret; a channel is
everywhere tokenjuice puts what it saw. For each shape, in a fresh HOME:

- `wrap --format json --trace` of the command: every string of the answer (the text
  shown, stdout, the trace's argv and command);
- `wrap` of the command between 40,000 lines of other output (more than an exact read shows whole), so that the shown text is
  cut and the full output stored: the shown text, `cat ID`, `cat --shown ID`,
  `cat --format json ID`, `ls --json`, `stats --json`;
- Claude Code's PostToolUse hook given the host's own output of the command: the
  answer, which must replace the output (leaving it alone shows the secret);
- every file tokenjuice left under HOME (the ledger, its spool, the store, gzip
  members unpacked).

The secrets are chosen here, before any of tokenjuice's output was looked at; the
test checks that none of them is anywhere, and that the redaction marker of the
expected kind is where the secret was (so the test cannot pass by showing nothing).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import git, tokenjuice

pytestmark = pytest.mark.slow  # ~170 real processes: the full suite runs it (`-m "slow or not slow"`)
LAUNCHER = f"{sys.executable} -m tokenjuice"


def _key_body(seed: str, lines: int = 25) -> list[str]:
    """Made-up base64 lines of a key (nothing checks that a key is a real one)."""
    import base64

    body, block = [], seed.encode()
    for _ in range(lines):
        block = hashlib.sha512(block).digest()
        body.append(base64.b64encode(block[:48]).decode())
    return body[:-1] + [body[-1][:44] + "=="]


RSA = _key_body("rsa")
OPENSSH = _key_body("openssh", 7)
RSA_PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(RSA) + "\n-----END RSA PRIVATE KEY-----\n"
SA_KEY = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(OPENSSH) + "\n-----END PRIVATE KEY-----\n"
SERVICE_ACCOUNT = json.dumps(
    {
        "type": "service_account",
        "project_id": "acme-prod",
        "private_key_id": "0123456789abcdef0123456789abcdef01234567",
        "private_key": SA_KEY,
        "client_email": "deployer@acme-prod.iam.gserviceaccount.com",
    },
    indent=2,
)


@dataclass
class Shape:
    name: str
    command: str  # run by bash -c in the work folder
    secrets: list[str]  # none of these may appear on any channel
    kind: str  # the marker expected: [REDACTED:<kind>]
    files: dict[str, str | bytes] = field(default_factory=dict)
    git_history: bool = False  # deploy/id_rsa committed, then removed (for the diff shapes)


KEY_FILES: dict[str, str | bytes] = {
    "deploy/id_rsa": RSA_PEM,
    "deploy/id_crlf": RSA_PEM.replace("\n", "\r\n").encode(),
    "deploy/README": "deploy keys live here\n",
}

SHAPES = [
    Shape("key read whole", "cat deploy/id_rsa", RSA, "private-key", KEY_FILES),
    Shape("key found by grep -A3", "grep -rn -A3 'PRIVATE KEY' deploy/", RSA[:3], "private-key", KEY_FILES),
    Shape(
        "key end found by grep -B3",
        "grep -n -B3 'END RSA PRIVATE KEY' deploy/id_rsa",
        RSA[-3:],
        "private-key",
        KEY_FILES,
    ),
    Shape("key tail", "tail -5 deploy/id_rsa", RSA[-4:], "private-key", KEY_FILES),
    Shape("key in git log -p", "git log -p -2 --format=%s", RSA, "private-key", KEY_FILES, git_history=True),
    Shape("key removed in git diff", "git diff HEAD~1 HEAD", RSA, "private-key", KEY_FILES, git_history=True),
    Shape("key quoted", "sed 's/^/> /' deploy/id_rsa", RSA, "private-key", KEY_FILES),
    Shape("key in a table", 'awk \'{print "| " $0 " |"}\' deploy/id_rsa', RSA, "private-key", KEY_FILES),
    Shape("key indented", "sed 's/^/    /' deploy/id_rsa", RSA, "private-key", KEY_FILES),
    Shape("key with CRLF read whole", "cat deploy/id_crlf", RSA, "private-key", KEY_FILES),
    Shape("key with CRLF by grep", "grep -n . deploy/id_crlf", RSA, "private-key", KEY_FILES),
    Shape("service account JSON", "cat sa.json", OPENSSH, "private-key", {"sa.json": SERVICE_ACCOUNT}),
    Shape(
        "service account by grep", "grep -n private_key sa.json", OPENSSH, "private-key", {"sa.json": SERVICE_ACCOUNT}
    ),
    Shape("sshpass -p", "echo sshpass -p Tr0ub4dorX3 ssh deploy@10.0.0.5 uptime", ["Tr0ub4dorX3"], "password"),
    Shape(
        "htpasswd -b", "echo htpasswd -b -c /etc/nginx/.htpasswd admin S3cretPassw0rdQ", ["S3cretPassw0rdQ"], "password"
    ),
    Shape(
        "Cookie header",
        "printf '> GET / HTTP/1.1\\n> Cookie: sessionid=8f2k3jd92kd0sQ; csrftoken=Zx9wQ2mN4bV7cL1k\\n'",
        ["8f2k3jd92kd0sQ", "Zx9wQ2mN4bV7cL1k"],
        "cookie",
    ),
    Shape(
        "Set-Cookie header",
        "printf '< HTTP/1.1 200 OK\\n< Set-Cookie: session=Zk1aBgd2VibG9naW4xQ; Path=/; HttpOnly\\n'",
        ["Zk1aBgd2VibG9naW4xQ"],
        "cookie",
    ),
    Shape("mysql -pX", "echo mysql -uroot -pS3cretRootPwZ -h 127.0.0.1 app_db", ["S3cretRootPwZ"], "password"),
    Shape("PGPASSWORD=X", "echo PGPASSWORD=pgS3cretW0rdY psql -h db -U app", ["pgS3cretW0rdY"], "password"),
    Shape("--password X", "echo deploy --password flagS3cretV1 --host db", ["flagS3cretV1"], "password"),
    Shape("--password=X", "echo deploy --password=flagS3cretV2 --host db", ["flagS3cretV2"], "password"),
    Shape(
        "URL password",
        "echo cloning https://builder:urlS3cretT0ken@git.example.test/acme/api.git",
        ["urlS3cretT0ken"],
        "url-password",
    ),
    Shape(
        "OpenAI key",
        "echo OPENAI=sk-proj-Abcdefghijklmnopqrstuvwx0123",
        ["sk-proj-Abcdefghijklmnopqrstuvwx0123"],
        "openai-key",
    ),
    Shape(
        "Anthropic key",
        "echo using sk-ant-api03-Abcdefghijklmnopqrstuvwxyz0123456789-XYZ",
        ["sk-ant-api03-Abcdefghijklmnopqrstuvwxyz0123456789-XYZ"],
        "anthropic-key",
    ),
]


def _prepare(shape: Shape, work: Path) -> None:
    for name, content in shape.files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    if shape.git_history:
        git("init", "-q", "-b", "main", cwd=work)
        git("add", "deploy/README", cwd=work)
        git("commit", "-qm", "readme", cwd=work)
        git("add", "deploy/id_rsa", cwd=work)
        git("commit", "-qm", "add the deploy key", cwd=work)
        git("rm", "-q", "deploy/id_rsa", cwd=work)
        git("commit", "-qm", "remove the deploy key", cwd=work)


def _leaks(shape: Shape, text: str) -> list[str]:
    # a key line may be split by the escapes of a JSON string or by a CR: look for a part of it
    return [secret[:24] for secret in shape.secrets if secret[:24] in text]


def _files_under(root: Path) -> dict[str, str]:
    seen = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            seen[str(path.relative_to(root))] = data.decode("utf-8", "replace")
    return seen


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.name for shape in SHAPES])
def test_a_secret_shape_reaches_no_channel(shape, workdir, isolated_home):
    _prepare(shape, workdir)
    raw = subprocess.run(["bash", "-c", shape.command], cwd=workdir, capture_output=True, text=True, check=True).stdout
    assert _leaks(shape, raw), "the shape's own output must hold the secret, or the test proves nothing"
    marker = f"[REDACTED:{shape.kind}]"
    leaks: dict[str, list[str]] = {}

    def check(channel: str, text: str, marked: bool = True) -> None:
        if _leaks(shape, text):
            leaks[channel] = _leaks(shape, text)
        elif marked and marker not in text.replace("\\", ""):
            leaks[channel] = [f"no {marker}: {text[:300]!r}"]

    # 1. the answer of a JSON wrap, every string in it (shown text, stdout, trace)
    small = tokenjuice("wrap", "--format", "json", "--trace", "--", "bash", "-c", shape.command, cwd=workdir)
    assert small.returncode == 0, small.stderr
    check("wrap --format json --trace", small.stdout.decode())

    # 2. a cut run: the shown text and everything stored for it
    big_command = f"seq 1 20000; {shape.command}; seq 20001 40000"
    big = tokenjuice("wrap", "--", "bash", "-c", big_command, cwd=workdir)
    assert big.returncode == 0, big.stderr
    shown = big.stdout.decode()
    check("wrap (cut)", shown, marked=False)
    trailer = shown.splitlines()[-1]
    assert "tokenjuice cat " in trailer, trailer
    ident = trailer.split("tokenjuice cat ")[1].split()[0].rstrip(")")
    for channel, args in (
        ("cat", ("cat", ident)),
        ("cat --shown", ("cat", "--shown", ident)),
        ("cat --format json", ("cat", "--format", "json", ident)),
        ("ls --json", ("ls", "--json")),
        ("stats --json", ("stats", "--json")),
    ):
        done = tokenjuice(*args, cwd=workdir)
        assert done.returncode == 0, (channel, done.stderr)
        check(channel, done.stdout.decode(), marked=channel == "cat")

    # 3. Claude Code's PostToolUse: the host shows `raw` unless the hook replaces it
    payload = {
        "session_id": "s",
        "cwd": str(workdir),
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": shape.command, "description": "run it"},
        "tool_response": {"stdout": raw.rstrip("\n"), "stderr": "", "interrupted": False, "isImage": False},
        "tool_use_id": "toolu_1",
    }
    answer = tokenjuice("hook", "claude-code", "--wrap-launcher", LAUNCHER, input=json.dumps(payload), cwd=workdir)
    assert answer.returncode == 0, answer.stderr
    replaced = json.loads(answer.stdout).get("hookSpecificOutput", {}).get("updatedToolOutput")
    if replaced is None:
        leaks["claude PostToolUse"] = ["left the host's output, secret included, alone"]
    else:
        check("claude PostToolUse", json.dumps(replaced))

    # 4. every file tokenjuice wrote under HOME (ledger, spool, store, caches)
    for name, text in _files_under(isolated_home).items():
        if _leaks(shape, text):
            leaks[f"file ~/{name}"] = _leaks(shape, text)

    assert not leaks, leaks

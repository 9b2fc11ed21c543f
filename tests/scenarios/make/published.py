"""Published real outputs of tools that cannot run here (issue 28: logs, builds, infra).

Usage: python published.py MIRRORS     extract every output from snapshots of the source repositories
                                        (MIRRORS/<owner>+<name>/repo, bare git directories) into
                                        tests/scenarios/<name>.out[.gz] and register it in captured.json
       python published.py --register   only (re)register the stored outputs in captured.json

No kernel, no systemd journal of a real machine, no terraform, docker engine or cluster
is reachable from this machine, so these outputs are taken verbatim from public
repositories: a whole file where the repository stores the output as a file, or the
lines of one fenced block of a README (named by their 1-based line range; the shell
prompt line above them is not part of the output), or the text of one fenced block of
a GitHub issue.  The bytes are kept exactly (ANSI colour codes included); nothing is
cleaned up.  The exit code is the one the command gives for that outcome (0 for a log
read or a run that ended well, 1 for terraform's and kubectl's errors).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent

# name: (command, exit code, repository, commit, path, line range or None)
PUBLISHED: dict[str, tuple[str, int, str, str, str, tuple[int, int] | None]] = {
    "journalctl-boot-oom-killer": (
        "journalctl -b",
        0,
        "diapason-consulting/crash-logs",
        "182f9e348cad52dcf4dc686ab962b0d0ef251246",
        "Log12-12.txt",
        None,
    ),
    "journalctl-boot-soft-lockup": (
        "journalctl -b",
        0,
        "NickSalacious/LinuxErrors",
        "2b6555bc8cafeb28d5ba74e6987a057c9368dd21",
        "journalctl.txt",
        None,
    ),
    "journalctl-u-postgresql": (
        "journalctl -u postgresql",
        0,
        "demurgos/pg_unrecognized_node",
        "4aef7fa075bbcba1bf2154ec47f19a3de119df40",
        "journalctl.txt",
        None,
    ),
    "terraform-init": (
        "terraform init",
        0,
        "Sareenh1/Elevate-Labs-Terraform-Docker",
        "6a1175ae7115044d694d822f6b9b4f52692cadae",
        "init.log",
        None,
    ),
    "terraform-plan-out": (
        "terraform plan -out=tfplan",
        0,
        "Sareenh1/Elevate-Labs-Terraform-Docker",
        "9a6514e8d2514fc4a87f2f6e11c5ce7966267c76",
        "plan.log",
        None,
    ),
    "cat-terraform-apply-log": (
        "cat apply.log",
        0,
        "hitsub2/openclaw-on-eks",
        "d60d5ce3516b61b8f582dfb80fef78cd5db58e3a",
        "apply.log",
        None,
    ),
    "docker-compose-logs": (
        "docker compose logs -f",
        0,
        "mhdsdt/software-engineering-lab",
        "144396af1c02dd9c278cdc50c65586e23909fe66",
        "experiment-5-docker/README.md",
        (97, 225),
    ),
}

# outputs quoted in a GitHub issue: name -> (command, exit code, issue URL)
ISSUES: dict[str, tuple[str, int, str]] = {
    "kubectl-apply-validation-errors": (
        "kubectl apply -f cursed.yaml",
        1,
        "https://github.com/nikhiljha/experiments/issues/1",
    ),
}


def source(name: str) -> str:
    """The exact place an output was published."""
    if name in ISSUES:
        return f"{ISSUES[name][2]} (the fenced block of the issue's description)"
    _, _, repo, commit, path, lines = PUBLISHED[name]
    where = f" lines {lines[0]}-{lines[1]}" if lines else ""
    return f"{repo} {path}{where} @ {commit[:12]}"


def stored(name: str) -> Path:
    gz = OUT / f"{name}.out.gz"
    return gz if gz.exists() else OUT / f"{name}.out"


def extract(name: str, mirrors: Path) -> bytes:
    _, _, repo, commit, path, lines = PUBLISHED[name]
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    data = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"], check=True, capture_output=True
    ).stdout
    if lines:
        data = b"".join(data.splitlines(keepends=True)[lines[0] - 1 : lines[1]])
    return data


def write(name: str, data: bytes) -> None:
    for old in OUT.glob(f"{name}.out*"):
        old.unlink()
    if len(data) > 200_000:
        (OUT / f"{name}.out.gz").write_bytes(gzip.compress(data, mtime=0))
    else:
        (OUT / f"{name}.out").write_bytes(data)


def register() -> None:
    meta_path = HERE / "captured.json"
    meta = json.loads(meta_path.read_text())
    for name in [*PUBLISHED, *ISSUES]:
        f = stored(name)
        data = f.read_bytes()
        if f.suffix == ".gz":
            data = gzip.decompress(data)
        command, code = (ISSUES[name] if name in ISSUES else PUBLISHED[name])[:2]
        meta[name] = {
            "command": command,
            "exit_code": code,
            "bytes": len(data),
            "output_file": f.name,
            "published": source(name),
        }
    meta_path.write_text(json.dumps(dict(sorted(meta.items())), indent=2) + "\n")


def main() -> None:
    if sys.argv[1:] != ["--register"]:
        mirrors = Path(sys.argv[1])
        for name in PUBLISHED:
            write(name, extract(name, mirrors))
    register()


if __name__ == "__main__":
    main()

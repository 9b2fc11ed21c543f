#!/usr/bin/env python3
"""Build the data, run each MCP server locally and save the `tools/call` results of
the tools corpus (tests/tools-corpus/<case>.json[.gz]).

    python3 tests/tools-corpus/make/capture.py ROOT [CASE ...]

ROOT is a scratch folder (e.g. /tmp/h32) that must already hold the servers:

    npm install --prefix ROOT/npm @modelcontextprotocol/server-filesystem@2026.8.31 \
        @modelcontextprotocol/server-memory@2026.8.31 \
        @modelcontextprotocol/server-everything@2026.8.31 \
        @modelcontextprotocol/server-postgres@0.6.2
    python3 -m venv ROOT/venv && ROOT/venv/bin/pip install mcp-server-fetch==2026.10.24 mcp-server-git==2026.10.19
    python3 -m venv ROOT/venv-sqlite && ROOT/venv-sqlite/bin/pip install mcp-server-sqlite==2025.4.25 'mcp<2'
    pg_ctlcluster 15 main start       # Debian's postgresql-15, for the postgres cases

(mcp-server-sqlite 2025.4.25 does not start with mcp 2.x: `'Server' object has no
attribute 'list_resources'`.) The data is made here, deterministically, from the
Python standard library of the interpreter running this script, this repository at
commit PIN and a seeded random generator. Nothing of tokenjuice is imported or run."""

from __future__ import annotations

import ast
import http.server
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import threading
from functools import partial
from pathlib import Path

from mcp_client import Server, save

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
REPO = CORPUS.parent.parent
STDLIB = Path(sysconfig.get_paths()["stdlib"])
PORT = 8732  # the loopback web server the fetch cases read
PIN = "4b1c95a"  # tokenjuice main when the corpus was captured
PACKAGES = [
    "email",
    "json",
    "http",
    "asyncio",
    "logging",
    "urllib",
    "concurrent",
    "importlib",
    "xml",
    "sqlite3",
    "unittest",
    "wsgiref",
]


# -- data ------------------------------------------------------------------------------------------


def make_fs(root: Path) -> Path:
    """ROOT/fs/shop: a project folder holding copies of 12 stdlib packages under src/,
    a docs/ and a small config/ folder."""
    shop = root / "fs" / "shop"
    if shop.exists():
        return shop
    for name in PACKAGES:
        shutil.copytree(
            STDLIB / name, shop / "src" / name, ignore=shutil.ignore_patterns("__pycache__", "test", "tests")
        )
    (shop / "docs").mkdir()
    (shop / "docs" / "README.md").write_text("# shop\n\nVendored stdlib packages for the shop service.\n")
    (shop / "docs" / "CHANGELOG.md").write_text("## 1.4.0\n- retry failed payments\n## 1.3.2\n- fix refund rounding\n")
    (shop / "config").mkdir()
    (shop / "config" / "settings.toml").write_text('[db]\nurl = "sqlite:///shop.db"\npool = 5\n')
    (shop / "config" / "logging.ini").write_text("[loggers]\nkeys=root\n")
    return shop


def module_facts() -> tuple[list[dict], list[dict]]:
    """Entities (one per module of PACKAGES) and `imports` relations, read from the
    stdlib sources with ast."""
    entities, relations = [], []
    names = set()
    files = []
    for package in PACKAGES:
        for path in sorted((STDLIB / package).rglob("*.py")):
            if "test" in path.parts[len(STDLIB.parts) : -1]:
                continue
            rel = path.relative_to(STDLIB).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            files.append((".".join(parts), path))
            names.add(".".join(parts))
    for module, path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        tree = ast.parse(text)
        doc = (ast.get_docstring(tree) or "").strip().splitlines()
        classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
        observations = [f"source file Lib/{path.relative_to(STDLIB)}", f"{len(text.splitlines())} lines"]
        if doc:
            observations.append("docstring: " + doc[0])
        if classes:
            observations.append("defines classes: " + ", ".join(classes[:12]))
        if functions:
            observations.append("public functions: " + ", ".join(functions[:12]))
        entities.append(
            {
                "name": module,
                "entityType": "package" if path.name == "__init__.py" else "module",
                "observations": observations,
            }
        )
        seen = set()
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module]
            for target in targets:
                if target in names and target != module and target not in seen:
                    seen.add(target)
                    relations.append({"from": module, "to": target, "relationType": "imports"})
    return entities, relations


def make_sqlite(root: Path) -> Path:
    """ROOT/shop.db: customers (400), products (120), orders (3,000) from a seeded generator."""
    db = root / "shop.db"
    if db.exists():
        return db
    rnd = random.Random(32)
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, country TEXT, created_at TEXT);
        CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, title TEXT, price_cents INTEGER, stock INTEGER);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
            product_id INTEGER REFERENCES products(id), qty INTEGER, total_cents INTEGER, status TEXT, created_at TEXT);
        CREATE INDEX orders_status ON orders(status);
    """)
    first = [
        "Ada",
        "Grace",
        "Alan",
        "Edsger",
        "Barbara",
        "Donald",
        "Ken",
        "Dennis",
        "Margaret",
        "Linus",
        "Guido",
        "Frances",
        "John",
        "Radia",
        "Niklaus",
        "Tony",
        "Leslie",
        "Shafi",
        "Whitfield",
        "Sophie",
    ]
    last = [
        "Lovelace",
        "Hopper",
        "Turing",
        "Dijkstra",
        "Liskov",
        "Knuth",
        "Thompson",
        "Ritchie",
        "Hamilton",
        "Torvalds",
        "van Rossum",
        "Allen",
        "McCarthy",
        "Perlman",
        "Wirth",
        "Hoare",
        "Lamport",
        "Goldwasser",
        "Diffie",
        "Wilson",
    ]
    countries = ["DE", "FR", "US", "GB", "NL", "SE", "JP", "BR", "IN", "CA"]
    for i in range(1, 401):
        name = f"{rnd.choice(first)} {rnd.choice(last)}"
        email = f"{name.lower().replace(' ', '.')}.{i}@example.org"
        con.execute(
            "INSERT INTO customers VALUES (?,?,?,?,?)",
            (i, name, email, rnd.choice(countries), f"2025-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"),
        )
    words = [
        "cable",
        "adapter",
        "keyboard",
        "mouse",
        "monitor",
        "stand",
        "lamp",
        "hub",
        "charger",
        "case",
        "sleeve",
        "dock",
    ]
    kinds = ["USB-C", "HDMI", "wireless", "mechanical", "ergonomic", "4K", "travel", "desk"]
    for i in range(1, 121):
        con.execute(
            "INSERT INTO products VALUES (?,?,?,?,?)",
            (
                i,
                f"SKU-{1000 + i}",
                f"{rnd.choice(kinds)} {rnd.choice(words)}",
                rnd.randint(499, 25999),
                rnd.randint(0, 300),
            ),
        )
    statuses = ["paid"] * 14 + ["shipped"] * 10 + ["pending"] * 3 + ["refunded", "failed"]
    for i in range(1, 3001):
        qty = rnd.randint(1, 5)
        product = rnd.randint(1, 120)
        price = con.execute("SELECT price_cents FROM products WHERE id=?", (product,)).fetchone()[0]
        con.execute(
            "INSERT INTO orders VALUES (?,?,?,?,?,?,?)",
            (
                i,
                rnd.randint(1, 400),
                product,
                qty,
                qty * price,
                rnd.choice(statuses),
                f"2026-{rnd.randint(1, 10):02d}-{rnd.randint(1, 28):02d}T{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:00",
            ),
        )
    con.commit()
    con.close()
    return db


def make_postgres(root: Path, db: Path) -> str:
    """A database `shop` on the local PostgreSQL 15 (as user postgres) with the same rows."""
    dsn = "postgresql://postgres:corpus@127.0.0.1:5432/shop"
    sql = root / "shop.pg.sql"
    lines = [
        "DROP DATABASE IF EXISTS shop;",
        "CREATE DATABASE shop;",
        "ALTER USER postgres PASSWORD 'corpus';",
        "\\c shop",
    ]
    con = sqlite3.connect(db)
    for (ddl,) in con.execute("SELECT sql FROM sqlite_master WHERE type='table' ORDER BY rowid"):
        lines.append(ddl.replace("INTEGER PRIMARY KEY", "integer PRIMARY KEY") + ";")
    for table in ("customers", "products", "orders"):
        for row in con.execute(f"SELECT * FROM {table}"):
            values = ", ".join(
                "NULL" if v is None else str(v) if isinstance(v, int) else "'" + str(v).replace("'", "''") + "'"
                for v in row
            )
            lines.append(f"INSERT INTO {table} VALUES ({values});")
    sql.write_text("\n".join(lines) + "\n")
    subprocess.run(
        ["su", "postgres", "-c", f"psql -q -v ON_ERROR_STOP=1 -f {sql}"], check=True, stdout=subprocess.DEVNULL
    )
    return dsn


def make_www(root: Path) -> Path:
    """ROOT/www: pydoc's HTML pages for argparse and email.message, a JSON list of 500
    records and a plain-text changelog, served by http.server on loopback."""
    www = root / "www"
    if www.exists():
        return www
    www.mkdir(parents=True)
    for module in ("argparse", "email.message"):
        subprocess.run([sys.executable, "-m", "pydoc", "-w", module], cwd=www, check=True, stdout=subprocess.DEVNULL)
    rnd = random.Random(320)
    records = [
        {
            "id": i,
            "service": rnd.choice(["api", "worker", "billing", "search"]),
            "status": rnd.choice(["ok"] * 9 + ["degraded"]),
            "latency_ms": rnd.randint(3, 900),
            "region": rnd.choice(["eu-west", "us-east", "ap-south"]),
        }
        for i in range(1, 501)
    ]
    (www / "status.json").write_text(json.dumps({"generated": "2026-11-28T10:00:00Z", "checks": records}))
    shutil.copy(
        STDLIB.parent / "python3.11" / "LICENSE.txt"
        if (STDLIB.parent / "python3.11" / "LICENSE.txt").exists()
        else STDLIB / "LICENSE.txt",
        www / "LICENSE.txt",
    )
    return www


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve(www: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    """http.server on 127.0.0.1:PORT (fixed, so the URLs in the outputs are the same every run)."""
    handler = partial(QuietHandler, directory=str(www))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, httpd.server_address[1]


def make_repo(root: Path) -> Path:
    """ROOT/repo: a clone of this repository at PIN with 3 files edited, one staged, one new."""
    repo = root / "repo"
    if repo.exists():
        return repo
    subprocess.run(["git", "clone", "-q", "--no-local", str(REPO), str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-B", "main", PIN], check=True)
    readme = repo / "README.md"
    readme.write_text(
        readme.read_text().replace("tokenjuice", "tokenjuice", 1) + "\n## Local notes\n\nTry the tools corpus.\n"
    )
    license_ = repo / "LICENSE"
    license_.write_text(license_.read_text() + "\n")
    (repo / "NOTES.md").write_text("scratch\n")
    py = repo / "pyproject.toml"
    py.write_text(py.read_text().replace("requires-python", "# pinned for the corpus\nrequires-python", 1))
    subprocess.run(["git", "-C", str(repo), "add", "LICENSE"], check=True)
    return repo


# -- the cases -------------------------------------------------------------------------------------


def capture(root: Path, only: set[str]) -> None:
    npm = root / "npm" / "node_modules" / ".bin"
    venv = root / "venv" / "bin"
    done: dict[str, int] = {}
    tools_lists: dict[str, dict] = {}

    def run(server: str, argv: list[str], calls: list[tuple[str, str, dict]], env: dict | None = None) -> None:
        wanted = [c for c in calls if not only or c[0] in only]
        if not wanted:
            return
        with Server(argv, env=env, stderr_log=str(root / f"{server}.stderr.log")) as s:
            tools_lists[server] = {"serverInfo": s.info.get("serverInfo"), "tools": s.tools()["tools"]}
            for case, tool, args in wanted:
                result = s.call(tool, args)
                path = save(result, CORPUS / f"{case}.json")
                done[case] = path.stat().st_size
                print(
                    f"{case}: {tool} -> {path.name} ({len(json.dumps(result, ensure_ascii=False, indent=2)) + 1} bytes)"
                )

    shop = make_fs(root)
    run(
        "filesystem",
        [str(npm / "mcp-server-filesystem"), str(root / "fs")],
        [
            ("mcp-fs-directory-tree", "directory_tree", {"path": str(shop)}),
            ("mcp-fs-search-files-py", "search_files", {"path": str(shop), "pattern": "**/*.py"}),
            ("mcp-fs-search-files-parser", "search_files", {"path": str(shop), "pattern": "**/*parser*"}),
            (
                "mcp-fs-list-directory-with-sizes",
                "list_directory_with_sizes",
                {"path": str(shop / "src" / "asyncio"), "sortBy": "size"},
            ),
            ("mcp-fs-list-directory-small", "list_directory", {"path": str(shop)}),
            ("mcp-fs-get-file-info", "get_file_info", {"path": str(shop / "config" / "settings.toml")}),
            ("mcp-fs-search-files-no-match", "search_files", {"path": str(shop), "pattern": "**/*.rs"}),
        ],
    )

    entities, relations = module_facts()
    memory_file = root / "memory.jsonl"
    if memory_file.exists() and (not only or "mcp-memory-create-relations" in only):
        memory_file.unlink()
    run(
        "memory",
        [str(npm / "mcp-server-memory")],
        [
            ("mcp-memory-create-entities-echo", "create_entities", {"entities": entities}),
            ("mcp-memory-create-relations", "create_relations", {"relations": relations}),
            ("mcp-memory-read-graph", "read_graph", {}),
            ("mcp-memory-search-nodes-email", "search_nodes", {"query": "email.mime"}),
            ("mcp-memory-open-nodes", "open_nodes", {"names": ["json.decoder", "json.scanner"]}),
        ],
        env={"MEMORY_FILE_PATH": str(memory_file)},
    )

    www = make_www(root)
    httpd, port = serve(www)
    base = f"http://127.0.0.1:{port}"
    try:
        run(
            "fetch",
            [str(venv / "mcp-server-fetch"), "--allow-private-ips"],
            [
                ("mcp-fetch-pydoc-default", "fetch", {"url": f"{base}/argparse.html"}),
                ("mcp-fetch-pydoc-long", "fetch", {"url": f"{base}/email.message.html", "max_length": 200000}),
                ("mcp-fetch-raw-html", "fetch", {"url": f"{base}/argparse.html", "raw": True, "max_length": 120000}),
                ("mcp-fetch-json-status", "fetch", {"url": f"{base}/status.json", "max_length": 100000}),
                ("mcp-fetch-404", "fetch", {"url": f"{base}/missing/page.html"}),
            ],
        )
    finally:
        httpd.shutdown()

    db = make_sqlite(root)
    run(
        "sqlite",
        [str(root / "venv-sqlite" / "bin" / "mcp-server-sqlite"), "--db-path", str(db)],
        [
            ("mcp-sqlite-read-query-3000-rows", "read_query", {"query": "SELECT * FROM orders"}),
            (
                "mcp-sqlite-read-query-join",
                "read_query",
                {
                    "query": "SELECT o.id, c.name, c.email, p.sku, o.total_cents, o.status "
                    "FROM orders o JOIN customers c ON c.id=o.customer_id "
                    "JOIN products p ON p.id=o.product_id "
                    "WHERE o.status IN ('failed','refunded') ORDER BY o.id"
                },
            ),
            ("mcp-sqlite-list-tables", "list_tables", {}),
            ("mcp-sqlite-describe-table", "describe_table", {"table_name": "orders"}),
            ("mcp-sqlite-read-query-error", "read_query", {"query": "SELECT total FROM orders"}),
        ],
    )

    if not only or any(c.startswith("mcp-postgres") for c in only):
        dsn = make_postgres(root, db)
        run(
            "postgres",
            [str(npm / "mcp-server-postgres"), dsn],
            [
                ("mcp-postgres-query-customers", "query", {"sql": "SELECT * FROM customers ORDER BY id"}),
                (
                    "mcp-postgres-query-status-counts",
                    "query",
                    {
                        "sql": "SELECT status, count(*) AS n, sum(total_cents) AS cents "
                        "FROM orders GROUP BY status ORDER BY n DESC"
                    },
                ),
            ],
        )

    repo = make_repo(root)
    run(
        "git",
        [str(venv / "mcp-server-git"), "--repository", str(repo)],
        [
            ("mcp-git-log-50", "git_log", {"repo_path": str(repo), "max_count": 50}),
            ("mcp-git-show-commit", "git_show", {"repo_path": str(repo), "revision": "a723feb"}),
            ("mcp-git-diff-head5", "git_diff", {"repo_path": str(repo), "target": "HEAD~5"}),
            ("mcp-git-status", "git_status", {"repo_path": str(repo)}),
            ("mcp-git-diff-unstaged", "git_diff_unstaged", {"repo_path": str(repo)}),
        ],
    )

    run(
        "everything",
        [str(npm / "mcp-server-everything")],
        [
            ("mcp-everything-echo", "echo", {"message": "build 4812 finished: 3 warnings"}),
            ("mcp-everything-structured-content", "get-structured-content", {"location": "New York"}),
            ("mcp-everything-resource-links", "get-resource-links", {"count": 5}),
            ("mcp-everything-tiny-image", "get-tiny-image", {}),
        ],
    )

    (HERE / "tools-list.json").write_text(json.dumps(tools_lists, ensure_ascii=False, indent=2) + "\n")
    print(f"{len(done)} cases")


if __name__ == "__main__":
    capture(Path(sys.argv[1]).resolve(), set(sys.argv[2:]))

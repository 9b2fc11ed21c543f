"""Build the fixtures of issue 28's logs, builds and infra scenarios under ROOT (/tmp/scen).

Usage: python infra.py ROOT

- `fx/libuv`: libuv as vendored in uvloop 0.23.0's sdist (a real C project, 35 sources
  built twice, for the shared and the static library), for `cmake` configure and build.
- `fx/shopws`: a cargo workspace of 24 local path crates (no registry needed); the late
  `pricing` crate passes a `u32` where an `i64` is expected (one real error).
- `fx/ruffstats`: copies of six stdlib packages under a pyproject that selects every
  ruff rule, for `ruff check --statistics`.
- `fx/goworker`: a Go module (no dependencies) whose batch loop logs a line per batch,
  then indexes past the end of a slice (a real `panic: runtime error`).
- `fx/pipreqs`: a requirements file of 14 real pins and one version that does not exist.
- `pg/postgresql-15-main.log`: a real PostgreSQL 15 server (Debian's package) started on
  loopback with its own data directory, put through connections, queries and real failures
  (wrong password, missing database and role, missing table, duplicate key, syntax error,
  statement timeout, a terminated backend), then stopped; the log is what the server wrote.
- `web/app.log`: a real Flask app served by werkzeug on loopback, hit by a bounded health
  check loop (GET /healthz) with a few real requests among them: a handler that raises
  KeyError, one that divides by zero, and requests to missing routes.

Needs Debian 12 with postgresql-15, golang-go, cmake, gcc, cargo, and PyPI reachable.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
from pathlib import Path

STDLIB = Path("/root/.pyenv/versions/3.11.7/lib/python3.11")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def run(cmd: list[str], **kw: object) -> None:
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


# ---------------------------------------------------------------- cmake: libuv from uvloop's sdist
def libuv(root: Path, venv: Path) -> None:
    d = root / "fx/libuv"
    if (d / "CMakeLists.txt").exists():
        return
    dl = root / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    sdist = dl / "uvloop-0.23.0.tar.gz"
    if not sdist.exists():
        run(
            [
                str(venv / "bin/pip"),
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "uvloop==0.23.0",
                "-d",
                str(dl),
            ]
        )
    tmp = root / "downloads/uvloop-src"
    shutil.rmtree(tmp, ignore_errors=True)
    with tarfile.open(sdist) as tf:
        tf.extractall(tmp, filter="data")
    shutil.move(str(tmp / "uvloop-0.23.0/vendor/libuv"), str(d))
    shutil.rmtree(tmp)


# ---------------------------------------------------------------- cargo: a workspace of local crates
CRATES = [
    "shop-types",
    "money",
    "units",
    "clock",
    "ids",
    "config",
    "errors",
    "codec",
    "storage",
    "catalog",
    "inventory",
    "customers",
    "tax",
    "discounts",
    "cart",
    "payments",
    "shipping",
    "invoices",
    "notify",
    "reports",
    "audit",
    "pricing",
    "api",
    "shopd",
]


def cargo_workspace(root: Path) -> None:
    d = root / "fx/shopws"
    shutil.rmtree(d, ignore_errors=True)
    members = ",\n".join(f'    "crates/{c}"' for c in CRATES)
    write(d / "Cargo.toml", f'[workspace]\nresolver = "2"\nmembers = [\n{members},\n]\n')
    for i, name in enumerate(CRATES):
        deps = CRATES[max(0, i - 2) : i]
        dep_lines = "".join(f'{x} = {{ path = "../{x}" }}\n' for x in deps)
        kind = "bin" if name == "shopd" else "lib"
        write(
            d / f"crates/{name}/Cargo.toml",
            f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{dep_lines}',
        )
        ident = name.replace("-", "_")
        uses = "".join(f"    total += {x.replace('-', '_')}::weight(n);\n" for x in deps)
        body = (
            f"pub fn weight(n: u32) -> u64 {{\n    let mut total: u64 = {i + 1};\n{uses}    total + u64::from(n)\n}}\n"
        )
        if name == "pricing":
            body += (
                "\npub fn net_cents(gross: i64, discount: i64) -> i64 {\n    gross - discount\n}\n\n"
                "pub fn quote(qty: u32, unit_cents: i64) -> i64 {\n"
                "    let gross = unit_cents * i64::from(qty);\n"
                "    let discount: u32 = qty / 10;\n"
                "    net_cents(gross, discount)\n}\n"
            )
        if kind == "bin":
            mains = "".join(f'    println!("{{}}", {x.replace("-", "_")}::weight(1));\n' for x in deps)
            write(d / f"crates/{name}/src/main.rs", f"fn main() {{\n{mains}}}\n")
        else:
            write(d / f"crates/{name}/src/lib.rs", f"//! {ident}\n\n{body}")


# ---------------------------------------------------------------- ruff --statistics target
def ruff_stats(root: Path) -> None:
    d = root / "fx/ruffstats"
    shutil.rmtree(d, ignore_errors=True)
    for pkg in ["email", "json", "http", "logging", "concurrent", "importlib/metadata"]:
        shutil.copytree(STDLIB / pkg, d / "src/stdcopy" / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    write(
        d / "pyproject.toml",
        '[project]\nname = "stdcopy"\nversion = "0.1.0"\n\n[tool.ruff]\ntarget-version = "py311"\n\n'
        '[tool.ruff.lint]\nselect = ["ALL"]\n',
    )


# ---------------------------------------------------------------- Go: a long log, then a panic
GO_MAIN = """\
package main

import (
	"fmt"
	"log"
	"os"
	"strings"
)

type order struct {
	id    int
	sku   string
	lines []int
}

func load(batch int) []order {
	out := make([]order, 0, 25)
	for i := 0; i < 25; i++ {
		n := batch*25 + i
		lines := make([]int, 1+n%5)
		for j := range lines {
			lines[j] = (n*7 + j) % 13
		}
		out = append(out, order{id: n, sku: fmt.Sprintf("SKU-%04d", n%200), lines: lines})
	}
	return out
}

// lastLine returns the quantity of an order's final line; the batch size of
// the audit pass assumes every order has at least five lines.
func lastLine(o order) int {
	return o.lines[4]
}

func process(batch int, audit bool) (int, int) {
	orders := load(batch)
	units := 0
	for _, o := range orders {
		for _, q := range o.lines {
			units += q
		}
		if audit {
			units += lastLine(o)
		}
	}
	return len(orders), units
}

func main() {
	log.SetFlags(log.Ldate | log.Ltime | log.Lmicroseconds)
	log.SetPrefix("orders-worker ")
	log.Printf("starting pid=%d queue=orders-main batch=25 audit_every=40", os.Getpid())
	processed := 0
	for batch := 0; batch < 400; batch++ {
		audit := batch > 0 && batch%361 == 0
		n, units := process(batch, audit)
		processed += n
		log.Printf("batch=%d orders=%d units=%d processed=%d status=ok", batch, n, units, processed)
		if batch%50 == 49 {
			log.Printf("checkpoint processed=%d lag_ms=%d", processed, 40+batch%17)
		}
		if batch%97 == 96 {
			log.Printf("WARN slow batch=%d took_ms=%d threshold_ms=250 sku=%s", batch, 260+batch%40, strings.ToUpper("sku-0042"))
		}
	}
	log.Printf("stopped processed=%d", processed)
}
"""


def go_worker(root: Path) -> None:
    d = root / "fx/goworker"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "go.mod", "module example.com/goworker\n\ngo 1.19\n")
    write(d / "main.go", GO_MAIN)


# ---------------------------------------------------------------- pip: many downloads, one bad pin
REQS = """\
requests==2.32.3
rich==13.9.4
httpx==0.28.1
jinja2==3.1.4
click==8.1.7
attrs==24.2.0
pyyaml==6.0.2
sqlalchemy==2.0.36
alembic==1.14.0
pydantic==2.10.3
python-dateutil==2.9.0.post0
tomli-w==1.1.0
flask==3.1.0
packaging==24.2
structlog==99.1.0
"""


def pip_reqs(root: Path) -> None:
    d = root / "fx/pipreqs"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "requirements.txt", REQS)


# ---------------------------------------------------------------- PostgreSQL: a server log with real failures
PG = "/usr/lib/postgresql/15/bin"
PGPORT = "54329"


def as_postgres(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["runuser", "-u", "postgres", "--", *cmd], **kw)  # type: ignore[call-overload, no-any-return]


def psql(sql: str, *, user: str = "app", db: str = "shop", password: str = "s3cret-app") -> None:
    env = {**os.environ, "PGPASSWORD": password, "PGCONNECT_TIMEOUT": "5"}
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", PGPORT, "-U", user, "-d", db, "-v", "ON_ERROR_STOP=0", "-q", "-c", sql],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


def pg_log(root: Path) -> None:
    d = root / "pg"
    if d.exists():
        as_postgres([f"{PG}/pg_ctl", "-D", str(d / "data"), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(d)
    d.mkdir(parents=True)
    shutil.chown(d, "postgres", "postgres")
    pwfile = d / "pw"
    pwfile.write_text("s3cret-admin\n")
    shutil.chown(pwfile, "postgres", "postgres")
    as_postgres(
        [f"{PG}/initdb", "-D", str(d / "data"), "-U", "postgres", f"--pwfile={pwfile}", "-A", "scram-sha-256"],
        check=True,
        capture_output=True,
    )
    with (d / "data/postgresql.conf").open("a") as f:
        f.write(
            "listen_addresses = '127.0.0.1'\n"
            f"port = {PGPORT}\n"
            f"unix_socket_directories = '{d}'\n"
            "log_connections = on\n"
            "log_disconnections = on\n"
            "log_min_duration_statement = 200\n"
            "log_checkpoints = on\n"
            "log_line_prefix = '%m [%p] %q%u@%d '\n"
        )
    log = d / "postgresql-15-main.log"
    as_postgres([f"{PG}/pg_ctl", "-D", str(d / "data"), "-l", str(log), "-w", "start"], check=True, capture_output=True)
    try:
        adm = {"user": "postgres", "db": "postgres", "password": "s3cret-admin"}
        psql("CREATE ROLE app LOGIN PASSWORD 's3cret-app'", **adm)
        psql("CREATE DATABASE shop OWNER app", **adm)
        psql(
            "CREATE TABLE orders (id int PRIMARY KEY, sku text NOT NULL, qty int NOT NULL, placed timestamptz DEFAULT now());"
            "INSERT INTO orders SELECT g, 'SKU-' || lpad((g % 200)::text, 4, '0'), 1 + g % 7 FROM generate_series(1, 5000) g;"
        )
        for i in range(160):
            psql(f"SELECT count(*), sum(qty) FROM orders WHERE sku = 'SKU-{i % 200:04d}'")
            if i == 20:
                psql("SELECT 1", password="wrong-password")
            if i == 35:
                psql("SELECT 1", db="shop_prod")
            if i == 50:
                psql("SELECT * FROM order_items WHERE order_id = 42")
            if i == 64:
                psql("INSERT INTO orders (id, sku, qty) VALUES (42, 'SKU-0042', 3)")
            if i == 80:
                psql("SELECT 1", user="admin", db="postgres", password="admin")
            if i == 95:
                psql("SELEC id, sku FROM orders LIMIT 5")
            if i == 110:
                psql("SET statement_timeout = '300ms'; SELECT pg_sleep(2)")
            if i == 120:
                psql("SELECT pg_sleep(0.3), count(*) FROM orders")
            if i == 130:
                holder = subprocess.Popen(
                    [
                        "psql",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        PGPORT,
                        "-U",
                        "app",
                        "-d",
                        "shop",
                        "-q",
                        "-c",
                        "SELECT pg_sleep(30)",
                    ],
                    env={**os.environ, "PGPASSWORD": "s3cret-app"},
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(1.0)
                psql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%'",
                    **adm,
                )
                holder.wait(timeout=20)
            if i == 145:
                psql("SELECT 1", password="wrong-password")
    finally:
        as_postgres(
            [f"{PG}/pg_ctl", "-D", str(d / "data"), "-m", "fast", "-w", "stop"], check=True, capture_output=True
        )


# ---------------------------------------------------------------- Flask: an app log flooded by health checks
FLASK_APP = """\
import logging
import sys

from flask import Flask, jsonify

logging.basicConfig(
    filename=sys.argv[2],
    level=logging.INFO,
    format="%(asctime)s %(levelname)s %(name)s: %(message)s",
)
log = logging.getLogger("shop.api")
app = Flask("shop")
ORDERS = {n: {"id": n, "sku": f"SKU-{n % 200:04d}", "qty": 1 + n % 7} for n in range(1, 120)}


@app.get("/healthz")
def healthz():
    return "ok"


@app.get("/api/orders/<int:order_id>")
def order(order_id):
    found = ORDERS[order_id]
    log.info("order %s served sku=%s", order_id, found["sku"])
    return jsonify(found)


@app.get("/api/stats/average-qty")
def average_qty():
    shipped = [o["qty"] for o in ORDERS.values() if o["qty"] > 99]
    return jsonify(avg=sum(shipped) / len(shipped))


if __name__ == "__main__":
    log.info("starting shop api on 127.0.0.1:%s", sys.argv[1])
    app.run(host="127.0.0.1", port=int(sys.argv[1]))
"""

# (path, how many health checks come before it)
REQUESTS = [
    ("/api/orders/7", 40),
    ("/api/orders/12", 90),
    ("/favicon.ico", 130),
    ("/api/orders/404", 180),
    ("/api/orders/33", 230),
    ("/api/v2/orders", 290),
    ("/api/stats/average-qty", 350),
    ("/api/orders/58", 420),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_log(root: Path, venv: Path) -> None:
    d = root / "web"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "app.py", FLASK_APP)
    port = free_port()
    server = subprocess.Popen(
        [str(venv / "bin/python"), "app.py", str(port), "app.log"],
        cwd=d,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        todo = list(REQUESTS)
        for n in range(1, 481):
            urllib.request.urlopen(base + "/healthz", timeout=5).read()
            while todo and todo[0][1] == n:
                try:
                    urllib.request.urlopen(base + todo.pop(0)[0], timeout=5).read()
                except urllib.error.HTTPError:
                    pass
            time.sleep(0.01)
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    root = Path(sys.argv[1])
    venv = root / "venv"
    webvenv = root / "webvenv"
    if not (webvenv / "bin/flask").exists():
        run([sys.executable, "-m", "venv", str(webvenv)])
        run([str(webvenv / "bin/pip"), "install", "-q", "flask==3.1.0"])
    libuv(root, venv)
    cargo_workspace(root)
    ruff_stats(root)
    go_worker(root)
    pip_reqs(root)
    pg_log(root)
    web_log(root, webvenv)


if __name__ == "__main__":
    main()

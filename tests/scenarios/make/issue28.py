"""Build the fixtures of issue 28's scenarios (diffs, bounded outputs, floods, exact reads).

Usage: python issue28.py ROOT        (ROOT is /tmp/scen; needs git, gcc, make, cargo, npm)

Creates under ROOT:
  git/rename2to3/  a copy of the stdlib's lib2to3 (tests left out) committed, then a real
                   `sed -i` rename of BaseFix to Fixer across it, left unstaged
  tjshow/          a clone of this repository pinned at 7ce057c (HEAD~2 is a big style commit)
  pv/, psmall/     pytest suites (pytest_suite.py): 4 failures + 110 passes, 2 failures + 8 passes
  fx/cwork/proj/   a 14-file C project whose parser.c and report.c do not compile
  fx/stockrs/      a Rust crate (no dependencies) with a dozen errors
  fx/jsapp/        a node project: src/ and __tests__/ with 7 failing jest tests, jest from npm
                   (node_modules and package-lock.json are real npm output)
  fx/pnpmapp/      express + jest installed with pnpm 10, for its pnpm-lock.yaml
  fx/pyapp/        a Python project: src/shopkit (real undefined names and other errors),
                   third_party/ holding copies of requests and urllib3, a .venv with both
                   installed, ruff/flake8 configuration
  fx/uvapp/        a pyproject with a few dependencies locked by `uv lock` (uv from PyPI)
  datavenv/        a venv holding vega_datasets (its CSV files) without its dependencies
Installed trees are kept when present (npm, pnpm and pip are slow); sources are rewritten.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from fixtures import CMAKEFILE, write, write_crate
from git_repos import ENV

HERE = Path(__file__).resolve().parent
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def run(cwd: Path, *args: str) -> None:
    subprocess.run(list(args), cwd=cwd, env=ENV, check=True)


# ---------------------------------------------------------------- git: a rename refactor
def rename_repo(root: Path) -> None:
    repo = root / "git/rename2to3"
    shutil.rmtree(repo, ignore_errors=True)
    shutil.copytree(
        STDLIB / "lib2to3", repo / "lib2to3", ignore=shutil.ignore_patterns("tests", "__pycache__", "*.pickle")
    )
    run(repo, "git", "init", "-q", "-b", "main")
    run(repo, "git", "add", "-A")
    run(repo, "git", "commit", "-q", "-m", "Import lib2to3 from CPython 3.11.7")
    # the refactor: one identifier renamed everywhere, as a developer would do it
    run(repo, "bash", "-c", r"grep -rlw BaseFix --include=*.py . | xargs sed -i 's/\bBaseFix\b/Fixer/g'")


def tj_show(root: Path) -> None:
    d = root / "tjshow"
    if not d.exists():
        run(root, "git", "clone", "-q", str(HERE.parents[2]), str(d))
    run(d, "git", "checkout", "-q", "7ce057c")


# ---------------------------------------------------------------- node: a jest suite with failures
JS_FILES = {
    "src/cart.js": """\
const { roundCents } = require('./money');

function lineTotal(item) {
  if (typeof item.qty !== 'number') {
    throw new TypeError(`qty must be a number, got ${typeof item.qty}`);
  }
  return roundCents(item.price * item.qty);
}

function cartTotal(items, discount = 0) {
  const sum = items.reduce((acc, item) => acc + lineTotal(item), 0);
  return roundCents(sum * (1 - discount));
}

function groupBySku(items) {
  const out = {};
  for (const item of items) {
    out[item.sku] = (out[item.sku] || 0) + item.qty;
  }
  return out;
}

module.exports = { lineTotal, cartTotal, groupBySku };
""",
    "src/money.js": """\
function roundCents(value) {
  return Math.round(value * 100) / 100;
}

function formatPrice(value, currency = 'EUR') {
  const symbols = { EUR: '€', USD: '$' };
  return `${symbols[currency]}${value.toFixed(2)}`;
}

function parsePrice(text) {
  const cleaned = text.replace(/[^0-9.]/g, '');
  return Number.parseFloat(cleaned);
}

module.exports = { roundCents, formatPrice, parsePrice };
""",
    "src/slug.js": """\
function slugify(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}

function titleCase(text) {
  return text.split(' ').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}

module.exports = { slugify, titleCase };
""",
    "src/config.js": """\
const DEFAULTS = { port: 3000, host: '127.0.0.1', retries: 3 };

function loadConfig(env = process.env) {
  return {
    port: Number(env.SHOP_PORT || process.env.PORT || DEFAULTS.port),
    host: env.SHOP_HOST || DEFAULTS.host,
    retries: Number.parseInt(env.SHOP_RETRIES, 10) || DEFAULTS.retries,
    debug: process.env.NODE_ENV !== 'production',
  };
}

async function fetchRates(client) {
  const res = await client.get('/rates');
  if (!res.ok) {
    throw new Error(`rates request failed with ${res.status}`);
  }
  return res.body;
}

module.exports = { loadConfig, fetchRates, DEFAULTS };
""",
    "__tests__/cart.test.js": """\
const { lineTotal, cartTotal, groupBySku } = require('../src/cart');

describe('lineTotal', () => {
  test('multiplies price by qty', () => {
    expect(lineTotal({ price: 2.5, qty: 4 })).toBe(10);
  });
  test('rounds to cents', () => {
    expect(lineTotal({ price: 0.1, qty: 3 })).toBe(0.3);
  });
  test('accepts qty given as text', () => {
    expect(lineTotal({ price: 4, qty: '2' })).toBe(8);
  });
});

describe('cartTotal', () => {
  test('sums lines', () => {
    expect(cartTotal([{ price: 1, qty: 2 }, { price: 3, qty: 1 }])).toBe(5);
  });
  test('applies a discount', () => {
    expect(cartTotal([{ price: 10, qty: 3 }], 0.15)).toBe(25.5);
  });
  test('discount of 10 percent on 19.99', () => {
    expect(cartTotal([{ price: 19.99, qty: 1 }], 0.1)).toBe(17.99);
  });
  test('empty cart is zero', () => {
    expect(cartTotal([])).toBe(0);
  });
});

describe('groupBySku', () => {
  test('adds quantities per sku', () => {
    const items = [
      { sku: 'A-1', qty: 2 },
      { sku: 'B-7', qty: 1 },
      { sku: 'A-1', qty: 3 },
    ];
    expect(groupBySku(items)).toEqual({ 'A-1': 5, 'B-7': 1, 'C-9': 0 });
  });
});
""",
    "__tests__/money.test.js": """\
const { roundCents, formatPrice, parsePrice } = require('../src/money');

test('roundCents keeps two decimals', () => {
  expect(roundCents(1.005)).toBe(1.01);
});

test('formatPrice in euros', () => {
  expect(formatPrice(4.5)).toBe('€4.50');
});

test('formatPrice in pounds', () => {
  expect(formatPrice(4.5, 'GBP')).toBe('£4.50');
});

test('parsePrice strips symbols', () => {
  expect(parsePrice('$12.30')).toBe(12.3);
});

test('parsePrice of a comma decimal', () => {
  expect(parsePrice('12,30 €')).toBeCloseTo(12.3);
});
""",
    "__tests__/slug.test.js": """\
const { slugify, titleCase } = require('../src/slug');

test.each([
  ['Hello World', 'hello-world'],
  ['  Spaces  around ', 'spaces-around'],
  ['Ready, set, go!', 'ready-set-go'],
  ['already-a-slug', 'already-a-slug'],
])('slugify(%j) is %j', (input, expected) => {
  expect(slugify(input)).toBe(expected);
});

test('titleCase capitalises each word', () => {
  expect(titleCase('big red box')).toBe('Big Red Box');
});

test('titleCase of an empty string', () => {
  expect(titleCase('')).toBe('');
});
""",
    "__tests__/config.test.js": """\
const { loadConfig, fetchRates, DEFAULTS } = require('../src/config');

test('defaults when env is empty', () => {
  expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', retries: 3 });
});

test('reads SHOP_PORT', () => {
  expect(loadConfig({ SHOP_PORT: '8080' }).port).toBe(8080);
});

test('defaults are frozen', () => {
  expect(Object.isFrozen(DEFAULTS)).toBe(true);
});

test('fetchRates returns the body', async () => {
  const client = { get: async () => ({ ok: true, body: { EUR: 1 } }) };
  await expect(fetchRates(client)).resolves.toEqual({ EUR: 1 });
});

test('fetchRates reports the status', async () => {
  const client = { get: async () => ({ ok: false, status: 503 }) };
  await expect(fetchRates(client)).rejects.toThrow('rates request failed with 502');
});
""",
}


def js_app(root: Path) -> None:
    d = root / "jsapp"
    for rel, body in JS_FILES.items():
        write(d / rel, body)
    if not (d / "node_modules/.bin/jest").exists():
        write(
            d / "package.json",
            json.dumps({"name": "jsapp", "version": "1.0.0", "private": True, "scripts": {"test": "jest"}}, indent=2)
            + "\n",
        )
        run(d, "npm", "install", "--no-audit", "--no-fund", "--save-dev", "jest@30.5.2")


def pnpm_app(root: Path) -> None:
    d = root / "pnpmapp"
    if (d / "pnpm-lock.yaml").exists():
        return
    shutil.rmtree(d, ignore_errors=True)
    write(
        d / "package.json",
        json.dumps({"name": "pnpmapp", "version": "1.0.0", "private": True}, indent=2) + "\n",
    )
    run(d, "npx", "-y", "pnpm@10.34.9", "add", "express@5.1.0", "zod@3.25.76")
    run(d, "npx", "-y", "pnpm@10.34.9", "add", "-D", "jest@30.5.2")


# ---------------------------------------------------------------- C: a build that fails in two files
# the small C project's Makefile (fixtures.py), for this project's header and binary
C_MAKEFILE = CMAKEFILE.replace("src/app.h", "src/stock.h").replace("build/app", "build/stockd")

C_HEADER = """\
#ifndef STOCK_H
#define STOCK_H
#include <stddef.h>
typedef struct { char sku[16]; int qty; double price; } item_t;
typedef struct { item_t *items; size_t len; size_t cap; } stock_t;
int stock_add(stock_t *s, const char *sku, int qty, double price);
item_t *stock_find(stock_t *s, const char *sku);
double stock_value(const stock_t *s);
int parse_line(const char *line, item_t *out);
void report(const stock_t *s, FILE *out);
#endif
"""

C_OK = """\
#include <stdio.h>
#include <string.h>
#include "stock.h"

double {name}_weight(const item_t *it) {{
    return it->qty * it->price * {factor};
}}

int {name}_count(const stock_t *s) {{
    int n = 0;
    for (size_t i = 0; i < s->len; i++) {{
        if (strncmp(s->items[i].sku, "{prefix}", 2) == 0) n++;
    }}
    return n;
}}
"""

C_PARSER = """\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stock.h"

int parse_line(const char *line, item_t *out) {
    char *end;
    const char *comma = strchr(line, ',');
    if (!comma) return -1;
    size_t n = comma - line;
    if (n >= sizeof out->sku) return -2;
    memcpy(out->sku, line, n);
    out->sku[n] = '\\0';
    out->qty = strtol(comma + 1, &end, 10);
    if (*end != ',') return -3
    out->price = strtod(end + 1, &end);
    unsigned width = strlen(line);
    if (width > 80) return -4;
    return parse_status;
}

int parse_file(const char *path, stock_t *s) {
    FILE *f = fopen(path, "r");
    char buf[256];
    item_t it;
    while (fgets(buf, sizeof buf, f)) {
        if (parse_line(buf, &it) == 0)
            stock_add(s, it.sku, it.qty, it.price, 0);
    }
    fclose(f);
    return s->length;
}
"""

C_REPORT = """\
#include <stdio.h>
#include "stock.h"

void report(const stock_t *s, FILE *out) {
    double total = 0;
    for (int i = 0; i < s->len; i++) {
        const item_t *it = &s->items[i];
        fprintf(out, "%-16s %6d %8.2f\\n", it->sku, it->price, it->qty);
        total += it->qty * it->price;
    }
    fprintf(out, "total %.2f\\n", totl);
}
"""

C_STOCK = """\
#include <stdlib.h>
#include <string.h>
#include "stock.h"

int stock_add(stock_t *s, const char *sku, int qty, double price) {
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        item_t *items = realloc(s->items, cap * sizeof *items);
        if (!items) return -1;
        s->items = items;
        s->cap = cap;
    }
    item_t *it = &s->items[s->len++];
    strncpy(it->sku, sku, sizeof it->sku - 1);
    it->sku[sizeof it->sku - 1] = '\\0';
    it->qty = qty;
    it->price = price;
    return 0;
}

item_t *stock_find(stock_t *s, const char *sku) {
    for (size_t i = 0; i < s->len; i++)
        if (strcmp(s->items[i].sku, sku) == 0) return &s->items[i];
    return NULL;
}

double stock_value(const stock_t *s) {
    double v = 0;
    for (size_t i = 0; i < s->len; i++) v += s->items[i].qty * s->items[i].price;
    return v;
}
"""


def c_broken(root: Path) -> None:
    d = root / "cwork/proj"
    shutil.rmtree(d, ignore_errors=True)
    files = {
        "Makefile": C_MAKEFILE,
        "stock.h": C_HEADER,
        "stock.c": C_STOCK,
        "parser.c": C_PARSER,
        "report.c": C_REPORT,
    }
    for rel, body in files.items():
        write(d / (rel if rel == "Makefile" else f"src/{rel}"), body)
    names = "accounts alerts audit backup batch bins cache carts coupons deliveries export invoices labels ledger"
    for i, name in enumerate((names + " metrics notify oauth orders pricing restock").split()):
        write(d / f"src/{name}.c", C_OK.format(name=name, factor=i + 1, prefix=name[:2].upper()))


# ---------------------------------------------------------------- Rust: a crate with a dozen errors
RS_MAIN = """\
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone)]
struct Item {
    sku: String,
    qty: u32,
    price_cents: i64,
}

struct Stock {
    items: HashMap<String, Item>,
    owner: String,
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} x{} @ {}", self.sku, self.qty, self.price_cents)
    }
}

impl Stock {
    fn new(owner: &str) -> Self {
        Stock { items: HashMap::new(), owner }
    }

    fn add(&mut self, item: Item) {
        self.items.insert(item.sku, item);
    }

    fn value(&self) -> i64 {
        self.items.values().map(|i| i.qty * i.price_cents).sum()
    }

    fn take(&self, sku: &str, qty: u32) -> Result<u32, String> {
        let item = self.items.get_mut(sku).ok_or("unknown sku")?;
        item.qty -= qty;
        Ok(item.qty)
    }

    fn report(&self) -> String {
        let mut lines = Vec::new();
        for item in self.items.values() {
            lines.push(format!("{}", item));
        }
        lines.join("\\n");
    }
}

fn parse_item(line: &str) -> Option<Item> {
    let parts: Vec<&str> = line.split(',').collect();
    let qty: u32 = parts[1].parse()?;
    Some(Item { sku: parts[0].to_string(), qty, price: parts[2].parse().ok()? })
}

fn main() {
    let stock = Stock::new("warehouse-7");
    for line in ["A-1,4,250", "B-7,1,1999"] {
        if let Some(item) = parse_item(line) {
            stock.add(item);
        }
    }
    let left = stock.take("A-1", 2);
    println!("{} left, value {}", left, stock.value());
    println!("{}", stock.report());
    print_totals(&stock);
}
"""


def rust_crate(root: Path) -> None:
    write_crate(root / "stockrs", "stockrs", "0.3.0", RS_MAIN)


# ---------------------------------------------------------------- Python: own src/ beside vendored copies
PY_FILES = {
    "src/shopkit/__init__.py": '"""Shop toolkit: orders, stock and a client for the rates service."""\n\n__version__ = "0.4.0"\n',
    "src/shopkit/client.py": '''\
"""HTTP client for the rates service."""

import json
import logging

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = float(os.environ.get("SHOPKIT_TIMEOUT", "5"))


class RatesClient:
    def __init__(self, base_url, timeout=DEFAULT_TIMEOUT, retries=3):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = requests.Session()
        retry = Retry(total=retries, backoff_factor=0.5, status_forcelist=[502, 503, 504])
        self.session.mount("https://", HTTPAdapter(max_retries=retry))

    def rates(self, currency="EUR"):
        url = f"{self.base_url}/rates/{currency}"
        resp = self.session.get(url, timeout=self.timeout)
        if resp.status_code != 200:
            log.warning("rates request failed: %s", resp.status_code)
            raise RatesError(resp.status_code)
        return resp.json()

    def convert(self, amount, currency, timeout=None):
        table = self.rates(currency)
        rate = table.get(currency)
        if rate == None:
            raise KeyError(currency)
        return round(amount * rate, 2)

    def health(self):
        try:
            resp = self.session.get(self.base_url + "/health", timeout=connect_timeout)
        except requests.RequestException as exc:
            log.error("health check failed: %s", exc)
            return False
        return resp.ok
''',
    "src/shopkit/orders.py": '''\
"""Orders and their totals."""

from dataclasses import dataclass, field
from decimal import Decimal
from typing import List, Optional
import datetime


@dataclass
class Line:
    sku: str
    qty: int
    price: Decimal


@dataclass
class Order:
    id: str
    lines: List[Line] = field(default_factory=list)
    placed: Optional[datetime.datetime] = None
    note: str = ""

    def total(self):
        return sum(l.price * l.qty for l in self.lines)

    def add(self, sku, qty, price):
        if qty <= 0:
            raise ValueError("qty must be positive")
        self.lines.append(Line(sku, qty, Decimal(price)))

    def is_late(self, now=datetime.datetime.now()):
        return self.placed is not None and (now - self.placed).days > MAX_DAYS


def merge(a: Order, b: Order) -> Order:
    merged = Order(a.id, a.lines + b.lines, min(a.placed, b.placed))
    for line in merged.lines:
        total = line.qty * line.price
    return merged


def parse_order(data: dict) -> Order:
    order = Order(data["id"])
    for row in data.get("lines", []):
        order.add(row["sku"], row["qty"], row["price"])
    if data.get("placed"):
        order.placed = datetime.datetime.fromisoformat(data["placed"])
    return ordr
''',
    "src/shopkit/stock.py": '''\
"""Stock levels per warehouse."""

import os, sys
from collections import defaultdict

from shopkit.orders import Order


class Stock:
    def __init__(self):
        self.levels = defaultdict(int)

    def receive(self, sku, qty):
        self.levels[sku] += qty

    def reserve(self, order: Order):
        for line in order.lines:
            if self.levels[line.sku] < line.qty:
                raise OutOfStock(line.sku)
            self.levels[line.sku] -= line.qty

    def report(self):
        lines = []
        for sku, qty in sorted(self.levels.items()):
            lines.append("%s: %d" % (sku, qty))
        return "\\n".join(lines)

    def low(self, threshold=5):
        return [sku for sku, qty in self.levels.items() if qty < threshold]
''',
    "src/shopkit/cli.py": '''\
"""Command line entry point."""

import argparse
import json

from shopkit.client import RatesClient
from shopkit.orders import parse_order
from shopkit.stock import Stock


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shopkit")
    parser.add_argument("orders")
    parser.add_argument("--rates-url", default="https://rates.example.test")
    args = parser.parse_args(argv)
    stock = Stock()
    with open(args.orders) as f:
        for data in json.load(f):
            order = parse_order(data)
            try:
                stock.reserve(order)
            except Exception:
                pass
    client = RatesClient(args.rates_url)
    print(stock.report())
    print(f"rates: {client.rates()}")
    return 0
''',
    "tests/test_orders.py": """\
from decimal import Decimal

from shopkit.orders import Order


def test_total():
    o = Order("A1")
    o.add("sku-1", 2, "1.50")
    assert o.total() == Decimal("3.00")
""",
}

PY_PYPROJECT = """\
[project]
name = "shopkit"
version = "0.4.0"
requires-python = ">=3.11"
dependencies = ["requests>=2.31", "urllib3>=2"]

[tool.ruff]
line-length = 100
src = ["src"]

[tool.ruff.lint]
select = ["E", "F", "W", "B", "UP", "I", "SIM"]
"""

PY_FLAKE8 = "[flake8]\nmax-line-length = 100\nexclude = .git,__pycache__,.venv,build,dist\n"


def py_app(root: Path) -> None:
    d = root / "pyapp"
    for rel, body in PY_FILES.items():
        write(d / rel, body)
    write(d / "pyproject.toml", PY_PYPROJECT)
    write(d / ".flake8", PY_FLAKE8)
    write(d / ".gitignore", ".venv/\n__pycache__/\n")
    venv = d / ".venv"
    if not (venv / "bin/python").exists():
        run(d, sys.executable, "-m", "venv", str(venv))
        run(d, str(venv / "bin/pip"), "install", "-q", "requests==2.32.3", "urllib3==2.2.3")
    # third_party/: the vendored copies the project ships (the same releases, copied as files)
    site = venv / "lib/python3.11/site-packages"
    for pkg in ["requests", "urllib3"]:
        shutil.rmtree(d / "third_party" / pkg, ignore_errors=True)
        shutil.copytree(site / pkg, d / "third_party" / pkg, ignore=shutil.ignore_patterns("__pycache__"))


# ---------------------------------------------------------------- data and lock files
def data_venv(root: Path) -> None:
    """vega_datasets ships real CSV and JSON data files; its pandas dependency is not needed to read them."""
    v = root / "datavenv"
    if not (v / "lib/python3.11/site-packages/vega_datasets").exists():
        run(root, sys.executable, "-m", "venv", str(v))
        run(root, str(v / "bin/pip"), "install", "-q", "--no-deps", "vega_datasets==0.9.0")


UV_PYPROJECT = """\
[project]
name = "uvapp"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["fastapi>=0.110", "httpx>=0.27", "sqlalchemy>=2.0", "pydantic-settings>=2.2"]

[dependency-groups]
dev = ["pytest>=8", "ruff>=0.5"]
"""


def uv_app(root: Path) -> None:
    d = root / "fx/uvapp"
    write(d / "pyproject.toml", UV_PYPROJECT)
    if not (d / "uv.lock").exists():
        run(d, str(root / "venv/bin/uv"), "lock")


def suites(root: Path) -> None:
    for dest, fails, passes in [("pv", 4, 110), ("psmall", 2, 8)]:
        shutil.rmtree(root / dest, ignore_errors=True)
        run(root, sys.executable, str(HERE / "pytest_suite.py"), str(root / dest), str(fails), str(passes))


def main() -> None:
    root = Path(sys.argv[1])
    fx = root / "fx"
    fx.mkdir(parents=True, exist_ok=True)
    rename_repo(root)
    tj_show(root)
    suites(root)
    c_broken(fx)
    rust_crate(fx)
    js_app(fx)
    pnpm_app(fx)
    py_app(fx)
    data_venv(root)
    uv_app(root)


if __name__ == "__main__":
    main()

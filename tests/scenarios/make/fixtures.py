"""Build the non-git fixtures: C projects, a Rust crate, node projects, lint targets, a tree.

Usage: python fixtures.py ROOT
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# ---------------------------------------------------------------- C: small project, one error
CMAKEFILE = """\
CC ?= gcc
CFLAGS ?= -Wall -Wextra -O2 -std=c11
SRC := $(wildcard src/*.c)
OBJ := $(SRC:src/%.c=build/%.o)

all: build/app

build/%.o: src/%.c src/app.h
\t@mkdir -p build
\t$(CC) $(CFLAGS) -c $< -o $@

build/app: $(OBJ)
\t$(CC) $(OBJ) -o $@ -lm

clean:
\trm -rf build
"""

APP_H = """\
#ifndef APP_H
#define APP_H
#include <stddef.h>
typedef struct { const char *name; double price; int qty; } item_t;
double cart_total(const item_t *items, size_t n);
int parse_qty(const char *text, int *out);
void report(const item_t *items, size_t n);
#endif
"""

MAIN_C = """\
#include <stdio.h>
#include "app.h"

int main(int argc, char **argv) {
    item_t items[] = {{"apple", 0.5, 4}, {"pear", 0.75, 2}};
    int qty = 0;
    if (argc > 1 && parse_qty(argv[1], &qty) == 0) items[0].qty = qty;
    report(items, 2);
    printf("total %.2f\\n", cart_total(items, 2));
    return 0;
}
"""

CART_C = """\
#include <math.h>
#include "app.h"

double cart_total(const item_t *items, size_t n) {
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        sum += items[i].price * items[i].qty;
    }
    return round(sum * 100.0) / 100.0;
}
"""

PARSE_C = """\
#include <stdlib.h>
#include "app.h"

int parse_qty(const char *text, int *out) {
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (*end != '\\0' || v < 0) return -1;
    *out = (int)v;
    return 0;
}
"""

REPORT_C_BAD = """\
#include <stdio.h>
#include "app.h"

void report(const item_t *items, size_t n) {
    for (size_t i = 0; i < n; i++) {
        printf("%-10s %3d x %6.2f\\n", items[i].name, items[i].qty, items[i].price);
        subtotal += items[i].qty * items[i].price;
    }
    printf("lines: %zu\\n", n);
}
"""


def c_small(root: Path) -> None:
    d = root / "cproj"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "Makefile", CMAKEFILE)
    write(d / "src/app.h", APP_H)
    write(d / "src/main.c", MAIN_C)
    write(d / "src/cart.c", CART_C)
    write(d / "src/parse.c", PARSE_C)
    write(d / "src/report.c", REPORT_C_BAD)


# ---------------------------------------------------------------- C: several errors and warnings
CALC_LEXER = """\
#include <ctype.h>
#include <string.h>
#include "calc.h"

static int is_op(char c) { return strchr("+-*/()", c) != NULL; }

int lex(const char *src, token_t *out, int max) {
    int n = 0, unused_counter;
    for (const char *p = src; *p; p++) {
        if (isspace(*p)) continue;
        if (n >= max) return -1;
        if (isdigit(*p)) {
            out[n].kind = TOK_NUM;
            out[n].value = strtod(p, (char **)&p);
            p--;
        } else if (is_op(*p)) {
            out[n].kind = TOK_OP;
            out[n].op = *p;
        } else {
            return -2;
        }
        n++;
    }
    return n;
}
"""

CALC_H = """\
#ifndef CALC_H
#define CALC_H
typedef enum { TOK_NUM, TOK_OP } kind_t;
typedef struct { kind_t kind; double value; char op; } token_t;
int lex(const char *src, token_t *out, int max);
double eval(const token_t *toks, int n);
#endif
"""

CALC_EVAL = """\
#include <stdio.h>
#include "calc.h"

static double apply(char op, double a, double b) {
    switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    }
}

double eval(const token_t *toks, int n) {
    token_t first = toks;
    double acc = first.value;
    for (int i = 1; i + 1 < n; i += 2) {
        acc = apply(toks[i].op, acc, toks[i + 1].value);
    }
    if (n % 2 == 0)
        fprintf(stderr, "dangling operator %c\\n", toks[n - 1].op)
    return acc;
}
"""

CALC_MAIN = """\
#include <stdio.h>
#include "calc.h"

int main(int argc, char **argv) {
    token_t toks[64];
    if (argc < 2) { fprintf(stderr, "usage: calc EXPR\\n"); return 2; }
    int n = lex(argv[1], toks);
    if (n < 0) { printf("lex error %s\\n", n); return 1; }
    double r = eval(toks, n);
    printf("%g\\n", r);
    return result_code(r);
}
"""


def c_errors(root: Path) -> None:
    d = root / "calc"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "calc.h", CALC_H)
    write(d / "lexer.c", CALC_LEXER)
    write(d / "eval.c", CALC_EVAL)
    write(d / "main.c", CALC_MAIN)


# ---------------------------------------------------------------- C: many compile lines
def c_many(root: Path) -> None:
    d = root / "cmany"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "Makefile", CMAKEFILE.replace("build/app", "build/libdemo-app"))
    header = ["#ifndef APP_H", "#define APP_H", "#include <stddef.h>"]
    for k in range(64):
        header.append(f"int mod{k:02d}_step(int x);")
    header.append("#endif")
    write(d / "src/app.h", "\n".join(header) + "\n")
    modules = ["codec", "buffer", "parser", "lexer", "sched", "timer", "netio", "crypto"]
    for k in range(64):
        body = f"int mod{k:02d}_step(int x) {{\n    int acc = x;\n"
        body += "".join(f"    acc = acc * {j + 3} + {k};\n" for j in range(8))
        if k == 41:
            body += "    int spare;\n"  # one real warning: unused variable
        body += "    return acc;\n}\n"
        write(d / f"src/{modules[k % 8]}_{k:02d}.c", '#include "app.h"\n\n' + body)
    calls = "".join(f"    v = mod{k:02d}_step(v);\n" for k in range(64))
    write(
        d / "src/main.c",
        f'#include <stdio.h>\n#include "app.h"\n\nint main(void) {{\n    int v = 1;\n{calls}    printf("%d\\n", v);\n    return 0;\n}}\n',
    )


# ---------------------------------------------------------------- Rust crate with errors
RUST_MAIN = """\
use std::collections::HashMap;

#[derive(Debug)]
struct Account {
    id: u32,
    owner: String,
    balance: i64,
}

fn load() -> Vec<Account> {
    vec![
        Account { id: 1, owner: "ada".to_string(), balance: 120 },
        Account { id: 2, owner: "bob".to_string(), balance: -5 },
    ]
}

fn index(accounts: &[Account]) -> HashMap<u32, &Account> {
    accounts.iter().map(|a| (a.id, a)).collect()
}

fn total(accounts: &[Account]) -> i64 {
    accounts.iter().map(|a| a.balance).sum::<i64>() as u32
}

fn rename(acc: &Account, name: &str) {
    acc.owner = name.to_string();
}

fn main() {
    let accounts = load();
    let idx = index(&accounts);
    let moved = accounts;
    println!("{} accounts", accounts.len());
    let overdrawn: Vec<&Account> = moved.iter().filter(|a| a.balance < 0).collect();
    let unused_limit = 500;
    println!("{:?} {}", overdrawn, total(&moved));
    println!("{}", idx.len());
    rename(&moved[0], "eve");
    print_summary(&moved);
}
"""


def write_crate(d: Path, name: str, version: str, main_rs: str) -> None:
    """A fresh binary crate without dependencies."""
    shutil.rmtree(d, ignore_errors=True)
    write(d / "Cargo.toml", f'[package]\nname = "{name}"\nversion = "{version}"\nedition = "2021"\n\n[dependencies]\n')
    write(d / "src/main.rs", main_rs)


def rust_crate(root: Path) -> None:
    write_crate(root / "ledger", "ledger", "0.1.0", RUST_MAIN)


# ---------------------------------------------------------------- node: node --test, npm test
NODE_LIB = """\
'use strict';
function slugify(s) {
  return s.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-');
}
function parsePrice(text) {
  const v = Number(text.replace('$', ''));
  if (Number.isNaN(v)) throw new TypeError(`bad price: ${text}`);
  return v;
}
function chunk(arr, n) {
  const out = [];
  for (let i = 0; i < arr.length; i += n) out.push(arr.slice(i, i + n));
  return out;
}
function readConfig(path) {
  return JSON.parse(require('node:fs').readFileSync(path, 'utf8'));
}
module.exports = { slugify, parsePrice, chunk, readConfig };
"""

NODE_TEST_A = """\
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify, chunk } = require('../lib.js');

test('slugify lowercases', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('slugify strips trailing punctuation', () => {
  assert.equal(slugify('Ready, set, go!'), 'ready-set-go');
});

test('chunk splits evenly', () => {
  assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]);
});

test('chunk keeps the remainder', () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5, 6]]);
});

test.describe('slug edge cases', () => {
  test('empty string', () => { assert.equal(slugify(''), ''); });
  test('unicode is dropped', () => { assert.equal(slugify('Café Noir'), 'cafe-noir'); });
});
"""

NODE_TEST_B = """\
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { parsePrice, readConfig } = require('../lib.js');

test('parsePrice reads dollars', () => {
  assert.equal(parsePrice('$4.50'), 4.5);
});

test('parsePrice rejects words', () => {
  assert.equal(parsePrice('four'), 4);
});

test('readConfig loads settings.json', () => {
  const cfg = readConfig(__dirname + '/fixtures/settings.json');
  assert.equal(cfg.mode, 'fast');
});

test('prices total', { skip: 'pending currency rounding' }, () => {});

test('async fetch of rates', async () => {
  const rates = await Promise.resolve({ usd: 1, eur: 0.92 });
  assert.ok(rates.gbp > 0, 'gbp rate missing');
});
"""


def node_projects(root: Path) -> None:
    d = root / "nodetap"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "lib.js", NODE_LIB)
    write(d / "test/strings.test.js", NODE_TEST_A)
    write(d / "test/prices.test.js", NODE_TEST_B)
    write(d / "package.json", json.dumps({"name": "nodetap", "version": "1.0.0", "private": True}, indent=2) + "\n")
    e = root / "npmtwo"
    shutil.rmtree(e, ignore_errors=True)
    write(e / "lib.js", NODE_LIB.replace("'use strict';", "'use strict';\nconst ms = require('ms');"))
    write(e / "test/strings.test.js", NODE_TEST_A)
    write(e / "test/prices.test.js", NODE_TEST_B)
    write(
        e / "package.json",
        json.dumps(
            {
                "name": "npmtwo",
                "version": "1.0.0",
                "private": True,
                "scripts": {"test": "node --test test/"},
                "dependencies": {"ms": "^2.1.3", "semver": "^7.6.0"},
            },
            indent=2,
        )
        + "\n",
    )


# ---------------------------------------------------------------- lint targets
MESSY = """\
import os, sys
import json
from typing import *
import re


def load(path, cache={}):
    if path in cache == True:
        return cache[path]
    f = open(path)
    data = json.loads(f.read())
    cache[path] = data
    return data

class Report(object):
    def __init__(self, rows):
        self.rows = rows
    def summary(self):
        l = len(self.rows)
        try:
            avg = sum(r["v"] for r in self.rows) / l
        except:
            avg = 0
        return "rows: %d avg: %s" % (l, avg)
    def names(self):
        return list([r["name"] for r in self.rows])

def check(x):
    if type(x) == str:
        return True
    elif x == None:
        return False
    else:
        unused = 42
        return not x in [1, 2, 3]

def main():
    r = Report([{"v": 1, "name": "a"}])
    print(r.summary()); print(r.names())
    lambda_fn = lambda v: v * 2
    for i in range(len(sys.argv)):
        print(sys.argv[i])
    return undefined_name
"""

TYPED = """\
from dataclasses import dataclass


@dataclass
class Order:
    id: int
    sku: str
    qty: int
    price: float


def parse(row):
    return Order(int(row[0]), row[1], row[2], float(row[3]))


def total(orders: list[Order]) -> int:
    return sum(o.qty * o.price for o in orders)


def by_sku(orders: list[Order]) -> dict[str, Order]:
    out = {}
    for o in orders:
        out[o.sku] = o
    return out


def find(orders: list[Order], sku: str) -> Order:
    return by_sku(orders).get(sku)


def label(o: Order) -> str:
    return o.sku + o.qty


def load(lines: list[str]) -> list[Order]:
    return [parse(l.split(",")) for l in lines]


class Store:
    def __init__(self, name):
        self.name = name
        self.orders: list[Order] = []

    def add(self, o: Order) -> None:
        self.orders.append(o)
        return len(self.orders)

    def best(self) -> Order:
        return max(self.orders, key=lambda o: o.qty, default=None)


def main() -> None:
    s = Store("north")
    s.add(parse(["1", "A-1", "3", "2.5"]))
    print(total(s.orders).bit_length(), find(s.orders, 7))
"""

ESLINT_SRC = """\
const fs = require('fs');
const path = require('path');

function loadUsers(file) {
  var data = fs.readFileSync(file, 'utf8');
  let users = JSON.parse(data);
  for (var i = 0; i < users.length; i++) {
    if (users[i].active == true) {
      console.log(users[i].name)
    }
  }
  return users;
  console.log('done');
}

function findUser(users, id) {
  users.forEach(function (u) {
    if (u.id === id) { result = u; }
  });
  return result;
}

function merge(a, a) {
  return Object.assign({}, a);
}

const unusedConfig = { debug: true };
let count = 0;
count = count;
if (typeof count === 'numbr') { count++; }

module.exports = { loadUsers, findUser, merge };
"""


def lint_targets(root: Path) -> None:
    d = root / "lint"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "pyproject.toml", '[tool.ruff.lint]\nselect = ["E", "F", "W", "B", "UP", "SIM", "E7", "I", "C4"]\n')
    write(d / "reports/messy.py", MESSY)
    write(d / "shop/orders.py", TYPED)
    write(d / "shop/__init__.py", "")
    e = root / "eslintproj"
    # keep node_modules if present (npm install is slow); refresh the sources
    write(e / "src/users.js", ESLINT_SRC)
    write(
        e / "eslint.config.js",
        "const js = require('@eslint/js');\n\nmodule.exports = [\n  js.configs.recommended,\n  { languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', console: 'readonly' } } },\n];\n",
    )
    if not (e / "package.json").exists():
        write(
            e / "package.json", json.dumps({"name": "eslintproj", "version": "1.0.0", "private": True}, indent=2) + "\n"
        )


# ---------------------------------------------------------------- perl tests for prove
PERL_OK = """\
use strict;
use warnings;
use Test::More tests => 4;

is(lc('ABC'), 'abc', 'lc lowercases');
is(join(',', sort qw(b a c)), 'a,b,c', 'sort orders words');
ok(length('four') == 4, 'length counts chars');
like('order-42', qr/^order-\\d+$/, 'order id shape');
"""

PERL_BAD = """\
use strict;
use warnings;
use Test::More tests => 5;

sub parse_price { my ($t) = @_; $t =~ s/^\\$//; return $t + 0 }
sub slug { my ($s) = @_; $s = lc $s; $s =~ s/[^a-z0-9]+/-/g; return $s }

is(parse_price('$4.50'), 4.5, 'parse dollars');
is(parse_price('4,50'), 4.5, 'parse comma decimal');
is(slug('Ready, set, go!'), 'ready-set-go', 'slug strips trailing punctuation');
is_deeply([split /,/, 'a,b,,c'], ['a', 'b', 'c'], 'split drops empty fields');
cmp_ok(scalar(() = 'aXbXc' =~ /X/g), '==', 2, 'two separators');
"""


def perl_tests(root: Path) -> None:
    d = root / "perlt"
    shutil.rmtree(d, ignore_errors=True)
    write(d / "t/basic.t", PERL_OK)
    write(d / "t/parse.t", PERL_BAD)


# ---------------------------------------------------------------- a tree with symlinks
def symlink_tree(root: Path) -> None:
    d = root / "deploy"
    shutil.rmtree(d, ignore_errors=True)
    for rel in [
        "releases/2026-11-20/app/server.py",
        "releases/2026-11-20/app/worker.py",
        "releases/2026-11-20/static/app.css",
        "releases/2026-11-27/app/server.py",
        "releases/2026-11-27/app/worker.py",
        "releases/2026-11-27/app/health.py",
        "releases/2026-11-27/static/app.css",
        "releases/2026-11-27/static/app.js",
        "shared/config/settings.toml",
        "shared/logs/app.log",
        "bin/deploy.sh",
        "bin/rollback.sh",
    ]:
        write(d / rel, "x\n")
    os.symlink("releases/2026-11-27", d / "current")
    os.symlink("releases/2026-11-20", d / "previous")
    os.symlink("../../../shared/config/settings.toml", d / "releases/2026-11-27/app/settings.toml")
    os.symlink("../../../shared/logs", d / "releases/2026-11-27/app/logs")
    os.symlink("/etc/ssl/certs", d / "shared/certs")
    os.symlink("missing/target.pem", d / "shared/tls.pem")
    os.symlink("deploy.sh", d / "bin/deploy-latest")


def main() -> None:
    root = Path(sys.argv[1])
    root.mkdir(parents=True, exist_ok=True)
    c_small(root)
    c_errors(root)
    c_many(root)
    rust_crate(root)
    node_projects(root)
    lint_targets(root)
    symlink_tree(root)
    perl_tests(root)
    (root / "npmfresh").mkdir(exist_ok=True)


if __name__ == "__main__":
    main()

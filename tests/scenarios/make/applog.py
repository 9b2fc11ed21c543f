"""A small service loop that logs like a real app; used for the big-log scenarios.

Usage: python applog.py LOGFILE [ITERATIONS]

It processes synthetic orders through real code paths (json parsing, Decimal
arithmetic, a dict-backed inventory).  One order carries a malformed price, so
Decimal raises once in the middle of the run, and an order for an unknown SKU
raises KeyError near the end (inside the last 300 lines); the loop logs each
with logging.exception (a real Traceback) and goes on.  A few warnings and one
ERROR without traceback (a retry budget running out) appear too.  Timestamps
come from a fixed start clock so the log is reproducible.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from decimal import Decimal

START = 1795600000.0  # fixed clock: 2026-11-26 UTC
TICK = [0.0]


def fake_time() -> float:
    TICK[0] += 0.137
    return START + TICK[0]


class Inventory:
    def __init__(self) -> None:
        self.stock = {f"SKU-{n:04d}": 4 + n % 23 for n in range(200)}

    def reserve(self, sku: str, qty: int) -> int:
        left = self.stock[sku] - qty
        if left < 0:
            raise RuntimeError(f"insufficient stock for {sku}: have {self.stock[sku]}, want {qty}")
        self.stock[sku] = left
        return left


def parse_order(raw: str) -> dict[str, object]:
    order = json.loads(raw)
    order["price"] = Decimal(order["price"])
    return order


def handle(inv: Inventory, raw: str, log: logging.Logger) -> None:
    order = parse_order(raw)
    left = inv.reserve(str(order["sku"]), int(order["qty"]))  # type: ignore[call-overload]
    total = order["price"] * int(order["qty"])  # type: ignore[operator]
    log.info(
        "order %s reserved sku=%s qty=%s total=%s stock_left=%d", order["id"], order["sku"], order["qty"], total, left
    )


def main() -> None:
    path = sys.argv[1]
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    logging.Formatter.converter = time.gmtime
    handler = logging.FileHandler(path, mode="w")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.Logger.makeRecord.__globals__["time"].time = fake_time  # type: ignore[attr-defined]
    log = logging.getLogger("orders.worker")
    http = logging.getLogger("orders.http")
    inv = Inventory()
    log.info("worker started pid=4242 queue=orders-main batch=25")
    for i in range(iterations):
        sku = f"SKU-{(i * 37) % 200:04d}"
        price = "19.99" if i % 5 else "4.50"
        if i == iterations // 2:
            price = "12,50"  # malformed: a comma decimal separator
        if i == iterations * 7 // 8:
            sku = "SKU-9999"  # not in the inventory: a KeyError
        raw = json.dumps({"id": f"ord-{100000 + i}", "sku": sku, "qty": 1 + i % 3, "price": price})
        http.info("POST /v1/orders 202 %dms request_id=req-%06d", 12 + (i * 7) % 40, i)
        try:
            handle(inv, raw, log)
        except RuntimeError as exc:
            log.warning("order ord-%d skipped: %s", 100000 + i, exc)
        except Exception:
            log.exception("order ord-%d failed while parsing payload %s", 100000 + i, raw)
        if i % 250 == 249:
            log.info("checkpoint processed=%d", i + 1)
        if i == iterations * 4 // 5:
            log.error("payment gateway retry budget exhausted for batch 57 (5/5 attempts, last status 503)")
    log.info("worker stopped processed=%d", iterations)


if __name__ == "__main__":
    main()

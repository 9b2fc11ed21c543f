"""The savings ledger: one SQLite database of runs, fed from the wrap spool.

What a run records: when, who ran it (source), the command's name and
subcommand, or the name of the host tool that ran no command (an MCP tool, a search
tool; never the command line, arguments or output), the rule and family
that reduced it, the exit code, raw and reduced sizes, duration, whether the
capture was truncated, why output was left whole, the id of a stored raw
artifact, whether anything was cut, whether the command bounded its own output
(`| head -50`) and how many lines it wrote. A read-back records when a stored
output was printed again (`tokenjuice cat ID`): its time, the artifact id, the
names of the options used (never their values) and how many characters it
printed; the artifact id ties it to the run that stored it, and so to the rule
that cut it. The schema is versioned (`PRAGMA user_version`) and migrated
forward. The database runs in WAL mode so readers never block writers.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time

from .. import paths
from . import spool

DB_NAME = "tokenjuice.db"

MIGRATIONS = [
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        record_id TEXT NOT NULL UNIQUE,
        created_at REAL NOT NULL,
        source TEXT NOT NULL,
        argv0 TEXT,
        subcommand TEXT,
        rule_id TEXT NOT NULL,
        family TEXT NOT NULL,
        exit_code INTEGER,
        raw_chars INTEGER NOT NULL,
        reduced_chars INTEGER NOT NULL,
        duration_ms REAL,
        capture_truncated INTEGER NOT NULL DEFAULT 0,
        passthrough TEXT,
        artifact_id TEXT
    );
    CREATE INDEX runs_created_at ON runs (created_at);
    CREATE INDEX runs_rule ON runs (rule_id);
    """,
    # 2: read-backs (`tokenjuice cat`), and what honest savings need of a run.
    # `cut` stays NULL for runs recorded before it was (see `report.was_cut`).
    """
    ALTER TABLE runs ADD COLUMN cut INTEGER;
    ALTER TABLE runs ADD COLUMN bounded INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN raw_lines INTEGER;
    CREATE INDEX runs_artifact ON runs (artifact_id);
    CREATE TABLE readbacks (
        id INTEGER PRIMARY KEY,
        record_id TEXT NOT NULL UNIQUE,
        created_at REAL NOT NULL,
        artifact_id TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '',
        printed_chars INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX readbacks_artifact ON readbacks (artifact_id);
    """,
    # 3: how many times the preservation guard widened the budget of a run (reduce/guard.py).
    """
    ALTER TABLE runs ADD COLUMN guard_widened INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: the host tool of a run that ran no shell command (an MCP tool, a search tool);
    # its argv0 is NULL, so a tool is never counted as a command.
    """
    ALTER TABLE runs ADD COLUMN tool TEXT;
    """,
]
_COLUMNS = (
    "record_id",
    "created_at",
    "source",
    "argv0",
    "subcommand",
    "rule_id",
    "family",
    "exit_code",
    "raw_chars",
    "reduced_chars",
    "duration_ms",
    "capture_truncated",
    "passthrough",
    "artifact_id",
    "cut",
    "bounded",
    "raw_lines",
    "guard_widened",
    "tool",
)
#: A spool line with `"kind": "readback"` is a read-back, not a run.
READBACK = "readback"
_READBACK_COLUMNS = ("record_id", "created_at", "artifact_id", "options", "printed_chars")
#: Columns a row must have: a run's record id and rule, a read-back's record id and artifact.
_RUN_REQUIRED = (0, 5)
_READBACK_REQUIRED = (0, 2)


class LedgerError(Exception):
    """The ledger cannot be used; the message says why and what to do."""


def db_path() -> str:
    return os.path.join(paths.data_dir(), DB_NAME)


def _check_readable_here(path: str) -> None:
    """Raise LedgerError unless the data folder is one no other user could have made or
    replaced and the ledger (when there is one) is this user's alone: another user's
    numbers must not be read as this user's."""
    if not paths.secure_root(paths.data_dir()) or (
        os.path.lexists(path) and not paths.private_entry(path, folder=False)
    ):
        raise LedgerError(
            f"{path} or a folder above it is not this user's alone, so the ledger there is not read; "
            "point TOKENJUICE_HOME at a folder of your own"
        )


def connect() -> sqlite3.Connection:
    """Open (and create or migrate) the ledger for writing."""
    path = db_path()
    if os.path.islink(path):
        raise LedgerError(f"{path} is a symlink, not tokenjuice's ledger; remove it and tokenjuice starts a new one")
    try:
        paths.private_dir(os.path.dirname(path))  # refuses a folder another user owns or could replace
        connection = sqlite3.connect(path, timeout=5)
        os.chmod(path, 0o600)
        connection.execute("PRAGMA busy_timeout = 5000")
        _use_wal(connection)
        connection.execute("PRAGMA synchronous = NORMAL")
        _migrate(connection)
        connection.execute("SELECT count(*) FROM runs").fetchone()
        return connection
    except sqlite3.DatabaseError as error:
        raise LedgerError(
            f"the ledger at {path} is damaged or locked ({error}); move it aside "
            f"(mv {path} {path}.broken) and tokenjuice starts a new one"
        ) from None
    except OSError as error:
        raise LedgerError(f"cannot open the ledger at {path}: {error.strerror}") from None


def _use_wal(connection: sqlite3.Connection) -> None:
    """WAL lets readers and writers work at once. Switching to it needs the file to
    itself for a moment, which SQLite's busy timeout does not wait for when several
    processes open a new ledger together: retry briefly."""
    deadline = time.monotonic() + 5
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _migrate(connection: sqlite3.Connection) -> None:
    """Bring the schema up to date. The version is read again inside a write
    transaction, so of several processes opening a new ledger at once one migrates
    and the others then find nothing left to do."""
    if _user_version(connection) == len(MIGRATIONS):
        return
    previous, connection.isolation_level = connection.isolation_level, None
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = _user_version(connection)
            if version > len(MIGRATIONS):
                raise LedgerError(f"the ledger at {db_path()} was written by a newer tokenjuice; upgrade tokenjuice")
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in filter(str.strip, script.split(";")):
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {number}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    finally:
        connection.isolation_level = previous


def _user_version(connection: sqlite3.Connection) -> int:
    version: int = connection.execute("PRAGMA user_version").fetchone()[0]
    return version


def ingest(connection: sqlite3.Connection) -> int:
    """Move spooled runs into the database; returns how many were added.

    The spool is renamed first, so wraps that start now write a fresh one; an
    exclusive lock then waits for wraps still appending to the renamed file.
    Each record has a unique id, so a crash halfway means nothing is counted twice.
    """
    source = spool.spool_path()
    batch = f"{source}.{os.getpid()}.{time.monotonic_ns()}.ingesting"
    try:
        os.rename(source, batch)
    except FileNotFoundError:
        pass
    except OSError as error:
        raise LedgerError(f"cannot take over the run spool {source}: {error.strerror}") from None
    directory = os.path.dirname(source)
    added = 0
    for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
        if not name.startswith(spool.SPOOL_NAME + ".") or not name.endswith(".ingesting"):
            continue
        path = os.path.join(directory, name)
        added += _ingest_file(connection, path)
    return added


def _ingest_file(connection: sqlite3.Connection, path: str) -> int:
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return 0  # another reader took it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if not os.fstat(fd).st_nlink:
            return 0  # another reader ingested and removed it while we waited
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read()
        runs, readbacks = _parse(raw)
        with connection:
            before = connection.total_changes
            _insert(connection, runs)
            added = connection.total_changes - before
            _insert(connection, readbacks, "readbacks", _READBACK_COLUMNS)
        os.unlink(path)
        return added
    except sqlite3.DatabaseError as error:
        raise LedgerError(f"cannot add runs to the ledger at {db_path()} ({error})") from None
    finally:
        os.close(fd)


def _parse(raw: bytes) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The runs and the read-backs of spool lines; a torn or foreign line is skipped."""
    runs: list[tuple[object, ...]] = []
    readbacks: list[tuple[object, ...]] = []
    for line in raw.splitlines():
        try:
            record = json.loads(line)
            readback = record.get("kind") == READBACK
            columns, required, rows = (
                (_READBACK_COLUMNS, _READBACK_REQUIRED, readbacks) if readback else (_COLUMNS, _RUN_REQUIRED, runs)
            )
            row = tuple(record.get(column) for column in columns)
        except (ValueError, AttributeError):
            continue
        if all(row[index] for index in required):
            rows.append(row)
    return runs, readbacks


#: A spool file bigger than this was not written by wraps (they fold it at 1 MiB).
_MAX_SPOOL_READ = 256 * 1024 * 1024


def pending_runs() -> int:
    """Runs waiting in the spool (not yet in the database)."""
    return len(_spooled_rows()[0])


def _spooled_rows() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The runs and the read-backs waiting in the spool."""
    directory = os.path.dirname(spool.spool_path())
    runs: list[tuple[object, ...]] = []
    readbacks: list[tuple[object, ...]] = []
    if not os.path.isdir(directory) or not paths.secure_root(paths.data_dir()):
        return runs, readbacks  # nothing another user could have spooled is counted
    for name in sorted(os.listdir(directory)):
        if not name.startswith(spool.SPOOL_NAME):
            continue
        try:  # a regular file of this user's alone, checked on the opened descriptor
            raw = paths.read_regular(os.path.join(directory, name), _MAX_SPOOL_READ, follow=False, own=True)
        except OSError:
            continue
        found = _parse(raw)
        runs += found[0]
        readbacks += found[1]
    return runs, readbacks


def snapshot() -> sqlite3.Connection:
    """An in-memory copy of the ledger with the spooled runs added, for questions
    (stats, discover, doctor, ls): reading never creates or changes a file. Raises
    LedgerError when the database cannot be read."""
    memory = sqlite3.connect(":memory:")
    for script in MIGRATIONS:
        for statement in filter(str.strip, script.split(";")):
            memory.execute(statement)
    path = db_path()
    if os.path.islink(path):
        raise LedgerError(f"{path} is a symlink, not tokenjuice's ledger; remove it and tokenjuice starts a new one")
    _check_readable_here(path)
    if os.path.exists(path):
        try:
            disk = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
            try:
                version = _user_version(disk)
                if version > len(MIGRATIONS) or version < 1:
                    newer = version > len(MIGRATIONS)
                    raise LedgerError(
                        f"the ledger at {path} was written by a "
                        f"{'newer' if newer else 'older'} tokenjuice; "
                        + ("upgrade tokenjuice" if newer else "run tokenjuice prune once to migrate it")
                    )
                # An older schema is read as it is (the next write migrates it):
                # the columns it lacks keep their defaults.
                for table, wanted in (("runs", _COLUMNS), ("readbacks", _READBACK_COLUMNS)):
                    present = {row[1] for row in disk.execute(f"PRAGMA table_info({table})")}
                    columns = tuple(column for column in wanted if column in present)
                    if columns:
                        query = f"SELECT {', '.join(columns)} FROM {table}"  # noqa: S608 - our own names
                        _insert(memory, disk.execute(query).fetchall(), table, columns)
            finally:
                disk.close()
        except sqlite3.DatabaseError as error:
            raise LedgerError(
                f"the ledger at {path} is damaged or locked ({error}); move it aside "
                f"(mv {path} {path}.broken) and tokenjuice starts a new one"
            ) from None
    runs, readbacks = _spooled_rows()
    _insert(memory, runs)
    _insert(memory, readbacks, "readbacks", _READBACK_COLUMNS)
    return memory


def _insert(
    connection: sqlite3.Connection,
    rows: list[tuple[object, ...]],
    table: str = "runs",
    names: tuple[str, ...] = _COLUMNS,
) -> None:
    columns, places = ", ".join(names), ", ".join("?" * len(names))  # our own names; values are parameters
    connection.executemany(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({places})", rows)  # noqa: S608


def ingest_now() -> int:
    """Fold the spool into the database (creating or migrating it); the number of runs added."""
    connection = connect()
    try:
        return ingest(connection)
    finally:
        connection.close()

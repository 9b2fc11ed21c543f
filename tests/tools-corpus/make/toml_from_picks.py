import gzip
import json
from pathlib import Path

D = "2026-12-06"
NPM = "npm @modelcontextprotocol/server-{} 2026.8.31, node 20.20.2"
SRC = {
    "fs": "captured: "
    + NPM.format("filesystem")
    + " (secure-filesystem-server 0.2.0), allowed dir /tmp/h32/fs, Debian 12, "
    + D,
    "memory": "captured: " + NPM.format("memory") + " (memory-server 0.6.3), MEMORY_FILE_PATH a fresh file, " + D,
    "fetch": "captured: PyPI mcp-server-fetch 2026.10.24 (mcp 2.3.0, Python 3.11.7) --allow-private-ips, against http.server on 127.0.0.1:8732, "
    + D,
    "sqlite": "captured: PyPI mcp-server-sqlite 2025.4.25 (mcp 1.30.0, Python 3.11.7) on /tmp/h32/shop.db, " + D,
    "postgres": "captured: npm @modelcontextprotocol/server-postgres 0.6.2 against Debian's PostgreSQL 15 on 127.0.0.1, database shop, "
    + D,
    "git": "captured: PyPI mcp-server-git 2026.10.19 (mcp 2.3.0) --repository /tmp/h32/repo (tokenjuice at 4b1c95a, 3 files edited, 1 staged, 1 new), "
    + D,
    "everything": "captured: " + NPM.format("everything") + " (Everything Reference Server 2.0.0), " + D,
    "claude": "captured: Claude Code 2.1.331 (npm @anthropic-ai/claude-code, native binary) driven offline by tests/fixtures/hosts/tools/mock_anthropic.py; the PostToolUse hook payload's tool_response (nonshell_scenarios.py claude, CORPUS_SHOP=/tmp/h32/fs/shop), "
    + D,
}
C = []


def case(name, tool, src, desc, keep, noise=()):
    C.append((name, tool, src, desc, keep, list(noise)))


case(
    "mcp-fs-directory-tree",
    "mcp__filesystem__directory_tree",
    "fs",
    "directory_tree of a project holding 12 stdlib packages (780 lines of indented JSON in the text block, the same tree again in structuredContent)",
    [
        '"name": "config"',
        '"name": "settings.toml"',
        '"name": "CHANGELOG.md"',
        '"name": "base_events.py"',
        '"name": "header.py"',
        '"name": "metadata"',
        '"name": "sqlite3"',
        '"name": "simple_server.py"',
        '"name": "xmlreader.py"',
    ],
)
case(
    "mcp-fs-search-files-py",
    "mcp__filesystem__search_files",
    "fs",
    "search_files **/*.py under the project: 155 absolute paths, one a line (and again in structuredContent.content)",
    [
        "/tmp/h32/fs/shop/src/asyncio/__init__.py",
        "/tmp/h32/fs/shop/src/email/headerregistry.py",
        "/tmp/h32/fs/shop/src/importlib/machinery.py",
        "/tmp/h32/fs/shop/src/logging/handlers.py",
        "/tmp/h32/fs/shop/src/xml/sax/xmlreader.py",
    ],
)
case(
    "mcp-fs-search-files-parser",
    "mcp__filesystem__search_files",
    "fs",
    "search_files **/*parser* under the project: 5 paths (small: should pass unchanged)",
    [
        "/tmp/h32/fs/shop/src/email/_header_value_parser.py",
        "/tmp/h32/fs/shop/src/email/feedparser.py",
        "/tmp/h32/fs/shop/src/email/parser.py",
        "/tmp/h32/fs/shop/src/urllib/robotparser.py",
        "/tmp/h32/fs/shop/src/xml/parsers",
    ],
)
case(
    "mcp-fs-search-files-no-match",
    "mcp__filesystem__search_files",
    "fs",
    "search_files **/*.rs: no match (tiny)",
    ["No matches found"],
)
case(
    "mcp-fs-list-directory-with-sizes",
    "mcp__filesystem__list_directory_with_sizes",
    "fs",
    "list_directory_with_sizes of src/asyncio sorted by size: 33 files and totals",
    [
        "[FILE] base_events.py                   73.06 KB",
        "[FILE] tasks.py                         33.63 KB",
        "[FILE] trsock.py                         2.42 KB",
        "Total: 33 files, 0 directories",
        "Combined size: 478.37 KB",
    ],
)
case(
    "mcp-fs-list-directory-small",
    "mcp__filesystem__list_directory",
    "fs",
    "list_directory of the project root: 3 folders (tiny)",
    ["[DIR] config", "[DIR] docs", "[DIR] src"],
)
case(
    "mcp-fs-get-file-info",
    "mcp__filesystem__get_file_info",
    "fs",
    "get_file_info of config/settings.toml (small; the times vary per capture)",
    ["size: 40", "isFile: true", "permissions: 644"],
)
case(
    "mcp-memory-read-graph",
    "mcp__memory__read_graph",
    "memory",
    "read_graph of a knowledge graph of 155 stdlib modules (observations read from their sources with ast) and 141 imports relations; pretty JSON text plus the same in structuredContent",
    [
        '"name": "email"',
        '"docstring: A package for parsing, handling, and generating email messages."',
        '"name": "wsgiref.headers"',
        '"docstring: Manage HTTP Response Headers"',
        '"name": "wsgiref.validate"',
        '"source file Lib/wsgiref/validate.py"',
        '"from": "email"',
        '"to": "email.parser"',
        '"from": "wsgiref.util"',
        '"to": "urllib.parse"',
        '"relationType": "imports"',
    ],
)
case(
    "mcp-memory-create-entities-echo",
    "mcp__memory__create_entities",
    "memory",
    "create_entities of the 155 entities: the server echoes every created entity back (the agent only needs to know they were created)",
    ['"name": "email"', '"name": "wsgiref.validate"'],
)
case(
    "mcp-memory-create-relations",
    "mcp__memory__create_relations",
    "memory",
    "create_relations of the 141 imports relations: echoed back",
    ['"from": "email"', '"to": "email.parser"', '"to": "concurrent.futures"', '"relationType": "imports"'],
)
case(
    "mcp-memory-search-nodes-email",
    "mcp__memory__search_nodes",
    "memory",
    "search_nodes 'email.mime': 9 entities and their relations",
    [
        '"name": "email.mime"',
        '"name": "email.mime.application"',
        '"name": "email.mime.multipart"',
        '"name": "email.mime.text"',
        '"from": "email.mime.application"',
        '"to": "email.mime.nonmultipart"',
    ],
)
case(
    "mcp-memory-open-nodes",
    "mcp__memory__open_nodes",
    "memory",
    "open_nodes json.decoder and json.scanner (small)",
    [
        '"name": "json.decoder"',
        '"docstring: Implementation of JSONDecoder"',
        '"defines classes: JSONDecodeError, JSONDecoder"',
        '"name": "json.scanner"',
        '"public functions: py_make_scanner"',
    ],
)
case(
    "mcp-fetch-pydoc-default",
    "mcp__fetch__fetch",
    "fetch",
    "fetch of pydoc's argparse page with the default max_length (5000): markdown cut by the server, with its own continuation hint",
    [
        "Contents of http://127.0.0.1:8732/argparse.html:",
        "[ArgumentParser](about:blank/argparse.html#ArgumentParser)",
        "<error>Content truncated. Call the fetch tool with a start_index of 5000 to get more content.</error>",
    ],
)
case(
    "mcp-fetch-pydoc-long",
    "mcp__fetch__fetch",
    "fetch",
    "fetch of pydoc's email.message page with max_length 200000: 34 kB of markdown on two lines",
    ["Contents of http://127.0.0.1:8732/email.message.html:", "[EmailMessage]", "**walk**(self)"],
)
case(
    "mcp-fetch-raw-html",
    "mcp__fetch__fetch",
    "fetch",
    "fetch raw=true of pydoc's argparse page: 827 lines of HTML",
    [
        "Contents of http://127.0.0.1:8732/argparse.html:",
        "<strong>ZERO_OR_MORE</strong> = '*'<br>",
        '<a href="#FileType">FileType</a>',
    ],
)
case(
    "mcp-fetch-json-status",
    "mcp__fetch__fetch",
    "fetch",
    "fetch of a JSON status document (500 checks on one line, 9 of 10 'ok')",
    [
        "Contents of http://127.0.0.1:8732/status.json:",
        '"generated": "2026-11-28T10:00:00Z"',
        '{"id": 4, "service": "billing", "status": "degraded", "latency_ms": 641, "region": "eu-west"}',
        '{"id": 12, "service": "worker", "status": "degraded", "latency_ms": 382, "region": "eu-west"}',
        '{"id": 500, "service": "api", "status": "ok", "latency_ms": 181, "region": "eu-west"}',
    ],
)
case(
    "mcp-fetch-404",
    "mcp__fetch__fetch",
    "fetch",
    "fetch of a missing page: isError true (tiny)",
    ["Failed to fetch http://127.0.0.1:8732/missing/page.html - status code 404"],
)
case(
    "mcp-sqlite-read-query-3000-rows",
    "mcp__sqlite__read_query",
    "sqlite",
    "read_query SELECT * FROM orders: 3,000 rows as one Python repr line (420 kB)",
    [
        "{'id': 1, 'customer_id': 255, 'product_id': 9, 'qty': 5, 'total_cents': 12875, 'status': 'paid', 'created_at': '2026-10-03T22:02:00'}",
        "{'id': 1500, 'customer_id': 21, 'product_id': 89, 'qty': 4, 'total_cents': 78676, 'status': 'shipped', 'created_at': '2026-01-03T06:23:00'}",
        "{'id': 3000, 'customer_id': 251, 'product_id': 116, 'qty': 1, 'total_cents': 19075, 'status': 'shipped', 'created_at': '2026-03-07T10:27:00'}",
    ],
)
case(
    "mcp-sqlite-read-query-join",
    "mcp__sqlite__read_query",
    "sqlite",
    "read_query of the 200 failed or refunded orders joined with customer and product",
    [
        "{'id': 25, 'name': 'Edsger Lamport', 'email': 'edsger.lamport.127@example.org', 'sku': 'SKU-1015', 'total_cents': 103985, 'status': 'refunded'}",
        "{'id': 1512, 'name': 'Dennis Allen', 'email': 'dennis.allen.196@example.org', 'sku': 'SKU-1001', 'total_cents': 19550, 'status': 'refunded'}",
        "{'id': 2993, 'name': 'Edsger Wilson', 'email': 'edsger.wilson.60@example.org', 'sku': 'SKU-1031', 'total_cents': 69428, 'status': 'refunded'}",
    ],
)
case(
    "mcp-sqlite-list-tables",
    "mcp__sqlite__list_tables",
    "sqlite",
    "list_tables (tiny)",
    ["'customers'", "'products'", "'orders'"],
)
case(
    "mcp-sqlite-describe-table",
    "mcp__sqlite__describe_table",
    "sqlite",
    "describe_table orders: 7 columns (small)",
    [
        "'name': 'id', 'type': 'INTEGER'",
        "'name': 'total_cents', 'type': 'INTEGER'",
        "'name': 'status', 'type': 'TEXT'",
        "'name': 'created_at', 'type': 'TEXT'",
    ],
)
case(
    "mcp-sqlite-read-query-error",
    "mcp__sqlite__read_query",
    "sqlite",
    "read_query on a column that does not exist (tiny; isError false)",
    ["Database error: no such column: total"],
)
case(
    "mcp-postgres-query-customers",
    "mcp__postgres__query",
    "postgres",
    "query SELECT * FROM customers ORDER BY id: 400 rows as pretty JSON (61 kB)",
    [
        '"name": "Alan Thompson"',
        '"email": "alan.thompson.1@example.org"',
        '"email": "whitfield.hoare.201@example.org"',
        '"name": "Dennis Hamilton"',
        '"email": "dennis.hamilton.400@example.org"',
    ],
)
case(
    "mcp-postgres-query-status-counts",
    "mcp__postgres__query",
    "postgres",
    "query of order counts by status: 5 rows (small)",
    [
        '"status": "paid"',
        '"n": "1473"',
        '"status": "failed"',
        '"n": "109"',
        '"status": "refunded"',
        '"cents": "3772272"',
    ],
)
case(
    "mcp-git-log-50",
    "mcp__git__git_log",
    "git",
    "git_log max_count 50 on the tokenjuice clone",
    [
        "Commit: 4b1c95a6296ef7b717484f1204cf56d9801232ec",
        "Message: Merge branch 'i29-codex'",
        "Commit: 97caf3595adab4937e094e3f8f756f10ee3e8a9c",
        "Commit: 64198298f8d88503063cdbbc903aa9d4db7fd850",
        "Message: docs(reducers): the catalogue's table regenerated (pytest -v examples' ratios)",
    ],
)
case(
    "mcp-git-show-commit",
    "mcp__git__git_show",
    "git",
    "git_show a723feb (a redaction fix touching 8 files, 28 kB)",
    [
        "commit a723feba402665b0203d7e8386d27005228b1def",
        "fix(redact): a private key is redacted whatever prefix its lines carry",
        "+++ b/docs/redaction.md",
        "+++ b/tokenjuice/state/redact.py",
        "+def _pem_lines(m: Any, text: str) -> list[Span]:",
    ],
)
case(
    "mcp-git-diff-head5",
    "mcp__git__git_diff",
    "git",
    "git_diff against HEAD~5: 26 files, 1,614 lines (88 kB)",
    [
        "Diff with HEAD~5:",
        "diff --git a/LICENSE b/LICENSE",
        "diff --git a/docs/security.md b/docs/security.md",
        "diff --git a/tests/e2e/test_redaction_channels.py b/tests/e2e/test_redaction_channels.py",
        "diff --git a/tokenjuice/hosts/postrun.py b/tokenjuice/hosts/postrun.py",
        "diff --git a/tokenjuice/state/redact.py b/tokenjuice/state/redact.py",
    ],
    ["index 503d127..29cfab0 100644"],
)
case(
    "mcp-git-status",
    "mcp__git__git_status",
    "git",
    "git_status: one staged, two unstaged, one untracked (small)",
    ["On branch main", "modified:   LICENSE", "modified:   README.md", "modified:   pyproject.toml", "NOTES.md"],
)
case(
    "mcp-git-diff-unstaged",
    "mcp__git__git_diff_unstaged",
    "git",
    "git_diff_unstaged: two small hunks (small)",
    [
        "+## Local notes",
        "+Try the tools corpus.",
        "+# pinned for the corpus",
        "diff --git a/pyproject.toml b/pyproject.toml",
    ],
)
case(
    "mcp-everything-echo",
    "mcp__everything__echo",
    "everything",
    "echo (tiny)",
    ["Echo: build 4812 finished: 3 warnings"],
)
case(
    "mcp-everything-structured-content",
    "mcp__everything__get-structured-content",
    "everything",
    "get-structured-content: a text block and structuredContent (tiny)",
    ['"temperature":33', '"conditions":"Cloudy"', '"humidity":82'],
)
case(
    "mcp-everything-resource-links",
    "mcp__everything__get-resource-links",
    "everything",
    "get-resource-links count 5: a text block and 5 resource_link blocks (small)",
    [
        "Here are 5 resource links to resources available in this server:",
        "demo://resource/dynamic/text/2",
        "demo://resource/dynamic/blob/5",
    ],
)
case(
    "mcp-everything-tiny-image",
    "mcp__everything__get-tiny-image",
    "everything",
    "get-tiny-image: an image block between two text blocks; never compacted (the image data must pass byte for byte)",
    ["Here's the image you requested:", "The image above is the MCP logo.", "IMAGE"],
)
case(
    "claude-grep-raise-valueerror",
    "Grep",
    "claude",
    "Claude Code's own Grep, content mode with -n, 'raise ValueError' over the corpus project: 233 lines in tool_response.content (Claude showed the model a 2 kB preview and saved the rest: 'Output too large (24.4KB)')",
    [
        "/tmp/h32/fs/shop/src/asyncio/base_events.py:90:        raise ValueError('reuse_port not supported by socket module')",
        '/tmp/h32/fs/shop/src/http/client.py:1444:                raise ValueError("check_hostname needs a SSL context with "',
        "/tmp/h32/fs/shop/src/xml/etree/ElementTree.py:1873:        raise ValueError(f'Namespace \"{uri}\" is not declared in scope')",
    ],
)
case(
    "claude-glob-py",
    "Glob",
    "claude",
    "Claude Code's own Glob **/*.py over the corpus project: 100 of 155 paths (truncated: true, totalMatches 155)",
    ["/tmp/h32/fs/shop/src/json/__init__.py", "/tmp/h32/fs/shop/src/importlib/resources/_adapters.py"],
)
case(
    "claude-grep-files-def-parse",
    "Grep",
    "claude",
    "Claude Code's own Grep, files_with_matches, 'def parse': 22 files (small)",
    [
        "/tmp/h32/fs/shop/src/email/_header_value_parser.py",
        "/tmp/h32/fs/shop/src/email/_parseaddr.py",
        "/tmp/h32/fs/shop/src/xml/sax/xmlreader.py",
    ],
)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)


def q(s):
    return json.dumps(s, ensure_ascii=False)


for name, tool, src, desc, keep, noise in C:
    f = name + ".json"
    if not Path(f).exists():
        f += ".gz"
    raw = gzip.decompress(Path(f).read_bytes()) if f.endswith(".gz") else Path(f).read_bytes()
    vals = list(strings(json.loads(raw)))
    if name == "mcp-everything-tiny-image":
        img = next(b for b in json.loads(raw)["content"] if b["type"] == "image")
        keep = [k for k in keep if k != "IMAGE"] + [img["data"]]
    for k in keep + noise:
        assert any(k in v for v in vals), (name, k)
    body = (
        f"description = {q(desc)}\ntool = {q(tool)}\nsource = {q(SRC[src])}\noutput_file = {q(f)}\n"
        "must_keep = [\n" + "".join(f"  {q(k)},\n" for k in keep) + "]\n"
        "noise = [" + ", ".join(q(n) for n in noise) + "]\n"
    )
    Path(name + ".toml").write_text(body)
print(len(C), "cases")

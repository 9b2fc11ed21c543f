"""Redact secrets from command output before it is shown or stored.

Each secret is replaced by `[REDACTED:<kind>]`, and only the secret's own
characters are: a JSON string keeps its quotes, a `.env` line its name
(`DB_PASSWORD=[REDACTED:password]`), a YAML or INI line its key, a URL its user
and host. The kinds, in the order they are looked for (docs/redaction.md says
what each one deliberately leaves alone):

- `private-key`: a PEM private key block (RSA, EC, DSA, OPENSSH, ENCRYPTED,
  PKCS#8), BEGIN to END, also inside a JSON string with `\\n` escapes, with CRLF
  line ends, and with a prefix on every line (grep's `path:N:`/`path-N-`, a diff's
  `+`/`-`/space, `> `, a `|` border, indentation); part of a block (the lines after
  a BEGIN, or before an END) goes too.
- `pgp-private-key`: a PGP private key block, BEGIN to END.
- `aws-access-key`: AKIA/ASIA/… access key ids.
- `github-token`: ghp_/gho_/ghu_/ghs_/ghr_ tokens and github_pat_ tokens.
- `gitlab-token`: glpat-/gldt-/glrt-/glptt-/… tokens.
- `slack-token`: xoxb-/xoxp-/xoxa-/xoxr-/xoxs-/xoxe- and xapp- tokens.
- `slack-webhook`: the secret path of hooks.slack.com/services/T…/B…/… URLs.
- `stripe-key`: sk_/rk_/pk_ live and test keys.
- `stripe-webhook-secret`: whsec_ signing secrets.
- `google-api-key`: AIza… keys.
- `anthropic-key`, `openai-key`: sk-ant-…, sk-… / sk-proj-… keys.
- `huggingface-token`: hf_… tokens.
- `sendgrid-key`: SG.xxx.yyy keys.
- `npm-token`, `pypi-token`: npm_… and pypi-… tokens.
- `jwt`: three-part eyJ… tokens.
- `azure-key`: AccountKey= and SharedAccessKey= values in connection strings.
- `azure-sas`: the sig= of a shared access signature (URL or connection string).
- `url-password`: the password of scheme://user:password@host (the user stays).
- `auth-header`: `Authorization: token …` and other schemes; `bearer-token`:
  `Bearer …` (in a header or anywhere); `basic-auth`: `Authorization: Basic …`
  and docker/npm `auth`/`_auth` settings.
- `k8s-secret`: the values under `data:` and `stringData:` of a Kubernetes
  Secret (YAML or JSON; base64 is no protection).
- `aws-secret-key`, `aws-session-token`: SecretAccessKey/aws_secret_access_key
  and SessionToken/aws_session_token values.
- `client-secret`: client_secret / clientSecret values.
- `password`: *password, *passwd, *passphrase, *_PASS, *_PWD, PGPASSWORD values,
  quoted values with spaces included; `--password VALUE` flags; `sshpass -p VALUE`,
  `htpasswd -b FILE USER VALUE` and a MySQL/MariaDB client's glued `-pVALUE`.
- `cookie`: the values of a `Cookie:` header's pairs and of a `Set-Cookie:`
  header's own pair (its attributes stay).
- `secret-setting`: *_SECRET, *_TOKEN, *_API_KEY, SECRET_KEY_BASE, *_SECRET_KEY,
  *_PRIVATE_KEY and similar settings; `--token VALUE` style flags.

Each pattern is written to run in linear time: runs of token characters are
matched possessively or anchored where the run starts, so no input makes one
search backtrack over it again and again.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    #: A span to replace: start, end, kind.
    Span = tuple[int, int, str]
    #: Decides what a match redacts; None keeps the match's "v" group (or all of it).
    Decide = Callable[[Any, str], list[Span]]

_LINE_END = r"(?=[ \t]*+(?:\r?\n|\\r|\\n|[\"']|\Z))"
_SEP = r"(?:\r?\n|\\r\\n|\\n)"
_PEM = (
    r"-----BEGIN (?P<label>(?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?)-----"
    # `Proc-Type:`, `DEK-Info:`, `Version:` headers right after BEGIN, then lines of base64,
    # each a whole line: a key cut short (no END) is redacted up to its last base64 line only.
    rf"(?:(?:{_SEP}[A-Z][A-Za-z0-9-]*+:[ \t][^\r\n\\\"]*+)*+(?:(?:{_SEP}[ \t]*+){{1,3}}+[A-Za-z0-9+/=]++{_LINE_END})++"
    rf"(?:(?:{_SEP}[ \t]*+){{1,3}}+-----END (?P=label)-----)?+"
    rf"|(?:{_SEP}[ \t]*+){{1,3}}+-----END (?P=label)-----)"
)
_TOKEN_END = r"(?![A-Za-z0-9_-])"  # noqa: S105 - a pattern, not a password
#: Keywords that end a setting's name (matched case-insensitively, longest first).
_KEYWORDS = (
    r"secret[_-]?access[_-]?key|secret[_-]?key[_-]?base|secret[_-]?key|session[_-]?token|client[_-]?secret"
    r"|(?:api|private|signing|encryption|master|account|access|app|license)[_-]?key"
    r"|password|passwd|passphrase|pass|pwd|token|secret|auth"
)
#: A setting's value: "double", 'single' or \"escaped\" quoted (spaces allowed), or a bare word.
_VALUE = (
    r"[ \t]*+(?:\"(?P<dq>(?:[^\"\\\r\n]|\\.){0,8192}+)\"|'(?P<sq>[^'\r\n]{0,8192}+)'"
    r"|\\\"(?P<eq>(?:[^\"\\\r\n]|\\{4}|\\{3}\"|\\{2}[^\"\\]){0,8192}+)\\\"|(?:\\?[\"'])?(?P<v>[^\s\"'`,;&()\[\]{}<>\\]++))"
)
_SETTING = (
    # Anchored on the separator (one character, found fast); the name is checked behind it.
    rf"[:=](?<=(?i:(?P<kw>{_KEYWORDS}))(?P<kq>\\?[\"'])?[ \t]*+[:=])(?:(?<=:)=|(?<==)>)?" + _VALUE
)
_FLAG = (
    r"--(?:[A-Za-z0-9]++-)*+(?P<kw>(?i:password|passwd|passphrase|token|secret|key))[ \t]++"
    r"(?:\"(?P<dq>[^\"\r\n]{1,8192}+)\"|'(?P<sq>[^'\r\n]{1,8192}+)'|(?P<v>[^\s\"'`;&|<>()]++))"
)
_HEADER = (
    r"(?i)\b(?:proxy-)?authorization(?:\\?[\"'])?[ \t]*+[:=][ \t]*+(?:\\?[\"'])?"
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9-]*+)[ \t]++)?(?!\[REDACTED)(?P<v>[A-Za-z0-9._~+/=-]++)"
)
#: A value on a command line: "double" or 'single' quoted, or a bare word.
_WORD = r"(?:\"(?P<dq>[^\"\r\n]{1,8192}+)\"|'(?P<sq>[^'\r\n]{1,8192}+)'|(?P<v>[^\s\"'`;&|<>()]++))"
#: `sshpass -p VALUE` (its other options before it: `-P prompt`, `-v`, `-e`).
_SSHPASS = r"\bsshpass(?:[ \t]++(?:-[fdP][ \t]*+[^\s-]\S*+|-[ehvV]\S*+))*+[ \t]++-p[ \t]*+" + _WORD
#: `htpasswd -b[c…] [-C N] FILE USER PASSWORD` (`-nb USER PASSWORD`: no file).
_HTPASSWD = (
    r"\bhtpasswd(?P<flags>(?:[ \t]++-[A-Za-z]++(?:[ \t]++\d++(?![^\s]))?)*+)"
    r"(?P<args>(?:[ \t]++(?:\"[^\"\r\n]*+\"|'[^'\r\n]*+'|[^\s\"'`;&|<>()]++)){2,3}+)"
)
#: A password glued to `-p`, the MySQL and MariaDB clients' form (`mysql -uroot -pS3cret`).
_GLUED_P = r"(?<=[ \t])-p(?=[^\s-])" + _WORD
_MYSQL_TOOL = r"\b(?:mysql|mariadb)[\w-]*+[ \t]"
#: `Cookie:` / `Set-Cookie:` headers (curl's `> `/`< ` lines, a browser's copy, a log).
_COOKIE = r"(?i)\b(?P<h>set-cookie|cookie)[ \t]*+:[ \t]*+"


_K8S_FIELD = r"(?m)^(?P<ind>[ \t]*+)(?:- )?(?P<field>data|stringData):[ \t]*+(?:#[^\r\n]*+)?\r?$"
_K8S_JSON = r"(?P<bs>\\?)\"(?P<field>data|stringData)\\?\"[ \t]*+:[ \t]*+\{(?P<body>[^{}]{0,65536}+)\}"
_K8S_WORDS = ("kind: secret", '"kind": "secret"', '"kind":"secret"', '\\"kind\\":\\"secret')
_SKIP_WORDS = frozenset(
    (
        "none",
        "null",
        "nil",
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "undefined",
        "required",
        "optional",
        "empty",
        "str",
        "string",
        "bytes",
        "int",
        "bool",
        "boolean",
        "number",
        "any",
        "unknown",
        "object",
        "secretstr",
        "redacted",
        "hidden",
        "masked",
        "omitted",
        "unset",
        "default",
        "missing",
        "invalid",
        "expired",
        "n/a",
        "password",
        "passwd",
        "secret",
        "token",
    )
)
_SCHEMES = frozenset(("bearer", "basic", "token", "digest", "bot", "sso-key", "apikey", "key", "negotiate", "ntlm"))
_KEY_FLAGS = frozenset(("api", "secret", "access", "client", "private", "signing"))  # --api-key VALUE
#: Helper patterns, compiled with the rules on first use.
_HELPER_SOURCES = {
    "bytes": r"\d+ bytes",  # kubectl describe secret: `password:  8 bytes`
    "line-start": r"[ \t]*(?:- )?(?:export |set )?[\"']?",
    "dotted-name": r"[A-Za-z_$]++(?:\.[A-Za-z_$]++)++",  # self.password, os.environ (no digits: s.Ab12… is a token)
    "kind-line": r"""[ \t]*(?:- )?\\?["']?kind\\?["']?[ \t]*:[ \t]*\\?["']?Secret\\?["']?[ \t]*,?[ \t]*\r?""",
    "kind-inline": r"""\\?"kind\\?"[ \t]*:[ \t]*\\?"Secret\\?\"""",
    "yaml-entry": r"""[ \t]++(?:- )?[^\s:#][^:]*+:(?:[ \t]++(?P<value>.*+))?""",
    # A line's lead-in that grep prints: `path:N:` / `path-N-` (or `N:` for one file) with
    # -n, else `path:` / `path-`; and what follows the path on a line of the same grep.
    "grep-lead": r"(?:(?P<path>.*?)[:-])??(?P<n>\d+)[:-]|(?P<name>.+)[:-]",
    "grep-numbered": r"\d+[:-]",
    "grep-separator": r"[:-]",
    "pem-header": r"[A-Z][A-Za-z0-9-]*+:[ \t][^\r\n]*+",
    "mysql-tool": _MYSQL_TOOL,
    "word": r"[ \t]++" + _WORD,
    # one `name=value` of a cookie header, up to its `;` (a value may be "quoted")
    "cookie-pair": r"[ \t]*+[^\s=;,\"']++=(?P<value>\"[^\"\r\n]*+\"|[^;\s\"']*+)[ \t]*+;?",
    "json-entry": r"""\\?"[^"\\]*\\?"[ \t]*:[ \t]*(?:"(?P<dq>(?:[^"\\]|\\.)*)"|\\"(?P<eq>[^"\\]*)\\")""",
}
_HELPERS: dict[str, Any] = {}


def _looks_secret(value: str) -> bool:
    """A digit, a symbol or an inner capital: not an ordinary word."""
    return (
        any(c.isdigit() for c in value)
        or not value.replace("-", "").replace("_", "").isalpha()
        or any(c.isupper() for c in value[1:])
    )


def _placeholder(value: str, key: str = "", keyword: str = "") -> bool:
    """A value that is no secret: empty, `${VAR}`, `<password>`, `****`, a type name, the key again."""
    folded = value.strip().lower()
    return (
        not folded
        or folded[0] in "$%{<*([!"
        or _HELPERS["bytes"].fullmatch(folded) is not None
        or folded.startswith(("[redacted", "example", "replace", "insert"))
        or folded.endswith("here")
        or "your" in folded
        or len(set(folded)) == 1
        or "****" in folded
        or folded in _SKIP_WORDS
        or folded in (key.lower(), keyword.lower())
    )


def _value_span(m: Any) -> tuple[int, int, bool]:
    """(start, end, quoted) of the value a setting or flag pattern matched."""
    for group in ("dq", "sq", "eq"):
        if group in m.re.groupindex and m.start(group) >= 0:
            return m.start(group), m.end(group), True
    return m.start("v"), m.end("v"), False


def _key_start(text: str, end: int) -> int:
    """Where the name ending at `end` starts (looked for at most 128 characters back)."""
    start, stop = end, max(end - 128, 0)
    while start > stop and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
        start -= 1
    return start


def _setting_kind(key: str, keyword: str, prefix: str) -> str | None:
    """The kind a name holds, or None when the name is not a secret's (`PWD`, `bypass`, `oauth`)."""
    word = keyword.lower().replace("_", "").replace("-", "")
    after_separator = not prefix or prefix[-1] in "_.-" or (prefix[-1].islower() and keyword[0].isupper())
    if word == "secretaccesskey":
        return "aws-secret-key"
    if word == "sessiontoken":
        return (
            "aws-session-token" if "aws" in key.lower() or key in ("SessionToken", "sessionToken") else "secret-setting"
        )
    if word == "clientsecret":
        return "client-secret"
    if word in ("pass", "pwd"):
        return "password" if after_separator and (prefix.strip("-") or word == "pass") else None
    if word in ("password", "passwd", "passphrase"):
        return None if prefix.lower().endswith("no") else "password"
    if word == "auth":
        return "basic-auth" if not prefix or prefix.endswith("_") else None
    return "secret-setting"


def _assignment(m: Any, text: str, flag: bool = False) -> list[Span]:
    """A `name = value` (or `--name value`) whose name holds a secret: its value's span."""
    kw_start, kw_end = m.span("kw")
    key_start = _key_start(text, kw_start)
    prefix, keyword = text[key_start:kw_start], m.group("kw")
    key = prefix + keyword
    before = text[key_start - 1] if key_start else ""
    if (before and before in "/\\$%") or text[max(key_start - 2, 0) : key_start] == "${":
        return []  # a file path (/run/secrets/db_password: No such file) or a reference
    if flag:
        if keyword.lower() == "key" and prefix.lower().rstrip("-").rsplit("-", 1)[-1] not in _KEY_FLAGS:
            return []  # --key file.pem, --ssh-key …
        prefix = prefix.lstrip("-")
        if text.startswith("-", _value_span(m)[0]):
            return []  # the next option
    kind = _setting_kind(key, keyword, prefix)
    if kind is None:
        return []
    start, end, quoted = _value_span(m)
    value = text[start:end]
    separator = m.group(0)[:1] if not flag else " "
    if keyword.lower() == "pass" and not prefix and (kw_end != m.start() or start != m.start() + 1):
        return []  # `--- PASS: TestName` is no password; `pass:secret` (openssl) and `PASS=secret` are
    line_start = text.rfind("\n", max(key_start - 64, 0), key_start) + 1
    at_line_start = (
        key_start - line_start < 64
        and (line_start > 0 or key_start < 64)
        and _HELPERS["line-start"].fullmatch(text, line_start, key_start) is not None
    )
    if not quoted:
        following = text[end : end + 1]
        if following in ("(", "[") or _HELPERS["dotted-name"].fullmatch(value):
            return []  # code: password = get_password(), token = self.token
        if separator == ":" and at_line_start and not flag:  # a YAML plain scalar runs to the end of the line
            line_end = text.find("\n", end)
            rest = text[end : len(text) if line_end < 0 else line_end]
            comment = rest.find(" #")
            end += len((rest if comment < 0 else rest[:comment]).rstrip())
            value = text[start:end]
    if _placeholder(value, key, keyword):
        return []
    if len(value) < (3 if kind == "password" else 4) or (kind != "password" and value.isdigit()):
        return []
    weak = not flag and not prefix and not m.group("kq") and separator == ":" and not at_line_start
    if (weak or kind == "basic-auth" or (not prefix and keyword.lower() in ("token", "secret"))) and not _looks_secret(
        value
    ):
        return []  # `error: token: expired`, `Password: Authentication failed`
    return [(start, end, kind)]


def _pem(m: Any, text: str) -> list[Span]:
    return [(m.start(), m.end(), "pgp-private-key" if "PGP" in m.group("label") else "private-key")]


#: A BEGIN marker a line prefix stands before (grep's `path:N:`, a diff's `+`, `> `,
#: `| `), or a block the clean pattern above did not take (CRLF, a table border).
_PEM_MARKER = r"-----BEGIN (?P<label>(?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?)-----(?=[ \t\r|\"',]*+(?:\n|\Z))"
#: What follows a key line and is not key: a table border, a quote, CR, spaces.
_PEM_TRAILER = " \t\r|\"',"
_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _pem_lines(m: Any, text: str) -> list[Span]:
    """A private key block whose lines each carry a prefix (`deploy/id_rsa-2-`, `+`,
    `> `, `| `, indentation), redacted from BEGIN to its END, or to its last key line
    when only part of it is in the text (`grep -A3` shows BEGIN and three lines)."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    prefix = text[line_start : m.start()]
    label = m.group("label")
    end_marker = f"-----END {label}-----"
    lead = _HELPERS["grep-lead"].fullmatch(prefix) if prefix else None
    position = text.find("\n", m.end())
    end, headers, lines = m.end(), True, 0
    while 0 <= position < len(text) and lines < 400:
        line_end = text.find("\n", position + 1)
        line_end = len(text) if line_end < 0 else line_end
        line = text[position + 1 : line_end]
        rest = _after_prefix(line, prefix, lead)
        if rest is None:
            break
        body = rest.strip(_PEM_TRAILER)
        offset = position + 1 + (len(line) - len(rest)) + (len(rest) - len(rest.lstrip(_PEM_TRAILER)))
        lines += 1
        if body == end_marker:
            end = offset + len(body)
            break
        if headers and _HELPERS["pem-header"].fullmatch(body):
            end = offset + len(body)
        elif body and all(char in _BASE64 for char in body) and (len(body) >= 16 or lines > 1):
            headers = False
            end = offset + len(body)
        elif not body and headers and lines > 1:  # the blank line after Proc-Type/DEK-Info
            headers = False
        else:
            break
        position = line_end
    if end == m.end():  # a marker with no key line after it (code that looks for one)
        return []
    return [(m.start(), end, "pgp-private-key" if "PGP" in label else "private-key")]


#: An END marker, for the key lines before it when its BEGIN is not in the text
#: (`tail -5 id_rsa`, `grep -B3 'END RSA'`, a cut that kept the end of a key).
_PEM_END = r"-----END (?P<label>(?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?)-----"


def _pem_lines_before(m: Any, text: str) -> list[Span]:
    """The key lines right before an END marker (each line with the END line's prefix),
    when no BEGIN came before them; nothing when no key line precedes it."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    prefix = text[line_start : m.start()]
    lead = _HELPERS["grep-lead"].fullmatch(prefix) if prefix else None
    start, position, lines = m.start(), line_start - 1, 0
    while position > 0 and lines < 400:
        begin = text.rfind("\n", 0, position) + 1
        line = text[begin:position]
        rest = _after_prefix(line, prefix, lead)
        body = rest.strip(_PEM_TRAILER) if rest is not None else ""
        if not body or not all(char in _BASE64 for char in body):
            break
        start = begin + (len(line) - len(rest or "")) + (len(rest or "") - len((rest or "").lstrip(_PEM_TRAILER)))
        lines += 1
        position = begin - 1
    if start == m.start() or text.startswith("[REDACTED", start):
        return []
    return [(start, m.end(), "pgp-private-key" if "PGP" in m.group("label") else "private-key")]


def _after_prefix(line: str, prefix: str, lead: Any) -> str | None:
    """The rest of `line` after the prefix the BEGIN line had, or the like of it:
    grep's context lines (`path-3-` after `path:1:`), a diff's `+`/`-`/space."""
    if line.startswith(prefix):
        return line[len(prefix) :]
    if lead is not None:
        numbered = lead.group("n") is not None
        path = (lead.group("path") if numbered else lead.group("name")) or ""  # none: grep read one file
        at = len(path)
        if path and line.startswith(path) and _HELPERS["grep-separator"].match(line, at):
            at += 1
        elif path:
            return None
        follows = _HELPERS["grep-numbered"].match(line, at) if numbered else None
        if follows is not None or (path and not numbered):
            return line[follows.end() if follows is not None else at :]
    if prefix[:1] in ("+", "-", " ") and line[:1] in ("+", "-", " ") and line[1:].startswith(prefix[1:]):
        return line[len(prefix) :]
    return None


def _quoted_word(m: Any, kind: str) -> list[Span]:
    start, end, _ = _value_span(m)
    value = m.string[start:end]
    return [] if _placeholder(value) or len(value) < 3 else [(start, end, kind)]


def _sshpass(m: Any, text: str) -> list[Span]:
    return _quoted_word(m, "password")


def _glued_password(m: Any, text: str) -> list[Span]:
    """`-pVALUE` on the command line of a MySQL or MariaDB client (on that line, before it)."""
    line_start = text.rfind("\n", max(m.start() - 512, 0), m.start()) + 1
    if _HELPERS["mysql-tool"].search(text, max(line_start, m.start() - 512), m.start()) is None:
        return []
    return _quoted_word(m, "password")


def _htpasswd(m: Any, text: str) -> list[Span]:
    """The password of `htpasswd -b`: the third word after the options (the second with -n)."""
    flags = m.group("flags")
    if "b" not in flags.replace("-C", ""):
        return []
    words = list(_HELPERS["word"].finditer(text, m.start("args"), m.end("args")))
    index = 1 if "n" in flags else 2
    if len(words) <= index:
        return []
    return _quoted_word(words[index], "password")


def _cookie(m: Any, text: str) -> list[Span]:
    """The values of a `Cookie:` header's pairs, or of a `Set-Cookie:` header's own pair
    (its attributes, `Path=/`, `Expires=…`, say nothing secret)."""
    line_end = text.find("\n", m.end())
    line_end = len(text) if line_end < 0 else line_end
    spans: list[Span] = []
    for pair in _HELPERS["cookie-pair"].finditer(text, m.end(), line_end):
        start, end = pair.span("value")
        value = pair.group("value")
        if len(value) >= 4 and not _placeholder(value) and not text.startswith("[REDACTED", start):
            spans.append((start, end, "cookie"))
        if m.group("h").lower() == "set-cookie":
            break
    return spans


def _header(m: Any, text: str) -> list[Span]:
    value, scheme = m.group("v"), (m.group("scheme") or "").lower()
    if value.lower() in _SCHEMES or _placeholder(value) or len(value) < 8:
        return []
    if scheme != "basic" and not _looks_secret(value):
        return []
    kind = {"bearer": "bearer-token", "basic": "basic-auth"}.get(scheme, "auth-header")
    return [(m.start("v"), m.end("v"), kind)]


def _bearer(m: Any, text: str) -> list[Span]:
    return [] if not _looks_secret(m.group(0)) else [(m.start(), m.end(), "bearer-token")]


def _url(m: Any, text: str) -> list[Span]:
    return [] if _placeholder(m.group("v")) else [(m.start("v"), m.end("v"), "url-password")]


def _indent(line: str) -> int:
    """Where a YAML line's key starts (a `- ` item counts as indentation)."""
    stripped = line.lstrip(" \t")
    depth = len(line) - len(stripped)
    return depth + 2 if stripped.startswith("- ") else depth


def _in_secret(text: str, line_start: int, depth: int) -> bool:
    """Whether the object whose field starts the line at `line_start` is a Secret: a sibling line
    (same indentation, up to 400 lines either way, within one YAML document) says `kind: Secret`."""
    for step in (-1, 1):
        position, seen = line_start, 0
        while seen < 400:
            if step < 0:
                if position == 0:
                    break
                end = position - 1
                position = text.rfind("\n", 0, end) + 1
                line = text[position:end]
            else:
                end = text.find("\n", position)
                if end < 0:
                    line, end = text[position:], len(text)
                else:
                    line = text[position:end]
            seen += 1
            if line.strip() and line.rstrip() != "---":
                level = _indent(line)
                if level == depth and _HELPERS["kind-line"].fullmatch(line):
                    return True
                if level < depth or (step > 0 and seen > 1 and level == depth and line.lstrip().startswith("- ")):
                    break
                if step < 0 and level == depth and line.lstrip().startswith("- "):
                    break
            elif line.rstrip() == "---":
                break
            if step > 0:
                if end >= len(text):
                    break
                position = end + 1
    return False


def _k8s_yaml(m: Any, text: str) -> list[Span]:
    line_start = m.start()
    field_line = text[line_start : m.end()]
    depth = _indent(field_line)
    if not _in_secret(text, line_start, depth):
        return []
    spans: list[Span] = []
    position, block = m.end() + 1, -1
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        line = text[position:end]
        if line.strip():
            level = _indent(line)
            if level <= depth:
                break
            if block >= 0 and level > block:  # a line of a `key: |` block
                stripped = line.strip()
                spans.append((end - len(line.lstrip()), end - (len(line.lstrip()) - len(stripped)), "k8s-secret"))
            else:
                block = -1
                entry = _HELPERS["yaml-entry"].fullmatch(line)
                value = (entry.group("value") or "").rstrip() if entry else None
                if entry and value:
                    if value[0] in "|>":
                        block = level
                    else:
                        start = position + entry.start("value")
                        stop = start + len(value)
                        if value[0] in "\"'" and len(value) > 1 and value[-1] == value[0]:
                            start, stop = start + 1, stop - 1
                        if stop > start and not text.startswith("[REDACTED", start):
                            spans.append((start, stop, "k8s-secret"))
        position = end + 1
    return spans


def _k8s_json(m: Any, text: str) -> list[Span]:
    line_start = text.rfind("\n", 0, m.start()) + 1
    ahead = text[line_start : m.start()]
    if ahead.strip():  # compact JSON: the object is on this line
        line_end = text.find("\n", m.end())
        if not _HELPERS["kind-inline"].search(text, line_start, len(text) if line_end < 0 else line_end):
            return []
    elif not _in_secret(text, line_start, _indent(text[line_start : m.end()])):
        return []
    spans: list[Span] = []
    for entry in _HELPERS["json-entry"].finditer(text, m.start("body"), m.end("body")):
        group = "eq" if entry.start("eq") >= 0 else "dq"
        if entry.end(group) > entry.start(group) and not text.startswith("[REDACTED", entry.start(group)):
            spans.append((entry.start(group), entry.end(group), "k8s-secret"))
    return spans


def _flag(m: Any, text: str) -> list[Span]:
    return _assignment(m, text, flag=True)


#: (kind, pattern, words one of which any match contains in lower case or (), decide or None).
_RULES: list[tuple[str, str, tuple[str, ...], Decide | None]] = [
    ("private-key", _PEM, ("-----begin",), _pem),
    ("private-key", _PEM_MARKER, ("-----begin",), _pem_lines),
    ("private-key", _PEM_END, ("-----end",), _pem_lines_before),
    ("aws-access-key", r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[0-9A-Z]{16}\b", (), None),
    ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})\b", (), None),
    ("gitlab-token", r"\bgl(?:pat|dt|rt|ptt|cbt|soat|imt|ft|oas)-[A-Za-z0-9_-]{20,}+", (), None),
    ("slack-token", r"\b(?:xox(?:[abposr]|e(?:\.xox[bp])?)|xapp)-[0-9]++-[A-Za-z0-9-]{8,}+", (), None),
    ("slack-webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/\K[A-Za-z0-9_/-]{20,}+", (), None),
    ("stripe-key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}+", (), None),
    ("stripe-webhook-secret", r"\bwhsec_[A-Za-z0-9+/=]{24,}+", (), None),
    ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}" + _TOKEN_END, (), None),
    ("anthropic-key", r"\bsk-ant-[A-Za-z0-9_-]{20,}+", (), None),
    ("openai-key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}+", (), None),
    ("huggingface-token", r"\bhf_[A-Za-z0-9]{34,}+\b", (), None),
    ("sendgrid-key", r"\bSG\.[A-Za-z0-9_-]{16,32}+\.[A-Za-z0-9_-]{16,64}+" + _TOKEN_END, (), None),
    ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b", (), None),
    ("pypi-token", r"\bpypi-[A-Za-z0-9_-]{50,}+", (), None),
    # The lookbehind after the literal: one attempt per run of token characters, not one per `eyJ`.
    ("jwt", r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+", (), None),
    ("azure-key", r"(?:AccountKey|SharedAccessKey)=\K[A-Za-z0-9+/]{20,}+={0,2}", ("accountkey", "accesskey"), None),
    ("azure-sas", r"sig=(?<![A-Za-z0-9_-]sig=)\K(?!\[REDACTED)[A-Za-z0-9%+/=]{16,}+", ("sig=",), None),
    # `\K` rather than a lookbehind: the search then starts from the literal prefix,
    # ~100x faster on large outputs than testing a lookbehind at every position.
    ("url-password", r"://\K[^\s/:@\"'<>]*+:(?!\[REDACTED)(?P<v>[^\s/@?#\"'<>]++)(?=@)", ("://",), _url),
    ("auth-header", _HEADER, ("authorization",), _header),
    ("cookie", _COOKIE, ("cookie",), _cookie),
    ("password", _SSHPASS, ("sshpass",), _sshpass),
    ("password", _HTPASSWD, ("htpasswd",), _htpasswd),
    ("password", _GLUED_P, ("mysql", "mariadb"), _glued_password),
    ("bearer-token", r"(?i)\bbearer[ \t]++\K(?!\[REDACTED)[A-Za-z0-9._~+/=-]{12,}+", ("bearer",), _bearer),
    ("k8s-secret", _K8S_FIELD, _K8S_WORDS, _k8s_yaml),
    ("k8s-secret", _K8S_JSON, _K8S_WORDS, _k8s_json),
    ("secret-setting", _SETTING, ("key", "secret", "token", "pass", "pwd", "auth"), _assignment),
    ("secret-setting", _FLAG, ("--",), _flag),
]
_COMPILED: list[tuple[str, Any, tuple[str, ...], Decide | None]] | None = None


def _compiled() -> list[tuple[str, Any, tuple[str, ...], Decide | None]]:
    global _COMPILED
    if _COMPILED is None:
        import regex  # type: ignore[import-untyped, unused-ignore]  # \K, possessive quantifiers, variable-width lookbehind

        _HELPERS.update((name, regex.compile(source)) for name, source in _HELPER_SOURCES.items())
        _COMPILED = [(kind, regex.compile(pattern), required, decide) for kind, pattern, required, decide in _RULES]
    return _COMPILED


def _apply(kind: str, pattern: Any, decide: Decide | None, text: str, found: dict[str, int]) -> str:
    pieces: list[str] = []
    done = 0
    for m in pattern.finditer(text):
        if m.start() < done:
            continue  # inside a span already replaced (a YAML value redacted to the end of its line)
        if decide is None:
            start, end = m.span("v") if "v" in pattern.groupindex else m.span()
            spans = [] if text.startswith("[REDACTED", start) else [(start, end, kind)]
        else:
            spans = decide(m, text)
        for start, end, span_kind in spans:
            if start < done:
                continue
            pieces.append(text[done:start])
            pieces.append(f"[REDACTED:{span_kind}]")
            done = end
            found[span_kind] = found.get(span_kind, 0) + 1
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


#: A superset of what any rule above can match, in stdlib `re` syntax: text that
#: matches none of it holds no secret, and the shown output (a few KiB, on every
#: wrap) skips importing and running the rules (~20 ms). Tested against every line
#: of the secrets corpus. The lookahead in front names every character a match can
#: start with (the first letter of each alternative; any case of those under `(?i:`):
#: it matches nothing the alternation would not, and saves trying thirty alternatives
#: at every other position (~3x quicker on a 20 KiB output;
#: tests/state/test_redact.py checks the set).
_SUSPECT_FIRST = r"(?=[-:egnrx]|(?i:[abchkmpstw]))"
_SUSPECT = _SUSPECT_FIRST + (
    r"(?:-----(?:BEGIN|END)|\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)|\bgh[pousr]_|github_pat_"
    r"|\bgl(?:pat|dt|rt|ptt|cbt|soat|imt|ft|oas)-|\bxox|\bxapp-|hooks\.slack\.com|\b[spr]k_(?:live|test)_|\bwhsec_"
    r"|\bAIza|\bsk-|\bhf_|\bSG\.|\bnpm_|\bpypi-|eyJ|AccountKey=|SharedAccessKey=|sig=|://[^\s/@]*:[^\s/@]*@"
    r"|(?i:bearer|authorization|kind\W{0,6}secret|cookie|sshpass|htpasswd|mysql|mariadb"
    r"|(?:key|base|token|secret|word|wd|phrase|pass|pwd|auth)(?:\\?[\"'])?[ \t]*[:=]"
    r"|--(?:[a-z0-9]+-)*(?:password|passwd|passphrase|token|secret|key)[ \t]))"
)
#: The same test as two searches that try far fewer alternatives a position
#: (`_SUSPECT` took ~48 M instructions on the 22 KB a 4 MiB reduction shows, these
#: ~8 M): every alternative starts with a plain character, so the engine looks for
#: those first characters alone (`memchr`-like) and, where one is, tries only the
#: alternatives that start with it. `\b` before a first letter became `(?<!\w.)`
#: after it. `_SUSPECT_CASED` holds the case-sensitive alternatives, searched in the
#: text; `_SUSPECT_LOWER` the case-insensitive ones, searched case-sensitively in the
#: lowered text, which finds the same: but for the three characters of
#: `_FOLD_APART`, a character lowers to one character, and that character is a
#: letter of these words (or `\W`, a digit…) exactly when the character matches it
#: case-insensitively (the Kelvin sign lowers to `k`). Text holding one of those
#: three is searched with `_SUSPECT`. tests/state/test_redact.py checks every
#: character and compares the two forms on generated text.
_SEP = r"(?:\\?[\"'])?[ \t]*[:=]"
_NOT_AFTER_WORD = r"(?<!\w.)"
_SUSPECT_CASED = (
    rf"A(?:{_NOT_AFTER_WORD}(?:KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|PKA|ROA|SCA|Iza)|ccountKey=)"
    rf"|s(?:{_NOT_AFTER_WORD}k(?:-|_(?:live|test)_)|ig=)|eyJ"
    rf"|p{_NOT_AFTER_WORD}(?:k_(?:live|test)_|ypi-)|r{_NOT_AFTER_WORD}k_(?:live|test)_|n{_NOT_AFTER_WORD}pm_"
    rf"|h(?:ooks\.slack\.com|{_NOT_AFTER_WORD}f_)|w{_NOT_AFTER_WORD}hsec_"
    rf"|g(?:{_NOT_AFTER_WORD}(?:h[pousr]_|l(?:pat|dt|rt|ptt|cbt|soat|imt|ft|oas)-)|ithub_pat_)"
    rf"|x{_NOT_AFTER_WORD}(?:ox|app-)|S(?:{_NOT_AFTER_WORD}G\.|haredAccessKey=)|-----(?:BEGIN|END)|://[^\s/@]*:[^\s/@]*@"
)
_SUSPECT_LOWER = (
    rf"s(?:shpass|ecret{_SEP})|t(?:oken{_SEP})|a(?:uth(?:orization|{_SEP}))|p(?:(?:hrase|ass|wd){_SEP})"
    rf"|k(?:ind\W{{0,6}}secret|ey{_SEP})|c(?:ookie)|m(?:ysql|ariadb)|b(?:earer|ase{_SEP})|h(?:tpasswd)"
    rf"|w(?:(?:ord|d){_SEP})|-(?:-(?:[a-z0-9]+-)*(?:password|passwd|passphrase|token|secret|key)[ \t])"
)
#: `İ` lowers to two characters; `ı` and `ſ` match `i` and `s` case-insensitively
#: but lower to themselves.
_FOLD_APART = ("\u0130", "\u0131", "\u017f")
_suspect: Any = None


def might_hold_secrets(text: str) -> bool:
    """Cheap test (stdlib `re`, compiled once): False means `redact` would change nothing."""
    if _suspected(text):
        return True
    plain = _without_escapes(text)
    return plain is not text and _suspected(plain)


def _suspected(text: str) -> bool:
    """Whether `_SUSPECT` matches somewhere in `text`."""
    global _suspect
    if _suspect is None:
        from ..fast.lazyre import compiled

        _suspect = (compiled(_SUSPECT_CASED).search, compiled(_SUSPECT_LOWER).search)
    cased, lower = _suspect
    if cased(text) is not None:
        return True
    if any(char in text for char in _FOLD_APART):
        from ..fast.lazyre import compiled

        return compiled(_SUSPECT).search(text) is not None
    return lower(text.lower()) is not None


#: Terminal escape sequences, raw (ESC) or as `sanitize` shows them (the four
#: characters `\x1b`): a colour code right before a token (`\e[1mghp_…`) or
#: between a setting's name and its `=` hides the secret from the rules above.
_ESCAPES = (
    r"\x1b(?:\][^\x07\x1b\n]*(?:\x07|\x1b\\)|\[[0-?]*[ -/]*(?:[@-~]|\Z)|[ -/]*[0-~]|)"
    r"|\\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\n]*?(?:\\x07|\\x1b\\\\))?|\\x07"
)
_escapes: Any = None


def _without_escapes(text: str) -> str:
    """`text` without terminal escapes (the same object when it holds none)."""
    if "\x1b" not in text and "\\x1b" not in text:
        return text
    global _escapes
    if _escapes is None:
        from ..fast.lazyre import compiled

        _escapes = compiled(_ESCAPES)
    return str(_escapes.sub("", text))


def redact(text: str) -> tuple[str, dict[str, int]]:
    """`text` with every secret replaced, and how many of each kind were found.

    Text with terminal escapes is also redacted without them: when that finds a
    secret the escapes hid, the escape-free redacted text is the answer (its
    colours are lost; its secret is not shown)."""
    redacted, found = _redact(text)
    plain = _without_escapes(redacted)
    if plain is not redacted:
        again, more = _redact(plain)
        if more:
            for kind, count in more.items():
                found[kind] = found.get(kind, 0) + count
            return again, found
    return redacted, found


def holds_secret(text: str) -> bool:
    """Would `text` shown as it is show a secret `redact` replaces?"""
    return might_hold_secrets(text) and bool(redact(text)[1])


def redact_words(words: list[str]) -> list[str]:
    """A command's words with their secrets redacted, each read after the words before
    it: `--password`, `sshpass -p` and `htpasswd -b … USER` say the next word is one.
    Words the redaction could not map back one to one come back as one redacted line."""
    import shlex

    joined = shlex.join(words)
    if not might_hold_secrets(joined):
        return list(words)
    redacted, found = redact(joined)
    if not found:
        return list(words)
    try:
        again = shlex.split(redacted)
    except ValueError:
        return [redacted]
    return again if len(again) == len(words) else [redacted]


def redact_keys(text: str) -> str:
    """`text` with its private key blocks replaced, and nothing else: what a reduction
    does before it cuts anything, so that no cut can keep a key's lines without the
    BEGIN that makes them recognisable. (Every other secret is one token on one line,
    redacted in what is shown; a cut never splits a token.)"""
    if "PRIVATE KEY" not in text or ("-----BEGIN" not in text and "-----END" not in text):
        return text
    found: dict[str, int] = {}
    for kind, pattern, _required, decide in _compiled():
        if kind in ("private-key", "pgp-private-key"):
            text = _apply(kind, pattern, decide, text, found)
    return text


def _redact(text: str) -> tuple[str, dict[str, int]]:
    found: dict[str, int] = {}
    folded = text.lower()  # for the word prefilter: a rule none of whose words occur is skipped
    for kind, pattern, required, decide in _compiled():
        if required and not any(word in folded for word in required):
            continue
        text = _apply(kind, pattern, decide, text, found)
    return text, found

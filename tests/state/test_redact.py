"""Redaction: every kind on a real-shaped secret, near misses left alone, structure kept, speed."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cost_ratio
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.state.redact import redact

DATA = Path(__file__).resolve().parents[1] / "data"


def _secrets() -> list[tuple[str, str]]:
    rows = []
    for raw in (DATA / "redaction_secrets.txt").read_text().splitlines():
        if raw and not raw.startswith("#"):
            kind, line = raw.split("\t", 1)
            rows.append((kind, line))
    return rows


NEAR_MISSES = (DATA / "redaction_near_misses.txt").read_text().splitlines()
SECRETS = _secrets()


# -- corpora ---------------------------------------------------------------------------


def test_the_corpora_are_large_enough():
    assert len(NEAR_MISSES) >= 40 and all(NEAR_MISSES)
    assert len(SECRETS) >= 40


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_misses_pass_unchanged(line):
    assert redact(line) == (line, {})


def test_the_near_miss_corpus_as_one_text_is_unchanged():
    text = "\n".join(NEAR_MISSES) + "\n"
    assert redact(text) == (text, {})


@pytest.mark.parametrize("kind, line", SECRETS, ids=[f"{kind}-{i}" for i, (kind, _) in enumerate(SECRETS)])
def test_each_secret_line_is_redacted_with_its_kind(kind, line):
    text, found = redact(f"before\n{line}\nafter")
    assert f"[REDACTED:{kind}]" in text and found.get(kind), (found, text)
    assert text.startswith("before\n") and text.endswith("\nafter")
    again, found_again = redact(text)
    assert again == text and found_again == {}  # redacting twice changes nothing


def test_the_secret_itself_is_gone():
    for kind, line in SECRETS:
        text, _ = redact(line)
        for word in line.replace('"', " ").replace("'", " ").split():
            value = word.split("=", 1)[-1].split(":", 1)[-1]
            if len(value) >= 24 and any(c.isdigit() for c in value) and "://" not in word and "." not in value[:6]:
                assert value not in text, (kind, line, text)


@pytest.mark.parametrize(
    "kind, secret",
    [
        ("aws-access-key", "AKIAIOSFODNN7EXAMPLE"),
        ("secret-setting", "api_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        ("github-token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        ("gitlab-token", "glpat-abcdefghijklmnopqrst"),
        ("slack-token", "xoxb-1234567890-abcdefghij"),
        ("stripe-key", "sk_live_abcdefghijklmnopqrstuvwx"),
        ("google-api-key", "AIzaSyA-abcdefghijklmnopqrstuvwxyz12345"),
        ("anthropic-key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"),
        ("openai-key", "sk-proj-abcdefghijklmnopqrstuvwxyz0123"),
        ("npm-token", "npm_abcdefghijklmnopqrstuvwxyz0123456789"),
        ("pypi-token", "pypi-AgEIcHlwaS5vcmcCJGE0ZDY0NTFkLTM2ZjgtNDM0ZS1iMmZiLWQ0ODc1MjcwYmU2ZAACKlsz"),
        ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
        ("bearer-token", "Authorization: Bearer abcdefghijklmnop.qrstuv"),
        ("basic-auth", "Authorization: Basic dXNlcjpwYXNzd29yZA=="),
        ("url-password", "postgres://admin:hunter2@db.internal:5432/app"),
        ("password", 'export DATABASE_PASSWORD="correct-horse"'),
        ("client-secret", "client_secret: abcdefghij"),
    ],
)
def test_the_kinds_kept_from_before(kind, secret):
    text, found = redact(f"before\n{secret}\nafter")
    assert found.get(kind) and f"[REDACTED:{kind}]" in text, (found, text)


def test_ordinary_output_is_not_redacted():
    text = "tokenizer ready\npassword policy: strong\nsk-short\nerror: token expired at line 3\nkey = 42\n"
    assert redact(text) == (text, {})


# -- private keys ----------------------------------------------------------------------

BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\nNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ\n"


@pytest.mark.parametrize(
    "label",
    [
        "RSA PRIVATE KEY",
        "EC PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "DSA PRIVATE KEY",
    ],
)
def test_a_pem_block_is_replaced_whole(label):
    block = f"-----BEGIN {label}-----\n{BODY}-----END {label}-----"
    assert redact(f"$ cat key\n{block}\n$ next") == ("$ cat key\n[REDACTED:private-key]\n$ next", {"private-key": 1})


def test_an_encrypted_pem_with_headers_and_a_pgp_block_are_replaced_whole():
    pem = (
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,5E8A4A56B4C2F5E5A4B3C2D1E0F9A8B7\n"
        f"\n{BODY}-----END RSA PRIVATE KEY-----"
    )
    pgp = (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\nComment: backup of alice\n\n"
        f"lQOYBGYyDkEBCADJ\n{BODY}=Xz9a\n-----END PGP PRIVATE KEY BLOCK-----"
    )
    text, found = redact(f"a\n{pem}\nb\n{pgp}\nc")
    assert text == "a\n[REDACTED:private-key]\nb\n[REDACTED:pgp-private-key]\nc"
    assert found == {"private-key": 1, "pgp-private-key": 1}


def test_a_key_in_a_json_string_keeps_the_json_valid():
    account = {
        "type": "service_account",
        "project_id": "acme-prod",
        "private_key_id": "0123456789abcdef",
        "private_key": f"-----BEGIN PRIVATE KEY-----\n{BODY}-----END PRIVATE KEY-----\n",
        "client_email": "ci@acme-prod.iam.gserviceaccount.com",
    }
    text, found = redact(json.dumps(account, indent=2))
    parsed = json.loads(text)
    assert parsed["private_key"] == "[REDACTED:private-key]\n" and found == {"private-key": 1}
    assert {k: v for k, v in parsed.items() if k != "private_key"} == {
        k: v for k, v in account.items() if k != "private_key"
    }


def test_a_key_without_its_end_is_redacted_up_to_its_last_key_line_only():
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + BODY + "ls: cannot open directory: Permission denied\n"
    assert redact(text) == (
        "[REDACTED:private-key]\nls: cannot open directory: Permission denied\n",
        {"private-key": 1},
    )


def test_a_begin_marker_in_code_is_left_alone():
    line = '    if text.startswith("-----BEGIN RSA PRIVATE KEY-----\\n"):\n        return True\n'
    assert redact(line) == (line, {})


# -- structure -------------------------------------------------------------------------


def test_aws_sts_json_stays_valid_json():
    output = json.dumps(
        {
            "Credentials": {
                "AccessKeyId": "ASIAY34FZKBOKMUTVV7A",
                "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "SessionToken": "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD" + "Ab0+/" * 60,
                "Expiration": "2024-05-01T23:59:59+00:00",
            }
        },
        indent=4,
    )
    text, found = redact(output)
    assert json.loads(text) == {
        "Credentials": {
            "AccessKeyId": "[REDACTED:aws-access-key]",
            "SecretAccessKey": "[REDACTED:aws-secret-key]",
            "SessionToken": "[REDACTED:aws-session-token]",
            "Expiration": "2024-05-01T23:59:59+00:00",
        }
    }
    assert found == {"aws-access-key": 1, "aws-secret-key": 1, "aws-session-token": 1}


def test_aws_configure_export_credentials_in_each_format():
    process = (
        '{"Version": 1, "AccessKeyId": "ASIAY34FZKBOKMUTVV7A", "SecretAccessKey": '
        '"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "SessionToken": "FwoGZXIvYXdzEBYaDH0123456789abcdef", '
        '"Expiration": "2024-05-01T23:59:59+00:00"}'
    )
    parsed = json.loads(redact(process)[0])
    assert parsed["Version"] == 1 and parsed["SessionToken"] == "[REDACTED:aws-session-token]"
    env = (
        "export AWS_ACCESS_KEY_ID=ASIAY34FZKBOKMUTVV7A\n"
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
        "export AWS_SESSION_TOKEN=FwoGZXIvYXdzEBYaDH0123456789abcdef\n"
        "export AWS_CREDENTIAL_EXPIRATION=2024-05-01T23:59:59+00:00\n"
    )
    assert redact(env)[0] == (
        "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\n"
        "export AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]\n"
        "export AWS_SESSION_TOKEN=[REDACTED:aws-session-token]\n"
        "export AWS_CREDENTIAL_EXPIRATION=2024-05-01T23:59:59+00:00\n"
    )


def test_an_ini_credentials_file_keeps_its_keys():
    ini = (
        "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = eu-west-1\n"
    )
    assert redact(ini)[0] == (
        "[default]\naws_access_key_id = [REDACTED:aws-access-key]\n"
        "aws_secret_access_key = [REDACTED:aws-secret-key]\nregion = eu-west-1\n"
    )


def test_a_dotenv_file_keeps_each_name():
    env = (
        "APP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD=hunter2-Xy\nPGPASSWORD=pg-s3cret\n"
        "SECRET_KEY_BASE=9f8e7d6c5b4a39281706f5e4d3c2b1a0\nSTRIPE_WEBHOOK_SECRET=shh-0123456789\n"
        "SENTRY_AUTH_TOKEN=0123456789abcdef\nMAPS_API_KEY=0123456789abcdef\nPASSWORD_MIN_LENGTH=8\n"
        "KEY_PREFIX=app_\n"
    )
    assert redact(env)[0] == (
        "APP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD=[REDACTED:password]\nPGPASSWORD=[REDACTED:password]\n"
        "SECRET_KEY_BASE=[REDACTED:secret-setting]\nSTRIPE_WEBHOOK_SECRET=[REDACTED:secret-setting]\n"
        "SENTRY_AUTH_TOKEN=[REDACTED:secret-setting]\nMAPS_API_KEY=[REDACTED:secret-setting]\n"
        "PASSWORD_MIN_LENGTH=8\nKEY_PREFIX=app_\n"
    )


def test_yaml_keeps_its_keys_and_quotes():
    yaml = (
        'database:\n  host: db.internal\n  password: "correct horse battery"\n  user: app\n'
        "smtp:\n  password: correct horse battery staple  # from the vault\n  port: 587\n"
    )
    assert redact(yaml)[0] == (
        'database:\n  host: db.internal\n  password: "[REDACTED:password]"\n  user: app\n'
        "smtp:\n  password: [REDACTED:password]  # from the vault\n  port: 587\n"
    )


KUBECTL_YAML = """apiVersion: v1
data:
  password: cGFzc3dvcmQxMjM=
  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND
  username: YWRtaW4=
kind: Secret
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","data":{"password":"cGFzc3dvcmQxMjM=","username":"YWRtaW4="},"kind":"Secret","metadata":{"name":"db"}}
  name: db
  namespace: default
type: Opaque
---
apiVersion: v1
kind: Secret
metadata:
  name: api
stringData:
  API_TOKEN: "plain-text-token-123"
  config.yaml: |
    endpoint: https://api.example.com
    retries: 3
type: Opaque
---
apiVersion: v1
data:
  LOG_LEVEL: debug
  mode: production
kind: ConfigMap
metadata:
  name: settings
"""


def test_a_kubectl_secret_has_its_data_and_string_data_redacted():
    text, found = redact(KUBECTL_YAML)
    lines = text.splitlines()
    assert len(lines) == len(KUBECTL_YAML.splitlines())
    assert lines[2:5] == [
        "  password: [REDACTED:k8s-secret]",
        "  tls.key: [REDACTED:k8s-secret]",
        "  username: [REDACTED:k8s-secret]",
    ]
    annotation = json.loads(lines[9])
    assert annotation["data"] == {"password": "[REDACTED:k8s-secret]", "username": "[REDACTED:k8s-secret]"}
    assert annotation["metadata"] == {"name": "db"}
    assert lines[19:23] == [
        '  API_TOKEN: "[REDACTED:k8s-secret]"',
        "  config.yaml: |",
        "    [REDACTED:k8s-secret]",
        "    [REDACTED:k8s-secret]",
    ]
    assert lines[-5:] == KUBECTL_YAML.splitlines()[-5:]  # a ConfigMap is not a Secret
    assert "cGFzc3dvcmQxMjM" not in text and "plain-text-token" not in text and found == {"k8s-secret": 8}


def test_a_kubectl_secret_list_in_json_stays_valid_json():
    secret = {
        "apiVersion": "v1",
        "data": {"password": "cGFzc3dvcmQxMjM=", "username": "YWRtaW4="},
        "kind": "Secret",
        "metadata": {
            "name": "db",
            "annotations": {
                "kubectl.kubernetes.io/last-applied-configuration": json.dumps(
                    {"apiVersion": "v1", "data": {"password": "cGFzc3dvcmQxMjM="}, "kind": "Secret"}
                )
                + "\n"
            },
        },
        "type": "Opaque",
    }
    config_map = {"apiVersion": "v1", "data": {"LOG_LEVEL": "debug"}, "kind": "ConfigMap", "metadata": {"name": "s"}}
    text, found = redact(json.dumps({"apiVersion": "v1", "items": [secret, config_map], "kind": "List"}, indent=4))
    items = json.loads(text)["items"]
    assert items[0]["data"] == {"password": "[REDACTED:k8s-secret]", "username": "[REDACTED:k8s-secret]"}
    applied = json.loads(items[0]["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"])
    assert applied["data"] == {"password": "[REDACTED:k8s-secret]"}
    assert items[1] == config_map and found == {"k8s-secret": 3}


def test_docker_config_json_auth_fields():
    config = {
        "auths": {
            "https://index.docker.io/v1/": {"auth": "YWxpY2U6ZGNrcl9wYXRfMDEyMzQ1Njc4OWFiY2RlZg=="},
            "ghcr.io": {
                "auth": "Ym90OmdocF9hYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk=",
                "identitytoken": "eyJ0eXAiOiJKV1Qi0123456789abcdefXYZ",
            },
        },
        "credsStore": "desktop",
        "currentContext": "default",
    }
    text, found = redact(json.dumps(config, indent="\t"))
    parsed = json.loads(text)
    assert parsed["auths"]["https://index.docker.io/v1/"] == {"auth": "[REDACTED:basic-auth]"}
    assert parsed["auths"]["ghcr.io"] == {"auth": "[REDACTED:basic-auth]", "identitytoken": "[REDACTED:secret-setting]"}
    assert parsed["credsStore"] == "desktop" and found == {"basic-auth": 2, "secret-setting": 1}


def test_json_with_escaped_quotes_and_json_inside_a_string():
    inner = json.dumps({"password": 'p "w" d-1', "token": "abc123def456"})
    text, _ = redact(json.dumps({"body": inner, "n": 1}))
    assert json.loads(json.loads(text)["body"]) == {
        "password": "[REDACTED:password]",
        "token": "[REDACTED:secret-setting]",
    }


def test_a_value_already_redacted_by_a_vendor_pattern_keeps_that_kind():
    assert redact("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789") == (
        "token=[REDACTED:github-token]",
        {"github-token": 1},
    )


def test_counts_add_up_by_kind():
    text, found = redact("DB_PASSWORD=one1\nREDIS_PASSWORD=two2\nAKIAIOSFODNN7EXAMPLE\n")
    assert found == {"aws-access-key": 1, "password": 2} and text.count("[REDACTED:") == 3


# -- speed and adversarial input -------------------------------------------------------


def build_log(size: int = 4 * 1024 * 1024, seed: int = 7) -> str:
    """A realistic build and test log (compilers, test runners, package managers, docker, git) with no
    secret in it but the words a secret's name is made of (token, key, secret, password, auth)."""
    rng = random.Random(seed)

    def hexes(n: int) -> str:
        return f"{rng.getrandbits(4 * n):0{n}x}"

    def b64(n: int) -> str:
        return "".join(rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", k=n))

    mods = [
        "token_stream",
        "keymap",
        "secret_store",
        "password_policy",
        "parser",
        "lexer",
        "http_client",
        "auth/session",
        "cache",
        "ledger",
        "reduce",
        "tokenizer",
    ]
    makers = [
        lambda: f"[{rng.randint(0, 99):3d}%] Building CXX object src/CMakeFiles/core.dir/{rng.choice(mods)}.cpp.o",
        lambda: f"src/{rng.choice(mods)}.c:{rng.randint(1, 900)}:5: warning: unused variable 'key' [-Wunused-variable]",
        lambda: (
            f"tests/test_{rng.choice(mods).replace('/', '_')}.py::test_password_reset_{rng.randint(0, 999)} "
            f"PASSED [{rng.randint(0, 99):3d}%]"
        ),
        lambda: f"tests/test_auth.py::test_token_refresh[case{rng.randint(0, 50)}] \x1b[32mPASSED\x1b[0m",
        lambda: (
            f"   Compiling {rng.choice(['serde', 'tokio', 'regex', 'ring'])} v1.{rng.randint(0, 40)}.{rng.randint(0, 9)}"
        ),
        lambda: (
            f"warning: unused import: `std::collections::HashMap` --> src/{rng.choice(mods)}.rs:{rng.randint(1, 300)}:5"
        ),
        lambda: f"=== RUN   TestTokenizer/case_{rng.randint(0, 999)}",
        lambda: f"--- PASS: TestSecretRotation/{rng.randint(0, 99)} (0.{rng.randint(0, 99):02d}s)",
        lambda: f"#{rng.randint(1, 20)} sha256:{hexes(64)} {rng.randint(1, 99)}.{rng.randint(0, 9)}MB / 45.6MB 0.4s",
        lambda: f"{hexes(7)} {rng.choice(['fix', 'feat', 'chore'])}(auth): rotate session keys without a restart",
        lambda: f'      "integrity": "sha512-{b64(86)}==",',
        lambda: f'  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.{rng.randint(0, 21)}.tgz#{hexes(40)}"',
        lambda: f"    --hash=sha256:{hexes(64)} \\",
        lambda: f"\tat com.example.auth.TokenService.refresh(TokenService.java:{rng.randint(1, 400)})",
        lambda: f"KeyError: 'missing_{rng.randint(0, 99)}'",
        lambda: "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
        lambda: f"asset main.{hexes(20)}.js {rng.randint(1, 900)} KiB [emitted] [immutable] (name: main)",
        lambda: (
            f"2024-05-{rng.randint(10, 28)}T12:{rng.randint(10, 59)}:00.123Z INFO request_id={hexes(8)}-{hexes(4)}"
            f"-{hexes(4)}-{hexes(4)}-{hexes(12)} status=200 duration_ms={rng.randint(1, 900)} path=/api/v1/users"
        ),
        lambda: (
            f"Parsed {rng.randint(1, 9999)} tokens in 0.{rng.randint(0, 999):03d}s (token_count={rng.randint(1, 99)})"
        ),
        lambda: (
            f'  File "/usr/lib/python3.12/site-packages/app/{rng.choice(mods)}.py", line {rng.randint(1, 999)}, '
            "in get_token"
        ),
        lambda: (
            f"Downloading https://files.pythonhosted.org/packages/{hexes(2)}/{hexes(2)}/{hexes(60)}/"
            "requests-2.31.0-py3-none-any.whl (62 kB)"
        ),
        lambda: f"ok   github.com/acme/api/internal/{rng.choice(mods)}\t0.{rng.randint(10, 999)}s",
        lambda: (
            f"    expected: {rng.randint(0, 99)}, actual: {rng.randint(0, 99)}  # keys compared: {rng.randint(1, 9)}"
        ),
        lambda: "",
    ]
    lines, total = [], 0
    while total < size:
        line = rng.choice(makers)()
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines) + "\n"


def test_four_mib_of_build_output_without_secrets_is_fast_and_unchanged():
    text = build_log()
    assert len(text) >= 4 * 1024 * 1024
    assert redact(text) == (text, {})
    # linear: 8× the text costs at most 8 × 1.5× the CPU (measured: ~1.05); no clock limit
    eighth = build_log(len(text) // 8)
    assert cost_ratio(lambda: redact(text), lambda: redact(eighth)) / 8 < 1.5


PEM_BODY_LINES = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRof\n" * 20
ADVERSARIAL = {
    "10,000 a": "a" * 10_000,
    "password= then 100 KB without spaces": "password=" + "x" * 100_000,
    "a PEM BEGIN without END, then 1 MB": "-----BEGIN RSA PRIVATE KEY-----\n"
    + PEM_BODY_LINES
    + "ordinary output line\n" * 50_000,
    "a PEM BEGIN then 1 MB of base64 lines": "-----BEGIN RSA PRIVATE KEY-----\n" + ("A" * 64 + "\n") * 16_000,
    "BEGIN lines only": "-----BEGIN PRIVATE KEY-----\n" * 30_000,
    "escaped newlines after BEGIN": "-----BEGIN PRIVATE KEY-----" + "\\n" * 500_000,
    "unclosed quotes": 'password="' * 20_000,
    "names without values": "password:'(" * 20_000,
    "separators": "=" * 500_000 + ":" * 500_000,
    "a long word ending in a name": "a" * 200_000 + "token=",
    "url prefixes": "://a:" * 50_000 + "://a:b" * 50_000,
    "url without @": "http://" + "a:b" * 100_000,
    "jwt prefixes": "eyJ-" * 100_000 + "eyJaaaaaaaaa.eyJ" * 30_000,
    "token prefixes": "&sig=" * 50_000 + "sk-" * 50_000 + "glpat-" * 50_000 + "xoxb-1-" * 50_000,
    "authorization headers": "authorization: " * 50_000,
    "bearer words": "bearer " * 100_000,
    "flags": "--password " * 50_000 + "--" + "a-" * 100_000,
    "k8s fields": "kind: Secret\ndata:\n" * 20_000,
    "k8s json fields": '"kind":"Secret","data":{' * 20_000,
    "a long quoted value": 'password: "' + "a\\" * 100_000,
    "a long YAML line": "password: " + "a b " * 100_000,
    "a Secret value then 200 KB of spaces": "kind: Secret\ndata:\n  k: v" + " " * 200_000 + "x\n",
}


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_adversarial_input_is_redacted_in_linear_time(name):
    """Each hostile shape costs at most 25× the CPU of redacting ordinary build output
    of the same size (measured: 0.2–5.5×); a super-linear pattern would cost
    hundreds of times more at these sizes, on any machine, however busy."""
    text = ADVERSARIAL[name]
    benign = build_log(max(len(text), 2000))
    redact("warm up")
    assert cost_ratio(lambda: redact(text), lambda: redact(benign), runs=2) < 25, name


def test_a_pem_without_end_stops_at_the_first_line_that_is_no_key():
    text = ADVERSARIAL["a PEM BEGIN without END, then 1 MB"]
    redacted, found = redact(text)
    assert redacted == "[REDACTED:private-key]\n" + "ordinary output line\n" * 50_000 and found == {"private-key": 1}


# -- the module ------------------------------------------------------------------------


def test_importing_the_module_compiles_nothing():
    code = (
        "import sys; import tokenjuice.state.redact as r; "
        "assert r._COMPILED is None and 'regex' not in sys.modules; "
        "r.redact('x'); assert r._COMPILED and 'regex' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_docstring_and_the_docs_name_every_kind():
    import tokenjuice.state.redact as module

    module.redact("")
    kinds = {
        "private-key",
        "pgp-private-key",
        "aws-secret-key",
        "aws-session-token",
        "bearer-token",
        "basic-auth",
        "auth-header",
        "url-password",
        "k8s-secret",
        "client-secret",
        "password",
        "secret-setting",
    }
    kinds |= {kind for kind, *_ in module._RULES}
    docs = (Path(__file__).resolve().parents[2] / "docs" / "redaction.md").read_text()
    for kind in kinds:
        assert f"`{kind}`" in (module.__doc__ or ""), kind
        assert f"`{kind}`" in docs, kind


@pytest.mark.parametrize(
    "text",
    [
        "\x1b[1mghp_abcdefghijklmnopqrstuvwxyz0123456789\x1b[0m",
        "\x1b[36mDB_PASSWORD\x1b[0m=hunter2hunter2",
        "\\x1b[1mghp_abcdefghijklmnopqrstuvwxyz0123456789\\x1b[0m",  # as sanitize shows the escapes
        "\\x1b[36mDB_PASSWORD\\x1b[0m=hunter2hunter2",
    ],
)
def test_a_secret_behind_an_escape_sequence_is_redacted(text):
    from tokenjuice.state.redact import might_hold_secrets

    assert might_hold_secrets(text)
    redacted, found = redact(text)
    assert "ghp_abc" not in redacted and "hunter2" not in redacted and found


def test_escapes_without_a_hidden_secret_stay():
    text = "\x1b[31mred\x1b[0m and ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    assert redact(text) == ("\x1b[31mred\x1b[0m and [REDACTED:github-token]", {"github-token": 1})


def _first_characters(items, ignorecase=False):
    """(character, ignorecase) pairs one of which starts every match of the parsed
    pattern `items` (the stdlib parser's tree), zero-width assertions passed over."""
    from re import _constants as op  # type: ignore[attr-defined]

    for code, value in items:
        if code is op.AT:
            continue
        if code is op.LITERAL:
            return {(chr(value), ignorecase)}
        if code is op.IN:
            assert all(kind is op.LITERAL for kind, _ in value), value
            return {(chr(char), ignorecase) for _, char in value}
        if code is op.SUBPATTERN:
            return _first_characters(value[3], ignorecase or bool(value[1] & op.SRE_FLAG_IGNORECASE))
        if code is op.BRANCH:
            return set().union(*(_first_characters(branch, ignorecase) for branch in value[1]))
        raise AssertionError(f"no first character known for {code}")
    raise AssertionError("an alternative that matches the empty text")


def test_the_suspect_lookahead_names_every_character_a_match_can_start_with():
    import re
    from re import _parser  # type: ignore[attr-defined]

    from tokenjuice.state.redact import _SUSPECT, _SUSPECT_FIRST

    assert _SUSPECT.startswith(_SUSPECT_FIRST)
    firsts = _first_characters(_parser.parse(_SUSPECT[len(_SUSPECT_FIRST) :]))
    every = "".join(map(chr, range(0x110000)))
    first = re.compile(_SUSPECT_FIRST)
    for char, ignorecase in sorted(firsts):
        alike = re.findall(f"(?i:{re.escape(char)})", every) if ignorecase else [char]
        assert alike and all(first.match(c) for c in alike), (char, [c for c in alike if not first.match(c)])


def _atoms(items, found):
    """The one-character tests (literals and classes) of the parsed pattern `items`."""
    from re import _constants as op  # type: ignore[attr-defined]

    for code, value in items:
        if code is op.LITERAL:
            found.add(re.escape(chr(value)))
        elif code is op.IN:
            found.add(str(value))
        elif code is op.SUBPATTERN:
            _atoms(value[3], found)
        elif code is op.BRANCH:
            for branch in value[1]:
                _atoms(branch, found)
        elif code in (op.MAX_REPEAT, op.MIN_REPEAT, op.POSSESSIVE_REPEAT):
            _atoms(value[2], found)
        else:
            raise AssertionError(f"not a one-character test: {code}")
    return found


#: The classes of `_SUSPECT_LOWER`, as written (the test below checks it has no other).
_LOWER_CLASSES = (r"\W", "[a-z0-9]", "[ \t]", "[:=]", "[\"']")


def test_the_lowered_text_matches_the_lower_case_words_where_the_text_matches_them_in_any_case():
    """For every character but `_FOLD_APART`'s: it lowers to one character, and each
    one-character test of `_SUSPECT_LOWER` matches the lowered character exactly when
    it matches the character case-insensitively, so the lowered search finds what the
    case-insensitive one would, at the same places."""
    from re import _parser  # type: ignore[attr-defined]

    from tokenjuice.state.redact import _FOLD_APART, _SUSPECT_LOWER

    atoms = _atoms(_parser.parse(_SUSPECT_LOWER), set())
    classes = {str(_parser.parse(c)[0][1]): c for c in _LOWER_CLASSES}
    assert atoms - {a for a in atoms if not a.startswith("[(")} <= set(classes), atoms
    every = "".join(chr(code) for code in range(0x110000) if chr(code) not in _FOLD_APART)
    lowered = every.lower()
    assert len(lowered) == len(every)
    for atom in sorted(atoms):
        test = classes.get(atom, atom)
        insensitive = [m.start() for m in re.finditer(f"(?i:{test})", every)]
        assert [m.start() for m in re.finditer(test, lowered)] == insensitive, test


_SUSPECT_PIECES = (
    # pieces of every alternative, in several cases, and the characters that fold apart
    *("bearer", "BEARER", "Bearer", "authorization", "AUTH", "auth", "kind", "KIND", "\u212aind", "secret"),
    *("SECRET", "\u017fecret", "cookie", "COOKIE", "sshpass", "SSHPASS", "s\u017fhpass", "htpasswd", "mysql"),
    *("MySQL", "mariadb", "key", "KEY", "\u212aey", "base", "token", "TOKEN", "word", "wd", "phrase", "pass"),
    *("pwd", "PWD", "password", "passwd", "passphrase", "--", "-", "-----BEGIN", "-----END", "AKIA", "ASIA"),
    *("AIza", "A", "ccountKey=", "AccountKey=", "SharedAccessKey=", "sig=", "ghp_", "gh", "github_pat_", "gl"),
    *("glpat-", "xox", "xapp-", "hooks.slack.com", "sk_live_", "rk_test_", "pk_", "whsec_", "sk-", "hf_", "SG."),
    *("npm_", "pypi-", "eyJ", "://", "u:p@", "@", ":", "=", " ", "\t", '"', "'", "\\", "\n", "_", "0", "a", "b"),
    *("\u0130", "\u0131", "\u017f", "\u212a", "\ufb01", "\ufb06", "\u00df", "\u2501", "\u00e9", "I", "i", "K"),
    *("\x1b[31m", "\\x1b[0m", "\x1b", "\\x1b", "\\x07", "\u1e9e", "\u03a3", "\u0345"),
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_SUSPECT_PIECES), max_size=12))
def test_the_prefilter_says_what_the_one_pattern_it_replaced_says(pieces):
    """`might_hold_secrets` (two searches, one in the lowered text) answers as
    `_SUSPECT`, the one pattern it stands for, on text and on text without escapes."""
    from tokenjuice.state.redact import _SUSPECT, _without_escapes, might_hold_secrets

    text = "".join(pieces)
    plain = _without_escapes(text)
    expected = re.search(_SUSPECT, text) is not None or re.search(_SUSPECT, plain) is not None
    assert might_hold_secrets(text) is expected

"""Claude Code's permission rules (tokenjuice.hosts.permissions.claude), read as Claude Code
reads them: rule syntax, wildcards, strict allow and loose deny matching, decisions per mode,
and launch flags that add rules."""

import os
import subprocess
import sys
import time

import pytest

from tokenjuice.hosts import ALLOW, ASK, DENY, NONE
from tokenjuice.hosts.permissions import claude as claude_permissions


@pytest.mark.parametrize(
    "entry, kind, content",
    [
        ("Bash", "all", ""),
        ("Bash(*)", "all", "*"),
        ("Bash(git status:*)", "prefix", "git status"),
        ("Bash(npm run test *)", "wildcard", "npm run test *"),
        ("Bash(echo \\*)", "exact", "echo \\*"),
        ("Bash(npm test)", "exact", "npm test"),
        ("Bash (rm)", "unknown", ""),
        ("Bash()", "unknown", ""),
    ],
)
def test_rules_are_read_like_claude(entry, kind, content):
    rule = claude_permissions.parse_rule(entry)
    assert (rule.kind, rule.content) == (kind, content)


@pytest.mark.parametrize("entry", ["Read(./.env)", "BashOutput", "bash(rm)", "WebFetch(domain:x)", 7, None])
def test_other_tools_rules_are_not_bash_rules(entry):
    assert claude_permissions.parse_rule(entry) is None


@pytest.mark.parametrize(
    "pattern, text, expected",
    [
        # from code.claude.com/docs/en/permissions
        ("ls *", "ls -la", True),
        ("ls *", "ls", True),
        ("ls *", "lsof", False),
        ("ls*", "lsof", True),
        ("git * main", "git checkout main", True),
        ("* install", "npm install", True),
        ("npm run test *", "npm run test:unit", False),
        ("echo \\*", "echo *", True),
        ("echo \\*", "echo x", False),
        ("a * b *", "a x b", False),
        ("echo *", "echo a\nb", True),
    ],
)
def test_wildcards_match_like_claude(pattern, text, expected):
    assert claude_permissions.wildcard(pattern, text) is expected


@pytest.mark.parametrize(
    "entry, text, strictly, loosely",
    [
        ("Bash(npm:*)", "npm install", True, True),
        ("Bash(npm:*)", "npm", True, True),
        ("Bash(npm:*)", "npmx", False, True),
        ("Bash(git push:*)", "git -C repo push origin", False, True),
        ("Bash(git status)", "git status", True, True),
        ("Bash(git status)", "git  status", False, True),
        ("Bash(Git Status)", "git status", False, True),
        ("Bash(ls *)", "ls -la", False, True),
        ("Bash", "anything at all", True, True),
        ("Bash(*)", "anything at all", False, True),
    ],
)
def test_allow_matching_is_strict_and_deny_matching_loose(entry, text, strictly, loosely):
    rule = claude_permissions.parse_rule(entry)
    assert claude_permissions.matches_strictly(rule, text) is strictly
    assert claude_permissions.matches_loosely(rule, text) is loosely


@pytest.mark.parametrize(
    "command, expected",
    [
        ("git status", True),
        ("npm test && npm run lint | tee x", False),
        ("npm test && npm run lint", True),
        ('git commit -m "fix the bug"', True),
        ('git commit --message="fix"', False),
        ("git log > out.txt", False),
        ("echo $HOME", False),
        ("cat ~/x", False),
        ("cat ../x", False),
        ("cat /etc/passwd", False),
        ("FOO=1 make", False),
        ("make &", False),
        ("(make)", False),
        ("make\nmake", False),
        ("find . -name x", False),
        ("git -C repo status", False),
        ("python -c x", False),
        ("cd sub && make", False),
        ("if make; then echo; fi", False),
    ],
)
def test_plain_commands(command, expected):
    assert claude_permissions.plain(command) is expected


def rules_of(allow=(), deny=(), ask=()):
    rules = claude_permissions.Rules()
    rules.allow = [claude_permissions.parse_rule(e) for e in allow]
    rules.deny = [claude_permissions.parse_rule(e) for e in deny]
    rules.ask = [claude_permissions.parse_rule(e) for e in ask]
    return rules


@pytest.mark.parametrize(
    "allow, deny, ask, mode, command, expected",
    [
        ((), (), (), "default", "make", ASK),
        ((), (), (), "bypassPermissions", "make", NONE),
        (("Bash(make:*)",), (), (), "bypassPermissions", "make", ALLOW),
        (("Bash(make:*)",), (), (), "dontAsk", "make", ALLOW),
        (("Bash(make:*)",), (), (), "acceptEdits", "make test", ALLOW),
        (("Bash(make:*)",), (), (), "plan", "make", ASK),
        (("Bash(make:*)",), ("Bash(make deploy)",), (), "default", "make deploy now", DENY),
        (("Bash(make:*)",), (), ("Bash(make:*)",), "bypassPermissions", "make", ASK),
        ((), ("Bash(rm:*)",), (), "bypassPermissions", "echo `rm x`", DENY),
        ((), ("Bash(rm:*)",), (), "bypassPermissions", "echo 'unclosed", DENY),
        ((), ("Bash(rm:*)",), (), "bypassPermissions", "echo fine", NONE),
        ((), (), (), "default", "", NONE),
    ],
)
def test_decisions(allow, deny, ask, mode, command, expected):
    assert claude_permissions.decide(command, rules_of(allow, deny, ask), mode) == expected


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_launch_flags_that_add_rules_make_the_answer_uncertain():
    with subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)", "--disallowedTools", "Bash(rm:*)"]
    ) as child:
        try:
            for _ in range(200):  # until the child has exec'd and shows its command line
                if claude_permissions._process(child.pid):
                    break
                time.sleep(0.01)
            assert claude_permissions.uncertain_launch_flag(start=child.pid, levels=1) == "--disallowedTools"
        finally:
            child.kill()
    assert claude_permissions.uncertain_launch_flag(start=os.getpid(), levels=1) is None

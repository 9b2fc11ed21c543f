"""Cursor CLI permission rules: entry syntax, Cursor's matcher, the config files and
the conservative answer for one command (docs/cursor-permissions.md)."""

from __future__ import annotations

import json

import pytest
from helpers import modules_loaded_by
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.hosts import ALLOW, ASK, DENY, NONE
from tokenjuice.hosts.permissions import cursor as cp


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def env(home, tmp_path):
    """HOME and an XDG_CONFIG_HOME without a cursor/ folder, no CURSOR_CONFIG_DIR."""
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}


def write(path, value, raw=False):
    path.parent.mkdir(parents=True, exist_ok=True)
    if raw:
        path.write_bytes(value if isinstance(value, bytes) else value.encode())
    else:
        path.write_text(json.dumps(value))
    return path


def user_config(home, allow=(), deny=(), **extra):
    return write(
        home / ".cursor" / "cli-config.json",
        {
            "version": 1,
            "editor": {"vimMode": False},
            "permissions": {"allow": list(allow), "deny": list(deny)},
            **extra,
        },
    )


def rules(*, allow=(), deny=()):
    loaded = cp.Rules()
    loaded.deny = [cp.parse_entry(e) for e in deny]
    loaded.allow_lists = [[cp.parse_entry(e) for e in allow]]
    loaded.has_rules = bool(allow or deny)
    return loaded


# -- entry syntax ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry, full, command, args",
    [
        ("Shell(ls)", "ls", "ls", None),
        ("Bash(ls)", "ls", "ls", None),
        ("  Shell ( git push )  ", "git push", "git push", None),
        ("Shell(git:push*)", "git:push*", "git", "push*"),
        ("Shell( npm : run test* )", "npm : run test*", "npm", "run test*"),
        ("Shell(curl https://x.test)", "curl https://x.test", "curl https", "//x.test"),
        ("Shell()", "", "", None),
        ("Shell((a))", "(a)", "(a)", None),
    ],
)
def test_parse_entry_splits_like_cursor(entry, full, command, args):
    parsed = cp.parse_entry(entry)
    assert (parsed.full, parsed.command, parsed.args) == (full, command, args)


@pytest.mark.parametrize(
    "entry",
    [
        "shell(ls)",
        "SHELL(ls)",
        "Shell",
        "Shell ls",
        "Shell(ls",
        "Read(src/**)",
        "Write(**/*.key)",
        "Mcp(server, tool)",
        "Shell(a\nb)",
        "Shell(a\rb)",
        "",
        7,
        None,
        ["Shell(ls)"],
        {"Shell": "ls"},
    ],
)
def test_parse_entry_rejects_what_cursor_does_not_read_as_shell(entry):
    assert cp.parse_entry(entry) is None


# -- Cursor's matcher -------------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, text, expected",
    [
        ("git", "git", True),
        ("git", "git status", False),  # a glob is anchored: the whole text
        ("git*", "git status", True),
        ("*status", "git status", True),
        ("g*t s*s", "git status", True),
        ("*", "", True),
        ("**", "anything at all", True),
        ("git?", "gitk", False),  # only `*` is a wildcard
        ("git?", "git?", True),
        ("[ab]", "a", False),
        ("Git*", "git status", False),  # case-sensitive
        ("  git*  ", "git x", True),  # the pattern is trimmed
        ("a*b*c", "a b\nb c", False),  # `*` stops at line breaks, as JavaScript's `.`
        ("echo *", "echo a\nb", False),
    ],
)
def test_glob(pattern, text, expected):
    assert cp.glob(pattern, text) is expected


def test_glob_dotall_crosses_line_breaks():
    assert cp.glob("echo *", "echo a\nb", dotall=True)
    assert cp.glob("a*b*c", "a b\nb c", dotall=True)


@pytest.mark.parametrize(
    "entry, text, expected",
    [
        ("Shell(git)", "git status", True),  # first word
        ("Shell(git)", "git", True),
        ("Shell(git)", "gitk --all", False),  # a word, not a prefix
        ("Shell(git)", "/usr/bin/git status", False),  # Cursor compares the word as written
        ("Shell(git push)", "git push --force", True),  # prefix on word boundary
        ("Shell(git push)", "git pushx", False),
        ("Shell(git push)", "git status", False),
        ("Shell(git push*)", "git pushx", True),
        ("Shell(git:push*)", "git push origin main", True),  # command:args-glob
        ("Shell(git:push*)", "git status", False),
        ("Shell(g*:push*)", "gh push", True),
        ("Shell(git:*)", "git", True),  # empty args still match `*`
        ("Shell(*)", "rm -rf /", True),
        ("Shell(r*)", "rm -rf /", True),  # the glob also runs against the first word
        ("Shell(*rm*)", "tokenjuice wrap -- sh -lc 'rm x'", True),
        ("Shell(rm)", "tokenjuice wrap -- sh -lc 'rm x'", False),  # why a rewrite launders
        ("Shell()", "ls", False),
        ("Shell(ls)", "  ls -la  ", True),  # the command text is trimmed
        ("Shell(ls -la)", "ls\t-la", False),  # the first word ends at a space only
    ],
)
def test_entry_matches_like_cursor(entry, text, expected):
    assert cp.entry_matches(cp.parse_entry(entry), text) is expected


# -- one command against rules in memory ---------------------------------------------------


def test_blank_command_has_no_opinion():
    assert cp.decide("   ", rules(allow=["Shell(*)"], deny=["Shell(rm)"])) == NONE


def test_no_rules_no_opinion():
    assert cp.decide("rm -rf build", cp.Rules()) == NONE


@pytest.mark.parametrize(
    "command, expected",
    [
        ("git status", ALLOW),
        ("git status && ls -la", ALLOW),  # every sub-command allowlisted
        ("git status; ls", ALLOW),
        ("git log | head -5", ASK),  # head is not on the list
        ("git log || ls", ALLOW),
        ("(git status; ls)", ALLOW),
        ("{ git status; ls; }", ALLOW),
        ("git status\nls", ALLOW),
        ("git status && npm install", ASK),  # one sub-command not allowlisted
        ("npm install && git status", ASK),
        ("FOO=1 BAR=2 git status", ALLOW),  # assignments are not the command
        ("git status 2>&1", ALLOW),
        ("git status 2>/dev/null", ALLOW),
        ("git status &>/dev/null", ALLOW),
        ("git status >&2", ALLOW),
        ("git status > out.txt", ASK),  # may write a file
        ("git status >> log", ASK),
        ("ls < input", ASK),
        ("git status 2>&-", ASK),
        ("ls <<EOF\nx\nEOF", ASK),
        ("ls <<< word", ASK),
        ("ls $(git rev-parse --show-toplevel)", ASK),  # substitutions: Cursor checks them too
        ("ls `git rev-parse --show-toplevel`", ASK),
        ("ls <(git status)", ASK),
        ("if git status; then ls; fi", ASK),  # control structures stay with Cursor
        ("for f in a b; do ls $f; done", ASK),
        ("! git status", ASK),
        ("git commit -m 'two\nlines'", ALLOW),  # `Shell(git)` is a prefix match: any text follows
        ("git status 'unterminated", ASK),
    ],
)
def test_allow_needs_every_sub_command_on_the_list(command, expected):
    assert cp.decide(command, rules(allow=["Shell(git)", "Shell(ls)"])) == expected


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build",
        "git status && rm -rf build",  # any sub-command
        "git status; rm -rf build",
        "git status || rm -rf build",
        "ls | rm -rf build",
        "(cd x; rm -rf build)",
        "FOO=1 rm -rf build",
        "sudo rm -rf build",  # behind wrappers, which Cursor itself does not look through
        "sudo -u root rm -rf build",
        "env A=1 rm -rf build",
        "timeout 5 rm -rf build",
        "nice -n 10 rm -rf build",
        "xargs rm < list",
        "command rm x",
        "/bin/rm -rf build",  # by path
        "if true; then rm x; fi",  # inside control structures
        "for f in *; do rm $f; done",
        "while true; do rm x; done",
        "! rm x",
        "bash -lc 'rm -rf build'",  # inside shell scripts
        "sh -c 'cd x && rm -rf build'",
        "zsh -xc 'rm x'",
        "/bin/bash --norc -c 'rm x'",
        "eval rm -rf build",
        "echo $(rm -rf build)",  # inside substitutions
        'echo "$(rm -rf build)"',
        "echo `rm -rf build`",
        "diff <(rm x) y",
        "bash -c 'echo $(sh -c \"rm x\")'",  # nested
        "tokenjuice wrap --source cursor --keep-path -- /usr/bin/zsh -lc 'git status && rm -rf build'",
        "echo 'rm x' | sh -c \"$(cat)\" ; rm y",
    ],
)
def test_deny_is_found_wherever_the_command_hides(command):
    assert cp.decide(command, rules(allow=["Shell(*)"], deny=["Shell(rm)"])) == DENY


@pytest.mark.parametrize(
    "command",
    [
        "rmdir build",
        "echo rm",
        "git rm --cached x",
        "grep -r rm .",
        "npm run format",
    ],
)
def test_deny_rule_keeps_word_boundaries(command):
    assert cp.decide(command, rules(allow=["Shell(*)"], deny=["Shell(rm)"])) == ALLOW


def test_deny_beats_allow():
    both = rules(allow=["Shell(git)", "Shell(git push*)", "Shell(*)"], deny=["Shell(git push)"])
    assert cp.decide("git push --force origin main", both) == DENY
    assert cp.decide("git status", both) == ALLOW


def test_deny_globs_and_colon_patterns():
    denied = rules(allow=["Shell(*)"], deny=["Shell(git push*)", "Shell(kubectl:delete *)", "Shell(*--force*)"])
    assert cp.decide("git push origin", denied) == DENY
    assert cp.decide("kubectl delete pod x", denied) == DENY
    assert cp.decide("kubectl get pods", denied) == ALLOW
    assert cp.decide("npm publish --force", denied) == DENY
    assert cp.decide("npm publish", denied) == ALLOW


def test_allow_glob_does_not_cross_line_breaks():
    # Cursor's `*` is JavaScript's `.*`, which stops at a line break.
    assert cp.decide("echo 'a\nb'", rules(allow=["Shell(echo *)"])) == ASK
    assert cp.decide("echo 'a b'", rules(allow=["Shell(echo *)"])) == ALLOW


def test_deny_rule_matches_across_line_breaks():
    # Cursor's own glob stops at line breaks; a possible deny counts as deny.
    assert cp.decide("git commit -m 'a\nrm'", rules(deny=["Shell(git commit*rm*)"])) == DENY


def test_unanalysable_command_is_a_possible_deny_when_deny_rules_exist():
    assert cp.decide("echo 'unterminated; rm x", rules(deny=["Shell(git push)"])) == DENY
    assert cp.decide("echo 'unterminated", rules(allow=["Shell(echo)"])) == ASK
    assert cp.decide("echo 'unterminated", cp.Rules()) == NONE


def test_nesting_too_deep_is_a_possible_deny():
    command = "x"
    for _ in range(cp.MAX_DEPTH + 3):
        command = f"echo $({command})"
    assert cp.decide(command, rules(deny=["Shell(never-used)"])) == DENY
    assert cp.decide(command, rules(allow=["Shell(echo)"])) == ASK


def test_deny_rules_without_an_allowlist_give_no_opinion_on_other_commands():
    deny_only = rules(deny=["Shell(rm)"])
    assert cp.decide("git status", deny_only) == NONE
    assert cp.decide("rm x", deny_only) == DENY


def test_the_wrapper_itself_can_be_checked():
    """The hook can ask whether Cursor would run its own rewrite without a prompt."""
    rewrite = "tokenjuice wrap --source cursor --keep-path -- /usr/bin/bash -lc 'git status'"
    assert cp.decide(rewrite, rules(allow=["Shell(git)"])) == ASK
    assert cp.decide(rewrite, rules(allow=["Shell(git)", "Shell(tokenjuice)"])) == ALLOW
    absolute = "/home/me/.local/bin/tokenjuice wrap -- /usr/bin/bash -lc 'git status'"
    assert cp.decide(absolute, rules(allow=["Shell(tokenjuice)"])) == ASK


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab rm|&;()$`'\"<>\\\n=*-c{}")), max_size=60))
def test_any_text_gets_one_of_the_four_answers(command):
    loaded = rules(allow=["Shell(a)", "Shell(b:*)"], deny=["Shell(rm)"])
    answer = cp.decide(command, loaded)
    assert answer in (DENY, ASK, ALLOW, NONE)
    if answer == ALLOW:
        # Never "allow" while rm appears as a command word anywhere.
        assert cp.decide(command, rules(allow=["Shell(*)"], deny=["Shell(rm)"])) == ALLOW


# -- the config files ---------------------------------------------------------------------


def test_no_config_files(env, home):
    assert cp.decision("rm -rf /", str(home), env=env) == NONE
    assert [status for _, status in cp.load_rules(str(home), env).files] == ["missing"] * 3


def test_user_config(env, home):
    user_config(home, allow=["Shell(git)", "Read(src/**)"], deny=["Shell(rm)", "Write(**/*.key)"])
    assert cp.decision("git status", env=env) == ALLOW
    assert cp.decision("rm x", env=env) == DENY
    assert cp.decision("npm test", env=env) == ASK


def test_cursor_config_dir_replaces_the_home_file(env, home, tmp_path):
    user_config(home, allow=["Shell(git)"])
    custom = tmp_path / "custom"
    write(custom / "cli-config.json", {"permissions": {"allow": ["Shell(npm)"], "deny": ["Shell(git)"]}})
    env = {**env, "CURSOR_CONFIG_DIR": str(custom)}
    assert cp.user_config_paths(env) == [str(custom / "cli-config.json")]
    assert cp.decision("git status", env=env) == DENY
    assert cp.decision("npm test", env=env) == ALLOW


def test_blank_cursor_config_dir_is_ignored(env, home):
    user_config(home, allow=["Shell(git)"])
    assert cp.decision("git status", env={**env, "CURSOR_CONFIG_DIR": "  "}) == ALLOW


def test_xdg_and_home_files_deny_union_allow_intersection(env, home, tmp_path):
    user_config(home, allow=["Shell(git)", "Shell(ls)"], deny=["Shell(rm)"])
    write(
        tmp_path / "xdg" / "cursor" / "cli-config.json",
        {"permissions": {"allow": ["Shell(git)", "Shell(npm)"], "deny": ["Shell(curl)"]}},
    )
    assert cp.decision("rm x", env=env) == DENY
    assert cp.decision("curl x", env=env) == DENY
    assert cp.decision("git status", env=env) == ALLOW
    assert cp.decision("ls", env=env) == ASK  # only one of the two allows it
    assert cp.decision("npm test", env=env) == ASK


def test_home_from_env_falls_back_to_the_real_home(monkeypatch, home):
    monkeypatch.setenv("HOME", str(home))
    user_config(home, deny=["Shell(rm)"])
    assert cp.decision("rm x", env={}) == DENY


@pytest.mark.parametrize(
    "content, status",
    [
        ("{not json", "not valid JSON"),
        ('{"permissions": {"allow": ["Shell(git)"]}} trailing', "not valid JSON"),
        ('// comment\n{"permissions": {}}', "not valid JSON"),  # the CLI reads pure JSON
        ("", "not valid JSON"),
        ("[]", "not a JSON object"),
        ('"text"', "not a JSON object"),
        ('{"permissions": ["Shell(git)"]}', "permissions is not an object"),
        ('{"permissions": {"allow": "Shell(git)"}}', "permissions.allow is not a list"),
        ('{"permissions": {"deny": {"x": 1}}}', "permissions.deny is not a list"),
        ('{"permissions": {"allow": null}}', "permissions.allow is not a list"),
        (b"\xff\xfe{}", "not valid JSON"),
    ],
)
def test_unparsable_user_file_is_unknown(env, home, content, status):
    write(home / ".cursor" / "cli-config.json", content, raw=True)
    loaded = cp.load_rules(None, env)
    assert (str(home / ".cursor" / "cli-config.json"), status) in loaded.files
    assert loaded.uncertain
    assert cp.decision("git status", env=env) == ASK
    assert cp.decision("anything", env=env) == ASK


def test_unknown_file_does_not_hide_deny_rules_of_another(env, home, tmp_path):
    user_config(home, allow=["Shell(*)"], deny=["Shell(rm)"])
    project = tmp_path / "project"
    write(project / ".cursor" / "cli.json", "{broken", raw=True)
    assert cp.decision("rm x", str(project), env=env) == DENY
    assert cp.decision("ls", str(project), env=env) == ASK


def test_byte_order_mark_keeps_deny_entries_drops_allow_entries(env, home):
    body = json.dumps({"permissions": {"allow": ["Shell(*)"], "deny": ["Shell(rm)"]}})
    write(home / ".cursor" / "cli-config.json", b"\xef\xbb\xbf" + body.encode(), raw=True)
    loaded = cp.load_rules(None, env)
    assert ("byte order mark" in dict(loaded.files).values()) and loaded.uncertain
    assert cp.decision("rm x", env=env) == DENY
    assert cp.decision("git status", env=env) == ASK


def test_too_large_file_is_unknown(env, home):
    padding = " " * (cp.MAX_CONFIG_BYTES + 1)
    write(home / ".cursor" / "cli-config.json", '{"permissions": {}}' + padding, raw=True)
    assert cp.decision("git status", env=env) == ASK


def test_unreadable_file_is_unknown(env, home):
    (home / ".cursor" / "cli-config.json").mkdir(parents=True)  # a folder where the file should be
    loaded = cp.load_rules(None, env)
    assert loaded.uncertain
    assert dict(loaded.files)[str(home / ".cursor" / "cli-config.json")].startswith("unreadable")
    assert cp.decision("git status", env=env) == ASK


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"version": 1},
        {"permissions": {}},
        {"permissions": {"allow": [], "deny": []}},
    ],
)
def test_missing_keys_mean_no_rules(env, home, value):
    write(home / ".cursor" / "cli-config.json", value)
    assert cp.decision("rm -rf /", env=env) == NONE
    assert not cp.load_rules(None, env).uncertain


def test_non_string_and_non_shell_entries_are_ignored(env, home):
    user_config(home, allow=[1, None, {"Shell": "git"}, "Read(**)", "Shell(git)"], deny=[["Shell(rm)"], "Write(**)", 3])
    assert cp.decision("git status", env=env) == ALLOW
    assert cp.decision("rm x", env=env) == ASK


def test_duplicate_keys_last_one_wins_like_json_parse(env, home):
    write(
        home / ".cursor" / "cli-config.json",
        '{"permissions": {"deny": ["Shell(git)"], "deny": ["Shell(rm)"], "allow": ["Shell(*)"]}}',
        raw=True,
    )
    assert cp.decision("git status", env=env) == ALLOW
    assert cp.decision("rm x", env=env) == DENY


# -- project files --------------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "pkg" / "sub").mkdir(parents=True)
    return root


def test_project_paths_walk_from_the_git_root(repo):
    paths = cp.project_config_paths(str(repo / "pkg" / "sub"))
    assert paths == [
        str(repo / ".cursor" / "cli.json"),
        str(repo / "pkg" / ".cursor" / "cli.json"),
        str(repo / "pkg" / "sub" / ".cursor" / "cli.json"),
    ]


def test_project_paths_without_git_root(tmp_path):
    plain = tmp_path / "plain" / "dir"
    plain.mkdir(parents=True)
    assert cp.project_config_paths(str(plain)) == [str(plain / ".cursor" / "cli.json")]
    assert cp.project_config_paths(None) == []
    assert cp.project_config_paths("") == []


def test_git_file_marks_a_root_too(tmp_path):
    worktree = tmp_path / "wt"
    (worktree / "src").mkdir(parents=True)
    (worktree / ".git").write_text("gitdir: /elsewhere\n")
    assert cp.project_config_paths(str(worktree / "src"))[0] == str(worktree / ".cursor" / "cli.json")


def test_project_deny_beats_user_allow(env, home, repo):
    user_config(home, allow=["Shell(*)"])
    write(repo / ".cursor" / "cli.json", {"permissions": {"deny": ["Shell(git push)"]}})
    assert cp.decision("git push", str(repo / "pkg"), env=env) == DENY


def test_deny_entries_from_every_project_level_count(env, home, repo):
    user_config(home, allow=["Shell(*)"])
    write(repo / ".cursor" / "cli.json", {"permissions": {"allow": ["Shell(*)"], "deny": ["Shell(rm)"]}})
    write(repo / "pkg" / ".cursor" / "cli.json", {"permissions": {"allow": ["Shell(*)"], "deny": ["Shell(curl)"]}})
    here = str(repo / "pkg" / "sub")
    assert cp.decision("rm x", here, env=env) == DENY
    assert cp.decision("curl x", here, env=env) == DENY
    assert cp.decision("ls", here, env=env) == ALLOW
    assert cp.decision("curl x", str(repo), env=env) == ALLOW  # the deeper file is not in force there


def test_allow_needs_user_and_deepest_project_list(env, home, repo):
    user_config(home, allow=["Shell(git)", "Shell(ls)"])
    write(repo / ".cursor" / "cli.json", {"permissions": {"allow": ["Shell(npm)", "Shell(ls)"]}})
    write(repo / "pkg" / ".cursor" / "cli.json", {"permissions": {"allow": ["Shell(git)", "Shell(ls)"]}})
    assert cp.decision("ls", str(repo / "pkg"), env=env) == ALLOW
    assert cp.decision("git status", str(repo / "pkg"), env=env) == ALLOW
    assert cp.decision("git status", str(repo), env=env) == ASK  # not on the root file's list
    assert cp.decision("npm test", str(repo), env=env) == ASK  # not on the user's list


def test_project_file_without_permissions_changes_nothing(env, home, repo):
    user_config(home, allow=["Shell(git)"])
    write(repo / ".cursor" / "cli.json", {"version": 1})
    assert cp.decision("git status", str(repo), env=env) == ALLOW


def test_project_permissions_without_allow_allow_nothing(env, home, repo):
    user_config(home, allow=["Shell(git)"])
    write(repo / ".cursor" / "cli.json", {"permissions": {"deny": ["Shell(rm)"]}})
    assert cp.decision("git status", str(repo), env=env) == ASK


def test_project_allow_alone_is_not_enough(env, home, repo):
    write(repo / ".cursor" / "cli.json", {"permissions": {"allow": ["Shell(git)"]}})
    assert cp.decision("git status", str(repo), env=env) == ASK


# -- the hot path ---------------------------------------------------------------------------------


def test_import_stays_light():
    loaded = modules_loaded_by("import tokenjuice.hosts.permissions.cursor")
    assert not loaded & {"re", "json", "fnmatch", "glob", "pathlib", "click", "regex", "tomllib"}

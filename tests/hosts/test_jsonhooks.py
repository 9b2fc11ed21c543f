"""jsonhooks for hosts whose hooks sit in matcher groups (`{"matcher", "hooks": [...]}`:
Claude Code, Codex, Gemini CLI): our group is replaced or removed whole, our hook
inside someone else's group leaves it, every other byte stays."""

import json

import pytest

from tokenjuice.files.editfile import EditError
from tokenjuice.hosts import jsonhooks, manage

LIST = ("hooks", "PreToolUse")


def ours(hook):
    return isinstance(hook, dict) and hook.get("command", "").startswith("tj-hook")


def install_in_group(path, list_path, entry, is_ours, **options):
    return jsonhooks.install_many(path, [(list_path, entry)], is_ours, nested="hooks", **options)


def uninstall_from_groups(path, list_path, is_ours):
    return jsonhooks.uninstall_many(path, [list_path], is_ours, nested="hooks")


def group(command="tj-hook v2"):
    return {"matcher": "^Bash$", "hooks": [{"type": "command", "command": command, "timeout": 10}]}


ORIGINAL = """{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "./fmt.sh"}]},
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "./audit.sh", "timeout": 2.50},
          {"type": "command", "command": "tj-hook v1"}
        ]
      }
    ],
    "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "./log.sh"}]}]
  },
  "other": {"keep": [1, 2.50, "é", null]}
}
"""


@pytest.fixture
def settings(tmp_path):
    path = tmp_path / "hooks.json"
    path.write_text(ORIGINAL)
    return path


def test_our_hook_is_moved_out_of_a_foreign_group_and_gets_its_own(settings):
    result = install_in_group(str(settings), LIST, group(), ours, notes=["approve it"])
    assert result.action == "updated" and result.notes == ["approve it"]
    data = json.loads(settings.read_text())
    assert data["hooks"]["PreToolUse"] == [
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "./fmt.sh"}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 2.5}]},
        group(),
    ]
    text = settings.read_text()
    assert '"other": {"keep": [1, 2.50, "é", null]}' in text
    assert '{"matcher": "Edit", "hooks": [{"type": "command", "command": "./fmt.sh"}]}' in text
    assert '"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "./log.sh"}]}]' in text
    assert install_in_group(str(settings), LIST, group(), ours).action == "unchanged"


def test_uninstall_restores_the_bytes_and_after_edits_removes_only_ours(settings):
    install_in_group(str(settings), LIST, group(), ours)
    assert uninstall_from_groups(str(settings), LIST, ours).action == "restored"
    assert settings.read_text() == ORIGINAL
    # the original holds our hook inside a foreign group: uninstall takes only it out
    result = uninstall_from_groups(str(settings), LIST, ours)
    assert result.action == "removed"
    data = json.loads(settings.read_text())
    assert data["hooks"]["PreToolUse"][1] == {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 2.5}],
    }
    assert uninstall_from_groups(str(settings), LIST, ours).action == "absent"


def test_groups_that_are_all_ours_are_ours_and_duplicates_collapse(tmp_path):
    path = tmp_path / "hooks.json"
    doubled = {"matcher": "Bash", "hooks": [{"command": "tj-hook old"}, {"command": "tj-hook older"}]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [doubled, group("tj-hook v0")]}}))
    assert jsonhooks.strip([doubled, {"hooks": []}, {"hooks": "x"}], ours, "hooks") == [{"hooks": []}, {"hooks": "x"}]
    assert install_in_group(str(path), LIST, group(), ours).action == "updated"
    assert json.loads(path.read_text())["hooks"]["PreToolUse"] == [group()]
    assert uninstall_from_groups(str(path), LIST, ours).action == "restored"


def test_a_fresh_file_is_created_from_the_skeleton_and_removed_again(tmp_path):
    path = tmp_path / "sub" / "hooks.json"
    result = install_in_group(str(path), LIST, group(), ours, skeleton={"hooks": {}})
    assert result.action == "installed"
    assert json.loads(path.read_text()) == {"hooks": {"PreToolUse": [group()]}}
    assert uninstall_from_groups(str(path), LIST, ours).action == "removed the file install created"
    assert not path.exists()


@pytest.mark.parametrize(
    "content, problem",
    [
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"PreToolUse": {}}}', '"hooks.PreToolUse" is not a list'),
    ],
)
def test_shapes_a_host_would_not_accept_are_refused(tmp_path, content, problem):
    path = tmp_path / "hooks.json"
    path.write_text(content)
    with pytest.raises(EditError, match=problem):
        install_in_group(str(path), LIST, group(), ours)
    assert path.read_text() == content


def test_malformed_groups_of_others_are_kept_as_they_are(tmp_path):
    path = tmp_path / "hooks.json"
    odd = ["text", {"matcher": "x"}, {"hooks": "not a list"}, {"hooks": [1, None]}]
    path.write_text(json.dumps({"hooks": {"PreToolUse": odd}}))
    install_in_group(str(path), LIST, group(), ours)
    assert json.loads(path.read_text())["hooks"]["PreToolUse"] == odd + [group()]


def test_flat_lists_behave_as_before(tmp_path):
    path = tmp_path / "hooks.json"
    path.write_text('{"hooks": {"preToolUse": [{"command": "tj-hook a"}, {"command": "x"}]}}')
    flat = ("hooks", "preToolUse")
    assert jsonhooks.install_many(str(path), [(flat, {"command": "tj-hook a"})], ours).action == "unchanged"
    assert jsonhooks.uninstall_many(str(path), [flat], ours).action == "removed"
    assert json.loads(path.read_text())["hooks"]["preToolUse"] == [{"command": "x"}]


def test_result_carries_notes_to_the_install_output():
    result = manage.Result("p", "installed", notes=["approve it"])
    assert result.to_dict()["notes"] == ["approve it"]

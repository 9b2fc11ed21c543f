"""The reduction engine (tokenjuice.reduce.engine and its pipeline): head and tail, filters,
counters, the budget, escapes, exit codes and passthrough, through one rule at a time."""

import itertools
import json
import re

import pytest
from conftest import reduce_wire
from helpers import FALLBACK, lines, make, run

from tokenjuice.fast.record import replace
from tokenjuice.reduce.budget import SUCCESS_CHARS
from tokenjuice.rules.index import Catalogue
from tokenjuice.rules.model import Match, MatchEntry
from tokenjuice.rules.verify import unexplained_lines


def test_result_shape_and_key_order():
    result = run(lines(200), make(counters=[{"name": "line", "pattern": "^line"}]), trace=True)
    assert list(result) == ["inlineText", "facts", "compaction", "trace", "stats", "classification"]
    assert result["classification"] == {
        "family": "tool-output",
        "confidence": 0.9,
        "matchedReducer": "tool/x",
        "matchedVia": "original",
        "matchedCommand": "tool run",
    }
    assert result["trace"]["normalizedArgv"] == ["tool", "run"]
    assert result["facts"] == {"line": 200}
    stats = result["stats"]
    assert stats["reducedChars"] == len(result["inlineText"]) and stats["rawChars"] > stats["reducedChars"]


def test_head_tail_with_marker_and_trailer():
    text = run(lines(200), make(summarize={"head": 3, "tail": 2, "fill": False}))["inlineText"].splitlines()
    assert text[:3] == [f"line {i:04d} with some padding to look like real output" for i in range(3)]
    assert text[3] == "... 195 lines omitted ..."
    assert text[4:6] == [
        "line 0198 with some padding to look like real output",
        "line 0199 with some padding to look like real output",
    ]
    assert text[-1] == "(tokenjuice: 195 of 200 lines omitted — full output: RAW)"


def test_head_and_tail_are_the_least_shown_the_budget_goes_to_the_lines_between():
    # 300 lines of 53 characters (15,900) against a 6,000 character budget: the rule's
    # 3 + 2 lines would show a twentieth of what the agent may see
    output = lines(300)
    output = output.replace("line 0150 with", "line 0150 error: disk full with")
    result = run(output, make(summarize={"head": 3, "tail": 2}, pin_patterns=["error:"]), max_inline_chars=6000)
    text = result["inlineText"]
    shown = text.splitlines()
    assert 5700 <= len(text) <= 6000
    assert shown[0].startswith("line 0000") and shown[-2].startswith("line 0299")
    assert any(line.startswith("line 0150 error: disk full") for line in shown)  # pinned, from the middle
    kept = [int(line.split()[1]) for line in shown if line.startswith("line ")]
    assert len(kept) > 90 and kept == sorted(kept)
    # from both ends inwards, the start a little more: one run cut before the pin and one after it
    assert sum(line.startswith("... ") for line in shown) == 2
    assert result["compaction"]["kinds"] == ["head-tail", "size-clamp"]


def test_the_lines_a_budget_fills_with_are_squeezed_of_their_padding_first():
    # `getent services`-like columns: 400 lines of 40 characters, 20 of them padding
    output = "".join(f"{'svc' + str(i):<20}{i}/tcp alias{i}\n" for i in range(400))
    result = run(output, make(summarize={"head": 3, "tail": 2}), max_inline_chars=6000)
    shown = [line for line in result["inlineText"].splitlines() if line.startswith("svc")]
    assert all("   " not in line for line in shown)  # lossless: two spaces still part the columns
    assert "svc0  0/tcp alias0" in shown and "svc399  399/tcp alias399" in shown
    assert len(shown) > 6000 // 40  # more lines than the padded ones would have fitted


def test_a_unit_rules_output_with_no_unit_in_it_fills_the_budget_too():
    # `ls -la` of one folder: the ls rule cuts `ls -R` by folders, this has none
    from tokenjuice.commands.wire import reduce_payload
    from tokenjuice.reduce.budget import SUCCESS_CHARS

    entries = "".join(f"-rw-r--r-- 1 dev dev {i * 37:>6} Dec  7 01:00 module_{i:03d}.py\n" for i in range(600))
    payload = {"toolName": "exec", "command": "ls -la src", "combinedText": "total 2400\n" + entries, "exitCode": 0}
    text = reduce_payload(payload, builtin_only=True)["inlineText"]
    names = [line for line in text.splitlines() if line.endswith(".py")]
    assert len(text) <= SUCCESS_CHARS and len(names) > 60  # the rule's head and tail are 20 and 8
    assert names[0].endswith("module_000.py") and names[-1].endswith("module_599.py")


def test_a_flood_spends_the_budget_on_its_ends_and_its_pinned_lines_however_long():
    # 60,000 lines, two failures far inside: only lines within the budget's count of
    # either end, and pinned lines, can be shown; the rest is one run each side
    output = "".join(f"{i}\n" for i in range(60_000))
    output = output.replace("\n20000\n", "\nerror: 20000 went wrong\n").replace("\n41000\n", "\nerror: 41000 too\n")
    result = run(output, make(summarize={"head": 3, "tail": 2}, pin_patterns=["^error:"]), max_inline_chars=6000)
    shown = result["inlineText"].splitlines()
    assert "error: 20000 went wrong" in shown and "error: 41000 too" in shown
    assert shown[0] == "0" and shown[-2] == "59999" and len(result["inlineText"]) <= 6000
    assert sum(line.endswith(" lines omitted ...") for line in shown) == 3
    assert shown[-1] == f"(tokenjuice: {60_000 - len(shown) + 1 + 3:,} of 60,000 lines omitted — full output: RAW)"


def test_an_output_that_fits_the_budget_itself_needs_no_room_for_a_trailer():
    output = lines(100)  # 5,300 characters: within the budget, though not within the budget less a trailer's room
    assert len(output) == 5300
    result = run(output, make(summarize={"head": 3, "tail": 2}), max_inline_chars=5350)
    assert result["inlineText"] == output.rstrip("\n")
    assert len(run(output, make(summarize={"head": 3, "tail": 2}), max_inline_chars=5200)["inlineText"]) <= 5200


def test_failure_widens_head_tail_and_says_exit_first():
    rule = make(summarize={"head": 2, "tail": 2, "fill": False}, failure={"head": 5, "tail": 5})
    text = run(lines(200), rule, exit_code=2)["inlineText"].splitlines()
    assert text[0] == "exit 2"
    assert "... 190 lines omitted ..." in text


def test_failure_without_preserve_uses_summarize_numbers():
    rule = make(
        summarize={"head": 2, "tail": 2, "fill": False},
        failure={"preserve_on_failure": False, "head": 9, "tail": 9},
    )
    assert "... 196 lines omitted ..." in run(lines(200), rule, exit_code=1)["inlineText"]


def test_exit_code_is_never_lost_even_without_output():
    result = run("", exit_code=4)
    assert result["inlineText"] == "exit 4"


def test_tiny_output_passes_through():
    result = run("hello\nworld\n", make(skip_patterns=["hello"]))
    assert result["inlineText"] == "hello\nworld"
    assert result["passthrough"] == "tiny"


def test_an_output_that_fits_is_shown_whole_and_never_longer():
    output = lines(12)  # fits the budget: no head/tail cut; its one noise line goes, not worth a trailer
    result = run(output, make(skip_patterns=["^line 0003"], summarize={"head": 2, "tail": 2}))
    assert result["passthrough"] == "noise-only"
    assert result["inlineText"] == "\n".join(line for line in output.strip().split("\n") if "line 0003" not in line)
    assert run(output, make(summarize={"head": 2, "tail": 2}))["passthrough"] == "fits"  # no noise: as it is


def test_forty_lines_never_lose_a_content_line_to_a_middle_cut():
    output = "".join(f"src/module_{i:02d}.py:{i}: warning: something worth reading\n" for i in range(20)) + "".join(
        f"progress {i}%\n" for i in range(20)
    )
    result = run(output, make(skip_patterns=["^progress"], summarize={"head": 3, "tail": 3, "max_chars": 1600}))
    text = result["inlineText"]
    assert all(f"src/module_{i:02d}.py" in text for i in range(20))
    assert "progress" not in text and "(tokenjuice: 20 of 40 lines omitted — full output: RAW)" in text


def test_a_rule_that_does_not_shrink_a_big_output_still_fits_it_into_the_budget():
    output = lines(300)
    result = run(output, make(skip_patterns=["^line 0003"], summarize={"head": 1000, "tail": 1000}))
    text = result["inlineText"]
    assert len(text) <= SUCCESS_CHARS and "line 0003" not in text and "line 0000" in text and "line 0299" in text
    assert text.endswith("lines omitted — full output: RAW)")


def test_skip_then_keep_and_counter_sources():
    output = "".join(f"ok {i}\n" for i in range(1400)) + "FAIL a\nFAIL b\nnoise\n" * 2
    rule = make(
        skip_patterns=["^noise$"],
        keep_patterns=["^FAIL"],
        counters=[{"name": "ok", "pattern": "^ok"}, {"name": "failure", "pattern": "^FAIL"}],
        counter_source="pre_keep",
    )
    result = run(output, rule)
    assert result["facts"] == {"ok": 1400, "failure": 4}
    assert "ok 5" not in result["inlineText"] and "FAIL b" in result["inlineText"]
    post = run(output, replace(rule, counter_source="post_keep"))
    assert post["facts"] == {"ok": 0, "failure": 4}


def test_keep_patterns_that_match_nothing_keep_everything():
    result = run(lines(300), make(keep_patterns=["^NOPE"], summarize={"head": 1, "tail": 1, "fill": False}))
    assert "... 298 lines omitted ..." in result["inlineText"]


def test_match_output_short_circuits():
    rule = make(
        match_output=[{"pattern": r"up to date, audited \d+ packages", "message": "install: up to date", "flags": "i"}]
    )
    output = "\n".join([f"npm notice {i}" for i in range(800)] + ["Up to date, audited 120 packages in 2s"]) + "\n"
    result = run(output, rule)
    assert result["inlineText"].splitlines()[0] == "install: up to date"
    assert "facts" not in result


def test_on_empty():
    result = run(lines(50), make(skip_patterns=["^line"], on_empty="nothing to report"))
    assert result["inlineText"].startswith("nothing to report")


def test_dedupe_marks_long_runs_only():
    output = "start\n" + "same line repeated\n" * 40 + "x\n" * 2 + "end\n" + lines(20)
    text = run(output, make(summarize={"head": 100, "tail": 100}))["inlineText"]
    assert "same line repeated\n... 39 identical lines omitted ..." in text
    assert "x\nend" in text


def test_strip_ansi_and_carriage_return_progress():
    output = "\x1b[32mPASS\x1b[0m one\n" + "\r".join(f"progress {i}%" for i in range(101)) + "\n" + lines(30)
    text = run(output, make())["inlineText"]
    assert "\x1b" not in text and "PASS one" in text
    assert "progress 100%" in text and "progress 50%" not in text


def test_ansi_kept_when_the_rule_disables_stripping_is_shown_escaped():
    output = "\x1b[1mbold\x1b[0m\n" + lines(300)
    text = run(output, make(transforms={"strip_ansi": False}))["inlineText"]
    assert text.startswith("\\x1b[1mbold\\x1b[0m") and "\x1b" not in text


@pytest.mark.parametrize("hiding", ["\x07", "\x08", "\x00", "\x9b", "\u202e", "\u2066", "\u200f", "\x1b"])
def test_characters_that_hide_text_are_escaped_even_in_tiny_outputs(hiding):
    for output in (f"ok{hiding}ko\n", f"ok{hiding}ko\n" + lines(300)):
        text = run(output, make())["inlineText"]
        assert hiding not in text and ("ok\\" in text or hiding == "\x1b")  # an ESC sequence is stripped
    assert run(f"a{hiding}b\n", make(), raw=True)["inlineText"] == f"a{hiding}b\n"  # raw means raw


def test_pretty_print_json_splits_one_line_documents():
    doc = json.dumps({"items": [{"name": f"n{i}", "value": i} for i in range(400)]})
    result = run(doc, make(transforms={"pretty_print_json": True}, summarize={"head": 4, "tail": 2}))
    assert result["inlineText"].splitlines()[:2] == ["{", '  "items": [']
    assert unexplained_lines(doc, result["inlineText"], make(transforms={"pretty_print_json": True})) == []


def test_pinned_lines_survive_head_tail_and_the_budget():
    output = lines(300) + "ERROR: the one line that matters\n" + lines(300, "more")
    rule = make(pin_patterns=["^ERROR"], summarize={"head": 5, "tail": 5, "max_chars": 600})
    text = run(output, rule)["inlineText"]
    assert "ERROR: the one line that matters" in text
    assert len(text) < 900


def test_budget_clips_long_lines_and_cuts_the_middle():
    output = "x" * 5000 + "\n" + lines(400)
    result = run(output, make(summarize={"head": 1000, "tail": 1000}), max_inline_chars=800)
    text = result["inlineText"]
    assert len(text) <= 800 + 200
    assert "chars omitted]…" in text and "lines omitted ..." in text
    assert "1 long line clipped" in text.splitlines()[-1]
    assert unexplained_lines(output, text) == []


def test_fallback_calls_error_words_mentions_on_success():
    output = "".join(f"step {i}: no error here\n" for i in range(600))
    assert "600 error mentions" in run(output, command="unknown-tool")["inlineText"]
    assert "600 errors" in run(output, command="unknown-tool", exit_code=1)["inlineText"]


def test_file_reads_stay_exact_but_for_characters_that_hide_text():
    output = "\x1b[31m" + lines(400)
    result = run(output, command="cat big.log")
    assert result["inlineText"] == output.replace("\x1b", "\\x1b")
    assert result["passthrough"] == "file-content"
    assert result["stats"]["ratio"] == 1
    huge = run(lines(2000), command="cat huge.log")  # beyond what is shown whole: cut, and said so
    assert huge["passthrough"] == "file-content-cut" and len(huge["inlineText"]) <= 16 * 1024
    assert "line 0000" in huge["inlineText"] and "line 1999" in huge["inlineText"]
    assert "lines omitted — full output: RAW)" in huge["inlineText"]


def test_an_exact_read_too_big_is_cut_with_the_knowledge_of_the_rule_that_recognises_it():
    rule = make(
        match={"argv0": ["tool"], "output": ["^tool run summary: "]},
        filters={"skip_patterns": [r"^progress \d+"], "trim_patterns": [r"^detail "], "pin_patterns": [r"^PROBLEM "]},
    )
    body = []
    for k in range(1200):
        body += [f"progress {k} of 1200, still going", f"detail {k} of what step {k} did, worth least here"]
        body += [f"step {k:04d} done, the result written to out/step-{k:04d}.json with its checksum and timing"]
        body += [f"PROBLEM at step {k}"] if k == 600 else []
    output = "\n".join([*body, "tool run summary: 1200 steps"]) + "\n"
    small = "\n".join(body[:300]) + "\ntool run summary: 75 steps\n"
    assert run(small, rule, command="cat run.log")["inlineText"] == small  # under the cap: verbatim
    result = run(output, rule, command="cat run.log", trace=True)
    text = result["inlineText"]
    assert result["passthrough"] == "file-content-cut" and result["classification"]["matchedVia"] == "output"
    assert "progress " not in text and "detail " not in text  # its noise and its worth-least lines went first
    assert (
        "PROBLEM at step 600" in text
        and "step 0000 done" in text
        and "step 1199 done" in text
        and "tool run summary: 1200 steps" in text
    )
    assert 8 * 1024 < len(text) <= 16 * 1024  # the read's budget, not the rule's head and tail
    assert unexplained_lines(output, text) == []


def test_raw_option_is_exact():
    output = "a\x1b[1mb\n" + lines(500)
    result = run(output, make(), raw=True)
    assert result["inlineText"] == output and result["stats"]["ratio"] == 1


def test_forced_classifier():
    result = run(lines(100), make("other/y", match={"argv0": ["nope"]}), classifier="other/y")
    assert result["classification"] == {"family": "tool-output", "confidence": 1.0, "matchedReducer": "other/y"}


def test_stdout_and_stderr_are_joined_when_no_combined_text():
    result = reduce_wire([FALLBACK], command="tool", stdout="out", stderr="err")
    assert result["inlineText"] == "out\nerr"


def test_catastrophic_user_pattern_is_bounded_and_marked():
    rule = make(layer="project", skip_patterns=["^(a|aa)+$"])
    output = ("a" * 34 + "b\n") * 50 + lines(50)
    result = run(output, rule)
    assert result["passthrough"] == "pattern-timeout"  # the budget tokenjuice enforces, reported
    assert "rule tool/x (tool/x.toml) timed out; output left unreduced" in result["inlineText"]


def test_json_rules_keep_javascript_semantics():
    rule = make(json_style=True, **{"counters": [{"name": "digit", "pattern": r"^\d$"}]})
    result = run("٣\n3\n" + lines(40), rule)
    assert result["facts"] == {"digit": 1}  # Arabic-Indic three is not \d in JavaScript


@pytest.mark.parametrize(
    "output",
    [
        "",
        "\n\n\n",
        "\x00\x01binary\xff",
        "\r\r\r",
        "a" * 200_000,
        "\x1b[" * 1000,
        "é\u200dé\n" * 500,
        "[" * 100_000,
        '{"a":' * 5000,
    ],
)
@pytest.mark.parametrize("formatter", [None, "gh", "search", "git-diff"])
def test_odd_outputs_never_crash_and_invent_nothing(output, formatter):
    rule = make(
        pin_patterns=["a"],
        counters=[{"name": "a", "pattern": "a"}],
        formatter=formatter,
        transforms={"pretty_print_json": True},
    )
    result = run(output, rule, exit_code=1)
    assert unexplained_lines(output, result["inlineText"], rule) == []


def test_counters_can_see_lines_before_the_skip_filters():
    output = "".join(f"Opening segment {i} for writing\n" for i in range(60)) + "done\n"
    rule = make(
        skip_patterns=["^Opening segment"],
        counters=[{"name": "segment", "pattern": "^Opening segment"}],
        counter_source="pre_skip",
    )
    assert run(output, rule)["facts"] == {"segment": 60}
    assert run(output, replace(rule, counter_source="pre_keep"))["facts"] == {"segment": 0}


def test_a_flood_shows_its_first_lines_and_never_crowds_out_what_was_asked_for():
    """`find /` as a user: hundreds of unreadable folders around a few paths found. The
    flood's first lines are shown (pinned like every error of the tool), the rest go and
    are counted; the paths all stay, however small or big the output."""
    from tokenjuice.reduce.pipeline import FLOOD_SHOWN

    def output(denied: int) -> str:
        body = [f"find: '/proc/{k}/fd': Permission denied" for k in range(denied)]
        for at, path in (
            (3, "/usr/lib/libuv.so.1"),
            (denied // 2, "/usr/share/doc/libuv1"),
            (denied, "/var/lib/libuv.list"),
        ):
            body.insert(at, path)
        return "\n".join(body) + "\n"

    rule = make(
        filters={"pin_patterns": ["^find: "], "flood_patterns": ["^find: .*: Permission denied$"]},
        counters=[{"name": "match", "pattern": "^/"}, {"name": "permission denied", "pattern": "Permission denied$"}],
        counter_source="pre_skip",
    )
    for denied in (40, 2000):
        result = run(output(denied), rule, exit_code=1)
        text = result["inlineText"]
        assert result["facts"] == {"match": 3, "permission denied": denied}
        assert all(p in text for p in ("/usr/lib/libuv.so.1", "/usr/share/doc/libuv1", "/var/lib/libuv.list"))
        shown = [k for k in range(denied) if f"'/proc/{k}/fd'" in text]
        assert shown == list(range(FLOOD_SHOWN))
    few = output(FLOOD_SHOWN)  # no flood: every error stays
    assert all(f"'/proc/{k}/fd'" in run(few, rule, exit_code=1)["inlineText"] for k in range(FLOOD_SHOWN))


@pytest.mark.parametrize("layer", ["builtin", "user"])
def test_a_counter_with_a_count_group_adds_up_the_numbers_it_captures(layer):
    """A tool's own summary line gives the count (`2 failed, 7 passed in 0.1s`), for
    built-in rules (stdlib `re`) and user rules (`regex` under the time budget) alike."""
    output = "".join(f"case {i}\n" for i in range(300)) + "2 failed, 7 passed in 0.1s\n3 failed in 0.2s\n"
    counters = [
        {"name": "failed test", "pattern": r"(?P<count>\d+) failed\b"},
        {"name": "passed test", "pattern": r"(?P<count>\d+) passed\b"},
        {"name": "summary", "pattern": r" in \d"},
    ]
    rule = make(layer=layer, counters=counters)
    assert run(output, rule)["facts"] == {"failed test": 5, "passed test": 7, "summary": 2}
    odd = make(layer=layer, counters=[{"name": "x", "pattern": r"(?P<count>[a-z]+) failed"}])
    assert run("alpha failed\n" + output, odd)["facts"] == {"x": 0}  # captures no number: adds nothing


def test_a_result_is_never_longer_than_its_input():
    output = "".join(f"Resolving dependency {i}\n" for i in range(14)) + "done\n"
    rule = make(skip_patterns=["^Resolving"], summarize={"head": 1, "tail": 1})
    result = run(output, rule)
    assert len(result["inlineText"]) <= len(output)


def test_counts_appear_when_only_the_budget_cut_lines():
    output = "".join(f"container-{i:02d}   running   {'x' * 60}\n" for i in range(12))
    rule = make(summarize={"head": 100, "tail": 100}, counters=[{"name": "container", "pattern": "^container"}])
    text = run(output, rule, max_inline_chars=400)["inlineText"]
    assert text.splitlines()[0] == "12 containers" and "lines omitted" in text


def test_a_rule_that_filters_a_little_still_wins_over_cutting_raw_output():
    output = "".join(f"Please enter your choice {i}\n" for i in range(5)) + "".join(
        f"diagnostic line {i} with a reasonably long explanation\n" for i in range(200)
    )
    rule = make(skip_patterns=["^Please enter"])
    assert "Please enter" not in run(output, rule)["inlineText"]


class _BodiesForbidden(Catalogue):
    """A catalogue whose rule bodies must not be read."""

    def __init__(self):
        super().__init__([MatchEntry("generic/fallback", "generic", 0, Match())], [])

    def body(self, rule_id):
        raise AssertionError(f"read the body of {rule_id}")


def test_a_tiny_output_without_facts_runs_no_rule():
    execution = {"command": "tool run", "combined": "all good\n", "exit_code": 0}
    result = reduce_wire(_BodiesForbidden(), facts=False, **execution)
    assert result["inlineText"] == "all good" and result["passthrough"] == "tiny" and "facts" not in result
    with pytest.raises(AssertionError, match="read the body"):
        reduce_wire(_BodiesForbidden(), **execution)  # facts need the rule


def test_an_output_is_never_shown_longer_than_it_was():
    # a failing run that fits: `exit 1`, a counts line and a trailer would make it longer
    output = "".join(f"src/m{i}.py:3: error: Name 'x{i}' is not defined  [name-defined]\n" for i in range(20))
    rule = make(family="lint-results", counters=[{"name": "error", "pattern": ": error: "}])
    result = run(output, rule, exit_code=1, command="tool check")
    assert result["inlineText"].rstrip("\n") == output.rstrip("\n")  # as it was: nothing added
    assert result["passthrough"] == "not-longer"
    # where only noise went and a trailer would cost more than it saved: the noise goes, nothing is added
    noisy = output + "".join(f"progress {i}%\n" for i in range(3))
    result = run(
        noisy, make(skip_patterns=["^progress"], counters=[{"name": "error", "pattern": ": error: "}]), exit_code=1
    )
    assert result["inlineText"] == output.rstrip("\n") and result["passthrough"] == "noise-only"
    # a tiny failing output keeps the status above it
    assert run("nope\n", exit_code=2)["inlineText"] == "exit 2\nnope"


def test_the_final_clamp_leaves_a_line_its_unit_clipped_as_it_is():
    """A line a unit clipped at its own limit is a little over the clamp's: cut again,
    the second marker counted the first one as text and came out a character longer,
    and the clamp then dropped whole lines, an error among them, to make up for it."""
    from tokenjuice.reduce.engine import TRAILER_RESERVE, clamp
    from tokenjuice.text import clip_line

    once = clip_line("Jan 30 09:37:26 host dbus-daemon[1435]: " + "type=method_call " * 40, 400)
    assert 400 < len(once) < 430
    items = (once, "Jan 30 14:55:04 host kernel: watchdog: BUG: soft lockup - CPU#8 stuck", once)
    budget = 3 * 400 + TRAILER_RESERVE  # the clamp's line limit is a third of the room: 400
    budget = max(budget, sum(len(i) + 1 for i in items) + TRAILER_RESERVE)
    assert clamp((), items, budget) is items


def test_the_final_clamp_clips_a_long_line_only_when_the_lines_do_not_fit():
    """A coverage row's Missing column is what the reader acts on: a row of 600
    characters among lines that fit the room is shown to its end; past the room the
    clamp clips it in the middle as before."""
    from tokenjuice.reduce.engine import TRAILER_RESERVE, clamp

    row = "src/click/core.py  1127  96  494  46  90%  " + ", ".join(f"{n}-{n + 3}" for n in range(41, 2200, 40))
    assert len(row) > 400
    items = ("Name  Stmts  Miss  Branch  BrPart  Cover  Missing", row, "TOTAL  41665  29112  9776  995  30%")
    assert clamp((), items, sum(len(i) + 1 for i in items) + TRAILER_RESERVE) == items
    clipped = clamp((), items + tuple(f"src/click/mod{k}.py  10  0  0  0  100%" for k in range(60)), 2000)
    assert row not in clipped and any("chars omitted" in str(i) for i in clipped)


def test_the_final_clamp_gives_the_room_the_other_lines_leave_to_the_lines_it_clips():
    """A page fetched as one line of 34 kB (an MCP fetch of a pydoc page) kept 400
    characters of it in a room of 6,000: the lines clipped share what the others leave,
    evenly, and a line short enough to fit its share is shown whole."""
    from tokenjuice.reduce.engine import TRAILER_RESERVE, clamp

    page = "Contents of http://127.0.0.1:8732/email.message.html:"
    body = " ".join(f"**method_{n}**(self) Return the part number {n}." for n in range(900))
    middle = "x = " + "1, " * 300  # 904 characters: over the clip limit, under its share
    items = (page, body, middle, "**walk**(self) Walk over the message tree.")
    budget = 6000 + TRAILER_RESERVE
    clipped = clamp((), items, budget)
    assert clipped[0] == page and middle in clipped and clipped[3] == items[3]
    assert "chars omitted" in clipped[1] and 4000 < len(clipped[1]) < 6000 - len(middle)
    assert sum(len(str(i)) + 1 for i in clipped) <= 6000
    assert clipped[1].startswith("**method_0**(self)") and clipped[1].endswith("part number 899.")


def test_an_unknown_command_interleaving_units_and_loose_lines_stays_within_its_budget():
    # test verdicts, compiler findings and progress lines interleaved, 400 kB, from a
    # command no rule claims: the regions' units are cut, and the lines between them are
    # cut by head and tail; a marker a gap would leave thousands of times over
    from tokenjuice.bench import real_shaped_log
    from tokenjuice.commands.wire import reduce_payload
    from tokenjuice.reduce.budget import FAILURE_CHARS

    log = real_shaped_log(400_000)
    payload = {"toolName": "exec", "command": "mytool run", "combinedText": log, "exitCode": 1}
    text = reduce_payload(payload, builtin_only=True)["inlineText"]
    assert FAILURE_CHARS // 2 <= len(text) <= FAILURE_CHARS
    shown = text.splitlines()
    plain = re.compile(r"^\.\.\. [\d,]+ lines? omitted \.\.\.$")
    markers = [k for k, line in enumerate(shown) if plain.match(line)]
    # one marker for each run of lines left out, never two in a row
    assert markers and not any(b == a + 1 for a, b in itertools.pairwise(markers))
    assert "src/module_11.c:597:8: warning: unused variable 'tmp_11' [-Wunused-variable]" in shown


def test_keep_under_keeps_the_lines_right_under_a_kept_line_and_not_under_a_line_that_went():
    """g++'s error quotes the line at fault under it; the notes after it quote the
    library's lines: `keep_under` keeps the first with its error, and the others go
    with their notes."""
    output = "\n".join(
        line
        for k in range(40)  # past the budget: only what the keep patterns keep is shown
        for line in (
            f"tmpl{k}.cpp: In function ‘int main()’:",
            f"tmpl{k}.cpp:25:24: error: no match for ‘operator[]’ (operand types are ‘std::map<int, int>’ and ‘int’)",
            f"   25 |     int n = by_customer[{k}].size();",
            "      |                        ^",
            "/usr/include/c++/12/bits/stl_map.h:502:7: note: candidate: ‘operator[](const key_type&)’",
            "  502 |       operator[](const key_type& __k)",
            "      |       ^~~~~~~~",
        )
    )
    rule = make(
        unit="finding",
        filters={"keep_patterns": [r"^[^\s:][^:]*:\d+:\d+: error: "], "keep_under": [r"^\s*\d+ \| "]},
    )
    text = run(output + "\n", rule, exit_code=1)["inlineText"]
    assert all(f"   25 |     int n = by_customer[{k}].size();" in text for k in (0, 39))
    assert "operator[](const key_type& __k)" not in text and "note: candidate" not in text
    assert "      |                        ^" not in text  # the caret line goes


@pytest.mark.parametrize("count", [120, 1200])  # trimmed past the budget; and cut by head and tail too
def test_keep_under_keeps_the_line_a_pinned_error_quotes_past_the_trim_and_the_cut(count):
    """make -j4 over a build with hundreds of warnings and one error: the code frames
    are worth least, but the line the error quotes stays with it, through the trim
    and, pinned as the error is, through the head and tail cut."""
    warnings = [
        line
        for k in range(count)
        for line in (
            f"deflate.c:{1000 + k}:42: warning: conversion from ‘unsigned int’ to ‘Bytef’ may change value",
            f" {1000 + k} |     s->pending_buf[s->pending++] = (Bytef)c{k};",
            "      |                                          ^",
        )
    ]
    error = [
        "gzlib.c:330:21: error: ‘gz_state’ has no member named ‘want_min’",
        "  330 |     if (size < state->want_min)",
        "      |                     ^~",
    ]
    middle = len(warnings) // 2 // 3 * 3
    output = "\n".join(warnings[:middle] + error + warnings[middle:] + ["make: *** [Makefile:192: gzlib.o] Error 1"])
    rule = make(
        filters={
            "trim_patterns": [r"^\s*\d+ \| ", r"^\s+\| "],
            "pin_patterns": [r":\d+:\d+: error: ", r"^make: \*\*\* "],
            "keep_under": [r"^\s*\d+ \| "],
        },
        summarize={"head": 5, "tail": 5},
        failure={"head": 5, "tail": 5},
    )
    text = run(output + "\n", rule, exit_code=2, command="tool build")["inlineText"]
    assert "gzlib.c:330:21: error:" in text and "  330 |     if (size < state->want_min)" in text


def test_a_block_of_lines_a_rule_trims_is_marked_where_it_was_and_short_runs_are_not():
    """Cut, trimmed lines were counted only in the trailer: a coverage table lost its
    219 rows of installed code between its header and the project's rows without a
    word there. A block of them is marked in place, its first and last row around the
    marker where the room holds them; a run of a few between the lines kept (a
    warning's excerpt) is counted in the trailer, where a marker each would cost the
    room of a line kept."""
    rule = make(filters={"trim_patterns": ["^site-packages/"]}, summarize={"head": 200, "tail": 20})
    table = ["Name  Stmts  Miss  Cover", "-----"]
    table += [f"site-packages/pkg/mod{k}.py  {k}  0  100%" for k in range(219)]
    table += [f"src/app/mod{k}.py  {k}  1  90%" for k in range(16)]
    for k in range(40):  # short runs between the project's lines
        table += [f"src/app/late{k}.py  {k}  2  80%", f"site-packages/x/late{k}.py  1  0  100%"]
    table += ["-----", "TOTAL  41665  29112  30%"]
    text = run("\n".join(table) + "\n", rule)["inlineText"].splitlines()
    assert text[:5] == [
        "Name  Stmts  Miss  Cover",
        "-----",
        "site-packages/pkg/mod0.py  0  0  100%",
        "... 217 lines omitted ...",
        "site-packages/pkg/mod218.py  218  0  100%",
    ]
    assert text[5] == "src/app/mod0.py  0  1  90%"
    tight = run("\n".join(table) + "\n", rule, max_inline_chars=1900)["inlineText"].splitlines()
    assert tight[2] == "... 219 lines omitted ..."  # no room for its ends: the marker alone
    assert "src/app/late0.py  0  2  80%" in text and "src/app/late1.py  1  2  80%" in text
    assert text.index("src/app/late1.py  1  2  80%") == text.index("src/app/late0.py  0  2  80%") + 1
    assert text[-1].startswith("(tokenjuice: 257 of ")  # 217 and the short runs' 40


def test_a_trimmed_blocks_ends_are_shown_with_their_padding_shortened_as_the_lines_around_them():
    """The first and last row of a trimmed block come back squeezed as the table's other
    rows are: a padded coverage table keeps one look."""
    rule = make(filters={"trim_patterns": ["^site-packages/"]}, summarize={"head": 200, "tail": 20})
    table = ["Name        Stmts   Miss  Cover"]
    table += [f"site-packages/pkg/mod{k}.py        {k}      0   100%" for k in range(200)]
    table += [f"src/app/mod{k}.py        {k}      1    90%" for k in range(100)]
    text = run("\n".join(table) + "\n", rule)["inlineText"].splitlines()
    at = text.index("... 198 lines omitted ...")
    assert text[at - 1] == "site-packages/pkg/mod0.py  0  0  100%"
    assert text[at + 1] == "site-packages/pkg/mod199.py  199  0  100%"
    assert text[at + 2].startswith("src/app/mod0.py  0  1  90%")

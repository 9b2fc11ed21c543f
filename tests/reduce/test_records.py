"""Log records as units (tokenjuice/reduce/records.py): what a record is, and what a
cut of a big log keeps — the kernel's, systemd's and the runtimes' failures first,
the chatter last, the rest thinned evenly."""

from helpers import make, run

from tokenjuice.reduce.lines import render
from tokenjuice.reduce.records import CHATTER, CRITICAL, ERROR, PLAIN, looks_like_a_log, parse
from tokenjuice.reduce.reencode import decoded
from tokenjuice.reduce.units import Unit, fit
from tokenjuice.rules.verify import unexplained_lines


def shown(items):
    return "\n".join(render(items))


def journal(n, host="web1"):
    return [
        f"Dec 12 09:{i // 60 % 60:02d}:{i % 60:02d} {host} app[{100 + i}]: request {i} served in {i % 7}ms"
        for i in range(n)
    ]


def test_a_record_keeps_the_lines_that_continue_it():
    lines = [
        "2026-12-06 04:00:51.103 UTC [24183] app@shop ERROR:  duplicate key value violates unique constraint",
        "2026-12-06 04:00:51.103 UTC [24183] app@shop DETAIL:  Key (id)=(42) already exists.",
        "2026-12-06 04:00:51.103 UTC [24183] app@shop STATEMENT:  INSERT INTO orders VALUES (42)",
        "[2026-12-06 04:01:02,123] ERROR in app: Exception on /api/orders/7 [GET]",
        "Traceback (most recent call last):",
        '  File "/srv/app/views.py", line 12, in show',
        "    return ORDERS[key]",
        "KeyError: 7",
        "panic: runtime error: index out of range [4] with length 1",
        "",
        "goroutine 1 [running]:",
        "main.lastLine(...)",
        "\t/srv/worker/main.go:32",
    ]
    records = [part for part in parse(lines) if isinstance(part, Unit)]
    assert [len(record.lines) for record in records] == [3, 5, 5]
    assert [record.priority for record in records] == [CRITICAL, CRITICAL, CRITICAL]  # edges, traceback, panic


def test_a_big_log_keeps_its_failures_and_drops_its_chatter_whole():
    lines = journal(3000)
    lines[1200] = "Dec 12 09:20:00 web1 kernel: app invoked oom-killer: gfp_mask=0x140cca, order=0, oom_score_adj=0"
    lines[1201] = "Dec 12 09:20:00 web1 kernel: Out of memory: Killed process 4242 (app) total-vm:8123456kB"
    lines[1202] = "Dec 12 09:20:01 web1 systemd[1]: app.service: Main process exited, code=killed, status=9/KILL"
    lines[2500] = "Dec 12 09:41:40 web1 app[2600]: ERROR could not reach db.internal:5432"
    parsed = parse(lines)
    assert sum(1 for part in parsed if isinstance(part, Unit) and part.priority == CHATTER) > 2900
    text = shown(fit(parsed, 2000))
    for needed in ("invoked oom-killer", "Out of memory: Killed process 4242", "status=9/KILL", "could not reach"):
        assert needed in text
    assert "request 0 served" in text and "request 2999 served" in text  # where it began and ended
    assert "request 1500 served" not in text and len(text) <= 2000


def test_failures_of_one_kind_thin_out_evenly_and_each_kind_keeps_one():
    lines = journal(400)
    for i in range(0, 400, 4):  # each differs from the others in more than one word: none is said again
        lines[i] = (
            f"Dec 12 09:{i // 60:02d}:{i % 60:02d} web1 kernel: watchdog: BUG: soft lockup - CPU#{i % 8} "
            f"stuck for {22 + i}s!"
        )
    lines[201] = "Dec 12 09:03:21 web1 thermald[14]: [ERR]THD engine start failed"
    text = shown(fit(parse(lines), 2500))
    assert "THD engine start failed" in text  # the one error of its kind
    kept = [int(line.split("CPU#")[1][0]) for line in text.splitlines() if "soft lockup" in line]
    assert 5 <= len(kept) < 100
    positions = [k for k, line in enumerate(lines) if "soft lockup" in line and line in text]
    assert positions[0] < 40 and positions[-1] > 360  # spread over the log, not its first ones


def test_a_traceback_loses_its_library_frames_before_any_record_goes():
    trace = [
        "[2026-12-06 04:01:02,123] ERROR in app: Exception on /api/orders/7 [GET]",
        "Traceback (most recent call last):",
    ]
    for k in range(12):
        trace += [
            f'  File "/srv/venv/lib/python3.11/site-packages/flask/app.py", line {900 + k}, in dispatch',
            "    rv = f()",
        ]
    trace += ['  File "/srv/app/views.py", line 12, in show', "    return ORDERS[key]", "KeyError: 7"]
    lines = [f"[2026-12-06 04:00:{i:02d},000] INFO in app: started worker {i}" for i in range(8)] + trace
    record = next(
        part for part in parse(lines) if isinstance(part, Unit) and part.priority >= ERROR and len(part.lines) > 3
    )
    trimmed = shown(record.trimmed)
    assert 'File "/srv/app/views.py", line 12, in show' in trimmed
    assert "line 900, in dispatch" in trimmed  # where it entered
    assert "line 905, in dispatch" not in trimmed
    text = shown(fit(parse(lines), len("\n".join(trace)) - 100))
    assert "KeyError: 7" in text and "line 905, in dispatch" not in text
    # the frames that went are counted where they were, between where it entered and
    # where it was raised, not after the record as if those two were one call apart
    entered, marker, last = (
        text.index("line 900, in dispatch"),
        text.index("... 22 lines (frames in installed and standard library code) omitted ..."),
        text.index('File "/srv/app/views.py", line 12, in show'),
    )
    assert entered < marker < last


def test_an_exact_read_of_a_big_log_is_cut_by_its_records():
    assert looks_like_a_log(journal(50)) and not looks_like_a_log(["def f():", "    return 1"] * 30)
    lines = journal(4000)
    lines[2000] = "Dec 12 09:33:20 web1 app[2100]: FATAL cannot open /var/lib/app/state.db: read-only file system"
    result = run("\n".join(lines) + "\n", command="cat /var/log/app.log")
    assert "FATAL cannot open /var/lib/app/state.db" in result["inlineText"]
    assert len(result["inlineText"]) < 17 * 1024


def test_a_run_of_near_identical_lines_keeps_its_first_and_last():
    lines = [f"2026-12-06 04:00:{i:02d} INFO worker: step {i} started" for i in range(6)]
    lines += [f"2026-12-06 04:01:{i:02d} INFO worker: batch={i} orders=25 status=ok" for i in range(12)]
    lines += [f"2026-12-06 04:02:{i:02d} INFO worker: step {i} finished" for i in range(6)]
    lines += ["2026-12-06 04:03:00 ERROR worker: could not write /srv/out.csv"]
    text = shown(fit(parse(lines), 700))
    assert "batch=0 orders=25" in text and "batch=11 orders=25" in text  # the run's first and last
    assert "batch=5 orders=25" not in text and "could not write" in text


def test_hostile_lines_are_parsed_in_one_pass():
    """Lines built to make a careless pattern backtrack (a dotted name with no call, a
    run of `(` after `at`, of `@` after a timestamp, of `path:1:`) parse as any line
    does: done long before the subprocess's generous limit, where a pattern with
    nested repetition would take hours."""
    import subprocess
    import sys

    script = (
        "from tokenjuice.reduce import records, findings\n"
        "n = 200_000\n"
        "for line in ('a.' * n, '    at ' + '(' * n, '2026-12-06 04:00:00 ' + '@' * n, 'x:1:' * n, 'File \"' + 'a/' * n):\n"
        "    records.parse([line, line]); findings.parse([line, line], lambda path: False)\n"
        "print('done')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.strip() == "done"


def test_a_health_check_that_passed_goes_even_at_the_end_of_a_log():
    lines = [
        f'2026-12-06 04:01:{i:02d},100 INFO werkzeug: 127.0.0.1 - - [06/Dec/2026 04:01:{i:02d}] "GET /healthz HTTP/1.1" 200 -'
        for i in range(40)
    ]
    lines[20] = "2026-12-06 04:01:20,100 ERROR app: Exception on /api/orders/7 [GET]"
    text = shown(fit(parse(lines), 600))
    assert "Exception on /api/orders/7" in text and "/healthz" not in text


def test_a_step_that_went_as_it_should_is_chatter():
    steps = ["creating subdirectories", "selecting shared memory", "creating configuration files", "running bootstrap"]
    lines = ["db-1  | The files belonging to this database system will be owned by user postgres."]
    for k, step in enumerate(steps):
        lines += [f"db-1  | {step} ... ok", f"db-1  | note {k}: the cluster uses locale en_US.utf8 for {step}"]
    lines += ["db-1  | FATAL:  could not create lock file: Permission denied", "db-1  | stopped"]
    text = shown(fit(parse(lines), 520))
    assert "could not create lock file" in text and "... ok" not in text
    assert "note 1: the cluster" in text or "note 2: the cluster" in text  # the room goes to other lines


def test_a_line_said_all_along_is_chatter_right_before_a_failure_but_a_crash_that_ends_the_log():
    lines = []
    for k in range(60):
        lines.append(
            f"2026-12-06 04:00:{k:02d}.339 UTC [{24000 + k}] LOG:  connection received: host=127.0.0.1 port={51000 + k}"
        )
        lines.append(f"2026-12-06 04:00:{k:02d}.340 UTC [{24000 + k}] app@shop LOG:  statement {k} ran in {k % 9} ms")
    lines[81] = '2026-12-06 04:00:40.352 UTC [24040] app@shop FATAL:  password authentication failed for user "app"'
    parsed = [part for part in parse(lines) if isinstance(part, Unit)]
    assert parsed[80].priority == CHATTER and parsed[81].priority == CRITICAL
    text = shown(fit(parse(lines), 1200))
    assert 'password authentication failed for user "app"' in text and "port=51040" not in text
    lines += ["2026-12-06 04:01:00.001 UTC [23925] PANIC:  could not write to file pg_wal/xlogtemp.23925"]
    parsed = [part for part in parse(lines) if isinstance(part, Unit)]
    assert parsed[-2].priority > CHATTER  # what it was doing when it crashed and the log ended


def lockups(times, cpu, task):
    return [
        f"Jan 30 {t} homeserver kernel: watchdog: BUG: soft lockup - CPU#{cpu} stuck for 22s! [{task}]" for t in times
    ]


def test_failures_said_again_but_for_one_word_are_said_on_one_line_and_read_back():
    times = ["14:55:04", "14:55:32", "14:56:00", "14:56:28"]
    lines = journal(600, host="homeserver")
    lines[100:104] = [
        f"Jan 30 09:39:54 homeserver systemd[2039]: {unit}.service: Main process exited, code=exited, status=1/FAILURE"
        for unit in ("pulseaudio", "gsd-color", "gsd-wacom", "xdg-permission-store")
    ]
    for k, (one, eight) in enumerate(
        zip(lockups(times, 1, "jackett:333"), lockups(times, 8, "jackett:332"), strict=True)
    ):
        lines[300 + 40 * k : 302 + 40 * k] = [one, eight]
    text = shown(fit(parse(lines), 900))  # a cut: the lines whole would not fit
    assert "Jan 30 {14:55:04,14:55:32,14:56:00,14:56:28} homeserver kernel: watchdog: BUG: soft lockup - CPU#8" in text
    assert (
        "systemd[2039]: {pulseaudio.service,gsd-color.service,gsd-wacom.service,xdg-permission-store.service}:" in text
    )
    readable = decoded(text)
    for line in lines[100:104] + lockups(times, 1, "jackett:333") + lockups(times, 8, "jackett:332"):
        assert line in readable
    assert unexplained_lines("\n".join(lines), text) == []  # verify reads them back too


def test_failures_of_one_source_said_again_but_for_their_time_and_process_share_a_line():
    lines = journal(300, host="x1c")
    for k in range(6):
        lines[40 * k + 5] = (
            f"Dec 12 1{k}:13:32 x1c tlp[{2354 + 97 * k}]: Error: tlp.service is not enabled, power saving will not apply"
        )
    text = shown(fit(parse(lines), 450))
    assert "Dec 12 {10:13:32 x1c tlp[2354],11:13:32 x1c tlp[2451]," in text
    assert "Dec 12 15:13:32 x1c tlp[2839]: Error: tlp.service is not enabled, power saving will not apply" in decoded(
        text
    )


def test_a_crash_loop_said_again_keeps_its_first_lines_whatever_its_length():
    lines = journal(2000)
    for k in range(0, 2000, 5):  # 400 restarts: 25 lines of 16 times each
        lines[k] = (
            f"Dec 12 09:{k // 60 % 60:02d}:{k % 60:02d} web1 systemd[1]: app.service: Main process exited, code=killed, status=9/KILL"
        )
    parsed = [part for part in parse(lines) if isinstance(part, Unit) and "app.service" in str(part.lines[0])]
    assert parsed[0].priority == CRITICAL and len(parsed[0].lossless) == 4  # the first sets together
    assert all(part.priority < CRITICAL for part in parsed[1:])  # the others as failures seen before
    text = shown(fit(parse(lines), 1000))
    assert text.startswith("Dec 12 {09:00:00,09:00:05,") and "request 1999 served" in text


def test_the_oom_killer_and_the_kernel_failing_are_failures_but_its_chatter_is_not():
    said = {
        "Dec 12 16:07:34 x1c systemd[1]: session-2.scope: A process of this unit has been killed by the OOM killer.": CRITICAL,
        "Dec 12 16:07:35 x1c systemd-oomd[612]: Killed /user.slice/app.scope due to memory pressure for /user.slice": CRITICAL,
        "Dec 12 09:22:32 x1c kernel: e1000e 0000:00:1f.6 enp0s31f6: Failed to disable ULP": CRITICAL,
        "Dec 12 09:49:55 x1c kernel: xhci_hcd 0000:00:14.0: xHC error in resume, USBSTS 0x411, Reinit": CRITICAL,
        "Dec 12 09:13:10 x1c kernel: RAS: Correctable Errors collector initialized.": ERROR,
        "Dec 12 09:49:55 x1c kernel: OOM killer disabled.": PLAIN,
        "Dec 12 09:13:20 x1c gsd-media-keys[2187]: Failed to grab accelerator for keybinding settings:hibernate": ERROR,
    }
    lines = journal(20, host="x1c") + list(said) + journal(20, host="x1c")
    records = {str(part.lines[0]): part.priority for part in parse(lines) if isinstance(part, Unit)}
    assert {line: records[line] for line in said} == said


def test_a_failure_said_again_keeps_every_source_it_struck_when_failures_are_cut_short():
    """Soft lockups of two CPUs are two sets of one kind: a cut that shortens the
    failures keeps a line for each (which CPU, which process)."""
    times = ["14:55:04", "14:55:32", "14:56:00", "14:56:28"]
    lines = journal(400, host="homeserver")
    for k in range(40):  # failures of other kinds: the cut shortens them all, then drops some
        name = chr(97 + k % 26) * 3 + chr(97 + k // 26) * 3
        lines[5 + 8 * k] = f"Jan 30 09:{k:02d}:01 homeserver {name}[{k}]: FATAL: the {name} pool went down"
    for k, (one, eight) in enumerate(
        zip(lockups(times, 1, "jackett:333"), lockups(times, 8, "jackett:332"), strict=True)
    ):
        lines[340 + 4 * k : 342 + 4 * k] = [one, eight]
    text = decoded(shown(fit(parse(lines), 3000)))
    for line in lockups(times, 1, "jackett:333") + lockups(times, 8, "jackett:332"):
        assert line in text


def test_a_record_said_again_to_the_letter_is_shown_once_even_where_the_rule_pins_it():
    """gnome-shell's `[AppIndicatorSupport-FATAL] unable to update overlay icon` four
    times in the same second: the repeats say nothing the first does not, so they go
    first (their marker counts them), even where the rule pins `FATAL`; failures of
    other kinds take the room."""
    repeated = "Jan 30 09:37:28 homeserver gnome-shell[2342]: [AppIndicatorSupport-FATAL] unable to update overlay icon"
    lines = journal(300, host="homeserver")
    lines[50:50] = [repeated] * 4
    for k in range(30):
        name = chr(97 + k % 26) * 3 + chr(97 + k // 26) * 3
        lines[100 + 6 * k] = f"Jan 30 09:{k:02d}:01 homeserver {name}[{k}]: FATAL: the {name} pool went down"
    parsed = [part for part in parse(lines) if isinstance(part, Unit)]
    said = [part.priority for part in parsed if str(part.lines[0]) == repeated]
    assert said[0] == CRITICAL and said[1:] == [CHATTER] * 3
    rule = make(unit="record", pin_patterns=[r"\bFATAL\b"])
    text = run("\n".join(lines) + "\n", rule, command="tool logs", max_inline_chars=4000)["inlineText"]
    assert text.count(repeated) == 1
    for k in range(30):
        name = chr(97 + k % 26) * 3 + chr(97 + k // 26) * 3
        assert f"FATAL: the {name} pool went down" in text

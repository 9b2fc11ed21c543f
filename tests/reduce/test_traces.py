"""Stack traces (tokenjuice/reduce/traces.py): which frames a cut keeps of a trace
whose frames are all in libraries, and a Python traceback as a unit of a program's
output (`unit = "traceback"`, task/python). The outputs are real captures kept as
scenarios (tests/scenarios)."""

import pytest
from conftest import REPO, reduce_wire

from tokenjuice.reduce.budget import SUCCESS_CHARS
from tokenjuice.reduce.lines import render
from tokenjuice.reduce.traces import own_frames, parse
from tokenjuice.reduce.unit import Unit
from tokenjuice.reduce.units import fit
from tokenjuice.rules.index import load
from tokenjuice.rules.verify import unexplained_lines

SCENARIOS = REPO / "tests" / "scenarios"
#: `python -c` calling requests.get on a closed port: four chained tracebacks, no frame
#: of the project's own (the first frame of the last one is `<string>`).
REQUESTS = (SCENARIOS / "python-c-requests-connection-refused.out").read_text()
REQUESTS_COMMAND = (
    "python -c \"import requests; print(requests.get('http://127.0.0.1:9/api/orders', timeout=3).json())\""
)
#: 18 migrations applied, then a chained traceback through Django's migration executor.
MIGRATE = (SCENARIOS / "django-migrate-runsql-error.out").read_text()
EXCEPTIONS = (
    "ConnectionRefusedError: [Errno 111] Connection refused",
    "urllib3.exceptions.NewConnectionError: HTTPConnection(host='127.0.0.1', port=9): Failed to establish",
    "urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='127.0.0.1', port=9): Max retries exceeded",
    "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=9): Max retries exceeded",
)
#: Each chained trace's first frame and its last (where it was raised).
ENDS = (
    'urllib3/connection.py", line 239, in _new_conn',
    'urllib3/util/connection.py", line 73, in create_connection',
    'urllib3/connectionpool.py", line 793, in urlopen',
    'urllib3/connection.py", line 254, in _new_conn',
    'requests/adapters.py", line 696, in send',
    'urllib3/util/retry.py", line 555, in increment',
    'File "<string>", line 1, in <module>',
    'requests/adapters.py", line 729, in send',
)


def shown(items):
    return "\n".join(render(items))


def the_unit(text):
    units = [part for part in parse(text.splitlines()) if isinstance(part, Unit)]
    assert len(units) == 1
    return units[0]


def test_chained_tracebacks_are_one_unit_and_the_programs_lines_stay_loose():
    parsed = parse(MIGRATE.splitlines())
    units = [part for part in parsed if isinstance(part, Unit)]
    assert len(units) == 1 and units[0].kind == "traceback"
    assert str(units[0].lines[0]).startswith("  Applying orders.0002_backfill_cents...Traceback")
    assert str(units[0].lines[-1]) == "django.db.utils.OperationalError: no such column: total_cents"
    assert parsed[:3] == MIGRATE.splitlines()[:3]  # `Operations to perform:` …
    assert the_unit(REQUESTS).lines == tuple(REQUESTS.splitlines())  # four traces, one unit


def test_library_frames_go_but_each_traces_ends_and_where_the_call_crossed_packages():
    trimmed = shown(the_unit(REQUESTS).trimmed)
    for needed in (*ENDS, *EXCEPTIONS):
        assert needed in trimmed
    # where urllib3 called http.client, and where http.client called back into urllib3
    assert 'urllib3/connection.py", line 567, in request' in trimmed
    assert 'http/client.py", line 986, in send' in trimmed
    # the other frames of one package's run go, counted where they were
    assert 'connectionpool.py", line 499, in _make_request' not in trimmed
    assert 'http/client.py", line 1289, in endheaders' not in trimmed
    assert 'urllib3/connection.py", line 398, in connect' not in trimmed
    assert "... 4 lines (frames in installed and standard library code) omitted ..." in trimmed
    assert 'util/connection.py", line 85, in create_connection' in trimmed  # a frame that raises stays


def test_a_short_traceback_keeps_each_traces_ends_and_every_exception():
    unit = the_unit(REQUESTS)
    short = shown(unit.short)
    for needed in (*ENDS, *EXCEPTIONS, "raise ConnectionError(e, request=request)"):
        assert needed in short
    assert short.count("The above exception was the direct cause of the following exception:") == 2
    assert "During handling of the above exception, another exception occurred:" in short
    assert 'requests/sessions.py", line 651' not in short
    minimal = shown(unit.minimal)
    for needed in (*EXCEPTIONS, 'requests/adapters.py", line 729, in send'):
        assert needed in minimal
    assert len(minimal) < len(short) < len(shown(unit.trimmed)) < len(REQUESTS)


@pytest.mark.parametrize("room", [3600, 2600, 1300])
def test_a_traceback_is_cut_in_steps_and_every_cut_is_counted(room):
    items = fit(parse(REQUESTS.splitlines()), room)
    text = shown(items)
    assert len(text) <= room
    for needed in EXCEPTIONS:
        assert needed in text
    if room >= 2600:
        for needed in ENDS:
            assert needed in text
    assert unexplained_lines(REQUESTS, text) == []
    assert sum(item.count for item in items if not isinstance(item, str)) + sum(
        1 for item in items if isinstance(item, str)
    ) == len(REQUESTS.splitlines())


def test_the_programs_lines_give_way_to_its_traceback():
    catalogue = load(builtin_only=True)
    made = reduce_wire(
        catalogue, command="python manage.py migrate", combined=MIGRATE, exit_code=1, max_inline_chars=2000
    )
    text = made["inlineText"]
    assert made["classification"]["matchedReducer"] == "task/python"
    for needed in (
        "Applying orders.0002_backfill_cents...Traceback (most recent call last):",
        "sqlite3.OperationalError: no such column: total_cents",
        "The above exception was the direct cause of the following exception:",
        'shop/manage.py", line 22, in <module>',
        "raise dj_exc_value.with_traceback(traceback) from exc_value",
        'sqlite3/base.py", line 356, in execute',
        "django.db.utils.OperationalError: no such column: total_cents",
    ):
        assert needed in text
    assert "Applying auth.0005_alter_user_last_login_null... OK" not in text  # an applied one: gone first
    assert unexplained_lines(MIGRATE, text) == []


def test_a_programs_output_without_a_traceback_is_cut_by_head_and_tail_to_its_budget():
    output = "".join(f"row {k:03d} customer=cust-{k % 17} total={k * 7} EUR\n" for k in range(600)) + "done: 600 rows\n"
    made = reduce_wire(load(builtin_only=True), command="python3 report.py", combined=output, exit_code=0)
    text = made["inlineText"]
    assert "row 000 customer=cust-0 total=0 EUR" in text and "done: 600 rows" in text
    # the rule's head and tail (10 and 10) are the least shown: its start and its end fill the budget
    assert "row 300 " not in text and 5000 < len(text) <= SUCCESS_CHARS
    assert sum(line.startswith("row ") for line in text.splitlines()) > 100


def test_carets_under_frames_do_not_split_a_trace_into_runs():
    """Python 3.11's carets under a frame's source line are no frame: a log record's
    traceback keeps its library frames' ends, not every frame with carets."""
    lines = ["Traceback (most recent call last):"]
    for k in range(6):
        lines += [
            f'  File "/srv/venv/lib/python3.11/site-packages/flask/app.py", line {900 + k}, in dispatch',
            "    return self.view_functions[rule.endpoint](**view_args)",
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        ]
    lines += ['  File "/srv/app/views.py", line 12, in show', "    return ORDERS[key]", "KeyError: 7"]
    trimmed = shown(own_frames(lines))
    assert "line 900, in dispatch" in trimmed and "line 905, in dispatch" in trimmed
    assert all(f"line {900 + k}, in dispatch" not in trimmed for k in range(1, 5))
    # the carets under the first frame go with the frames after it, in one marker
    assert "... 13 lines (frames in installed and standard library code) omitted ..." in trimmed


def test_thousands_of_tracebacks_are_cut_to_the_budget_and_the_last_one_stays():
    """Each traceback is its own unit (a new `Traceback` line after an exception is
    not chained to it); those before the last are dropped like any unit, the last
    one's exceptions are kept past the room."""
    output = "".join(
        "Traceback (most recent call last):\n"
        f'  File "/srv/venv/lib/python3.11/site-packages/worker/job.py", line {k}, in run\n'
        "    raise KeyError(key)\n"
        f"KeyError: 'job-{k}'\n"
        for k in range(3000)
    )
    assert sum(isinstance(part, Unit) for part in parse(output.splitlines())) == 3000
    made = reduce_wire(load(builtin_only=True), command="python3 worker.py", combined=output, exit_code=1)
    text = made["inlineText"]
    assert len(text) <= 10_000
    assert "KeyError: 'job-2999'" in text and "KeyError: 'job-0'" in text
    assert "more tracebacks omitted ..." in text
    assert unexplained_lines(output, text) == []

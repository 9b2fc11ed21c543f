"""`tokenjuice reduce` and `tokenjuice reduce-json`: reduce output that already exists."""

from __future__ import annotations

import os
import sys

from ..errors import UsageError
from .output import Output

MAX_INPUT_BYTES = 16 * 1024 * 1024


def read_input(path: str | None, what: str) -> bytes:
    """The bytes of `path`, or of stdin when no path is given."""
    if path is None:
        if sys.stdin.isatty():
            raise UsageError(f"give a FILE or pipe {what} in, e.g. pytest 2>&1 | tokenjuice reduce --command pytest")
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        where = "stdin"
    else:
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror}") from None
        where = path
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{where} is larger than {MAX_INPUT_BYTES} bytes; reduce a smaller piece")
    return data


def reduce_text(
    path: str | None,
    *,
    command: str | None,
    exit_code: int,
    raw: bool,
    classifier: str | None,
    max_inline_chars: int | None,
    trace: bool,
) -> Output:
    from ..model import Execution
    from ..reduce.engine import Options, reduce
    from ..reduce.render import text_of
    from ..rules import index
    from .wire import result_to_wire

    text = read_input(path, "the output").decode("utf-8", errors="replace")
    execution = Execution(command=command, combined=text, exit_code=exit_code)
    hint = f"full output: {path}" if path else None
    reduction = reduce(
        execution,
        index.load(os.getcwd()),
        Options(classifier=classifier, max_inline_chars=max_inline_chars, raw=raw, hint=hint),
    )
    shown = text if raw else text_of(reduction)
    ending = "\n" if shown and not raw and not (reduction.exact is not None and shown.endswith("\n")) else ""
    return Output(text=shown + ending, data=result_to_wire(reduction, trace=trace))


def reduce_json(
    path: str | None, *, classifier: str | None, raw: bool, trace: bool, max_inline_chars: int | None
) -> Output:
    """Reduce a ToolExecutionInput payload (or an {input, options} envelope); the
    answer is JSON in every mode."""
    from .wire import reduce_payload

    data = read_input(path, "a JSON payload")
    if not data or data.isspace():
        raise UsageError("reduce-json needs a JSON payload on stdin or in a file")
    try:
        payload = _loads(data)
    except ValueError as error:
        raise UsageError(f"the payload is not valid JSON ({error})") from None
    del data  # its memory is the stripped text's parts' (`keep_freed_memory`)
    result = reduce_payload(payload, classifier=classifier, raw=raw, trace=trace, max_inline_chars=max_inline_chars)
    return Output(data=result)


def _loads(data: bytes) -> object:
    """`json.loads(data)`: read by CPython's C scanner without importing `json` (its
    import compiles six patterns, ~6 M instructions) where that reads the payload as
    UTF-8; what `json.loads` makes of it, or the error it raises, otherwise (a payload
    with a byte-order mark or in UTF-16 or UTF-32, a lone surrogate, invalid JSON)."""
    from ..fast import fastjson

    try:
        return fastjson.loads(data)
    except ValueError:
        import json

        return json.loads(data)


#: The size of the block `keep_freed_memory` makes and frees: the most glibc's malloc
#: raises its mapping threshold to (`DEFAULT_MMAP_THRESHOLD_MAX`, 32 MiB on 64-bit
#: systems), less room for the block's header.
FREED_BLOCK = (32 << 20) - (64 << 10)


def keep_freed_memory() -> None:
    """Make the big strings of one reduction reuse each other's memory: glibc's malloc
    maps a block of 128 KiB or more on its own, and unmaps it when it is freed, so the
    next big string touches fresh pages again (a page fault each 4 KiB, ~3 µs here).
    Once a mapped block is freed, malloc raises that threshold to the block's size and
    keeps up to twice as much free at the top of its heap (mallopt(3), "dynamic mmap
    threshold"): a zeroed block made and freed at once (`calloc` of a fresh mapping
    writes nothing, no page is touched) puts the payload, its text, the stripped text
    and their parts on the heap, where one reuses what another freed: the stripped
    text's parts take the memory of the payload's bytes and of their decoded text
    (`reduce_json` lets the bytes go once decoded). A 4 MiB payload: ~2,400 of ~13,450
    page faults, 5.5 MB of peak memory. The process exits after one payload. Other
    allocators are left as they were (a free block of theirs is reused anyway), and so is
    malloc where the address space is too tight for the block."""
    try:
        bytes(FREED_BLOCK)
    except MemoryError:
        pass


def main_json(path: str | None) -> int:
    """`tokenjuice reduce-json [FILE]` with no option, run without click (its import
    is ~25 ms of every call a script makes): the same JSON answer, errors included,
    and the same exit code as the click command."""
    from ..errors import TokenjuiceError
    from .output import json_text

    keep_freed_memory()
    try:
        output = reduce_json(path, classifier=None, raw=False, trace=False, max_inline_chars=None)
        data, code = output.data, output.exit_code
    except TokenjuiceError as error:
        data = {"error": {"message": str(error), "kind": error.kind, "exitCode": error.exit_code}}
        code = error.exit_code
    sys.stdout.flush()
    sys.stdout.buffer.write(json_text(data).encode("utf-8"))
    return code

"""The `tokenjuice` executable: send hot commands past click.

`wrap` and the host hooks run before every shell command an agent issues; they
are dispatched here without importing click (~60 ms) or anything else they do
not use. So is the plain `reduce-json [FILE]` a script pipes payloads into.
Every other command goes through the click CLI in `cli.py`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import NoReturn

    from _typeshed.importlib import MetaPathFinderProtocol

#: Commands whose process ends as soon as its output is flushed, without tearing
#: the interpreter down. They run around every shell command an agent issues (or,
#: `reduce-json`, once for every payload a script pipes in), and finalizing (freeing
#: every module, class and object one by one) costs 3–5 ms with nothing left to do,
#: more after a big reduction: they start no threads, register no exit handlers and
#: write every file through `with` blocks that are closed before they return.
_QUICK_EXIT = frozenset({"wrap", "hook", "cursor-pre-tool-use", "reduce-json"})
#: Commands that run without the cyclic garbage collector: the hook and `reduce-json`
#: read one bounded payload (reduce-json's at most 16 MiB), answer and exit, creating
#: no garbage worth collecting (the peak memory of a 4 or 8 MiB reduction is the
#: same without it), and the collector's passes over the objects their imports and
#: the reduction's lines create cost ~0.9 ms of the hook's ~5 ms and ~2 % of a
#: reduction (measured in docs/performance.md). `wrap` keeps it: it holds and
#: reduces outputs of any size.
_NO_GC = frozenset({"hook", "cursor-pre-tool-use", "reduce-json"})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else ""
    if command == "wrap":
        from .commands.wrap import main as wrap_main

        return wrap_main(args[1:])
    if command == "hook" and len(args) > 1 and not args[1].startswith("-"):
        from .hosts.hook import main as hook_main

        return hook_main(args[1:])
    if command == "cursor-pre-tool-use":
        from .hosts.hook import main as hook_main

        return hook_main(args[1:], "cursor")
    if command == "reduce-json" and len(args) <= 2 and not any(a.startswith("-") for a in args[1:]):
        from .commands.reduce import main_json

        return main_json(args[1] if len(args) > 1 else None)
    from .cli import main as cli_main

    return cli_main(args)


def run() -> NoReturn:
    """The process: `main()` on `sys.argv`, then exit with its code. The launcher
    script, `python -m tokenjuice` and the hook entry that hosts run all start here."""
    if sys.flags.no_site and "site" not in sys.modules:
        sys.meta_path.append(_site_on_demand())
    if sys.argv[1:2] and sys.argv[1] in _NO_GC:
        import gc

        gc.disable()
    code = main()
    if sys.argv[1:2] and sys.argv[1] in _QUICK_EXIT:
        import os

        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 - a closed or broken stream: let the normal exit report it
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


def _site_on_demand() -> MetaPathFinderProtocol:
    """The last import finder of a hook started with `python -S` (hosts/launch.py):
    skipping `site` saves its .pth files and customize modules on every shell
    command, and the hook path needs only the stdlib and tokenjuice's own folder.
    The rare path that needs a dependency (shellingham when $SHELL is unset, regex
    for a user's rule) reaches this finder when its import fails: it runs `site`
    once, as a normal start would have, and looks again. (Made here, not at module
    level, so that a start with `site` does not pay for creating the class.)"""

    class SiteOnDemand:
        def find_spec(
            self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
        ) -> ModuleSpec | None:
            sys.meta_path.remove(self)
            import site

            site.main()
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                spec: ModuleSpec | None = find(name, path, target) if find else None
                if spec is not None:
                    return spec
            return None

    return SiteOnDemand()

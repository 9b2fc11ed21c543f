"""The package's layout is its architecture (docs/architecture.md): the top level holds the
core only, every other module sits in the package of its concern, and no module imports
itself back through others, counting imports inside functions (the hot paths import
lazily, and a lazy cycle is still a cycle) but not type-only or `__main__` ones."""

import ast

from conftest import REPO

PACKAGE = REPO / "tokenjuice"

#: The core: what a command goes through whatever the host (docs/architecture.md's first table).
TOP_LEVEL = {
    "__init__",
    "__main__",
    "bench",
    "capture",
    "cli",
    "compact",
    "entry",
    "errors",
    "model",
    "paths",
    "settings",
    "text",
    "trust",
}
SUBPACKAGES = {"commands", "fast", "files", "hosts", "reduce", "rules", "shell", "state"}


def module_name(path, root=REPO):
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _skipped_blocks(tree):
    """Nodes under `if TYPE_CHECKING:` (types only) or `if __name__ == "__main__":`."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = ast.unparse(node.test)
            if test in ("TYPE_CHECKING", "typing.TYPE_CHECKING") or "__main__" in test:
                skipped |= {id(child) for child in ast.walk(node)}
    return skipped


def import_graph(package=PACKAGE):
    """Module → the modules of the package it imports, anywhere in its code."""
    paths = {module_name(path, package.parent): path for path in package.rglob("*.py")}
    graph = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _skipped_blocks(tree)
        own_package = name if path.stem == "__init__" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names if alias.name in paths}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = own_package.split(".")[: len(own_package.split(".")) - node.level + 1]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    targets.add(submodule if submodule in paths else source)
        graph[name] = {target for target in targets if target in paths and target != name}
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_cycles():
    found = cycles(import_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(component) for component in found)


def test_the_cycle_finder_finds_a_lazy_cycle(tmp_path):
    """The check above can fail: a cycle closed by an import inside a function is found, a
    type-only import is not."""
    package = tmp_path / "tokenjuice"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from .. import a\n")
    (package / "c.py").write_text("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from . import a\n")
    (package / "sub" / "d.py").write_text("from ..c import x\n")
    found = cycles(import_graph(package))
    assert found == [["tokenjuice.a", "tokenjuice.sub.b"]]


def test_the_top_level_holds_the_core_only():
    top = {path.stem for path in PACKAGE.glob("*.py")}
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert top == TOP_LEVEL, "a new top-level module: put it in the package of its concern (docs/architecture.md)"
    assert packages == SUBPACKAGES


def test_architecture_md_names_every_module():
    """docs/architecture.md's map names every module (or the folder whose row covers it),
    and every path it names with a folder is a real one."""
    import re

    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+(?:\.py|/))`", text))
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        folder = relative.rpartition("/")[0] + "/"
        body = ast.parse(path.read_text(encoding="utf-8")).body
        if path.stem == "__init__" and "/" in relative and len(body) == 1:
            continue  # a package's docstring: the layout table says what the package is
        assert relative in named or folder in named, f"docs/architecture.md does not name {relative}"
    for name in named:
        if "/" in name.rstrip("/"):
            assert (PACKAGE / name).exists() or (REPO / name).exists(), (
                f"docs/architecture.md names {name}: no such file"
            )

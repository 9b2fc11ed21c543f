"""Code the project did not write: vendored, installed, generated or built copies,
whose findings, matches and folders are cut before the project's own."""

from __future__ import annotations

from ..fast.lazyre import lazy

#: Code the project did not write: vendored, installed, generated or built copies.
_VENDORED = lazy(
    r"(?:^|/)(?:vendor|vendored|_vendor|third[_-]party|node_modules|bower_components|site-packages|dist-packages"
    r"|\.?venv|\.tox|\.nox|dist|build|target|\.git|__pycache__|\.mypy_cache|\.next|\.nuxt|\.yarn|Pods"
    r"|generated|__generated__)/"
    r"|\.min\.(?:js|css)$|\.map$|(?:^|/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock"
    r"|uv\.lock|go\.sum)$"
    # generated code, by the names its generators give it
    r"|_pb2(?:_grpc)?\.pyi?$|\.pb(?:\.gw)?\.go$|\.pb\.(?:cc|h)$|\.g\.dart$|\.generated\.\w+$|_generated\.\w+$"
)


def vendored(path: str) -> bool:
    """Is `path` in code the project did not write (`node_modules/`, `vendor/`,
    `site-packages/`, `dist/`, a minified bundle, a lock file, generated code such as
    `api_pb2.py` or `schema.generated.ts`)? Its matches and findings are cut before
    the project's own."""
    return _VENDORED.search(path) is not None

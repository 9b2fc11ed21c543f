"""Commands that never end or need a terminal, so no hook ever wraps them: wrapping
holds their output until they exit, or takes their terminal away.

`why_not_wrapped` reads one simple command's words; `matches_user_pattern` adds
the user's own `hook.skip` glob patterns.
"""

from __future__ import annotations

from .command import strip_wrappers
from .shellsyntax import join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

#: Patterns over the command as run (after `FOO=1`, `sudo` and the like are
#: removed), where `*` matches anything, spaces included.
DEFAULT_SKIP = (
    # dev servers and watch modes
    "npm run dev*",
    "npm run start*",
    "npm run serve*",
    "npm run watch*",
    "npm start*",
    "npm run storybook*",
    "pnpm dev*",
    "pnpm run dev*",
    "pnpm start*",
    "pnpm run start*",
    "pnpm serve*",
    "pnpm run watch*",
    "yarn dev*",
    "yarn run dev*",
    "yarn start*",
    "yarn serve*",
    "yarn watch*",
    "bun dev*",
    "bun run dev*",
    "bun start*",
    "bun --watch*",
    "bun --hot*",
    "next dev*",
    "nuxt dev*",
    "astro dev*",
    "remix dev*",
    "ng serve*",
    "expo start*",
    "storybook dev*",
    "vite",
    "vite --*",
    "vite dev*",
    "vite serve*",
    "vitest",
    "vitest dev*",
    "vitest watch*",
    "webpack serve*",
    "webpack-dev-server*",
    "nodemon*",
    "ts-node-dev*",
    "tsx watch*",
    "* --watch",
    "* --watch *",
    "* --watch=*",
    "*--watchAll*",
    "* watch",
    "cargo watch*",
    "watchexec*",
    "python -m http.server*",
    "python3 -m http.server*",
    "flask run*",
    "uvicorn *",
    "gunicorn *",
    "hypercorn *",
    "daphne *",
    "django-admin runserver*",
    "python manage.py runserver*",
    "python3 manage.py runserver*",
    "rails server*",
    "rails s",
    "rails s *",
    "bin/rails server*",
    "php artisan serve*",
    "php -S *",
    "hugo server*",
    "jekyll serve*",
    "mkdocs serve*",
    "http-server*",
    "serve",
    "serve *",
    "live-server*",
    "docker compose up",
    "docker compose up --build",
    "docker-compose up",
    "docker-compose up --build",
    "kubectl port-forward *",
    "minikube tunnel*",
    # following output forever
    "tail -f *",
    "tail -F *",
    "tail --follow*",
    "journalctl -f*",
    "journalctl * -f*",
    "journalctl --follow*",
    "kubectl logs -f*",
    "kubectl logs * -f*",
    "kubectl logs --follow*",
    "kubectl logs * --follow*",
    "docker logs -f*",
    "docker logs * -f*",
    "docker logs --follow*",
    "docker compose logs -f*",
    "watch *",
    "top",
    "htop*",
    "btop*",
    "glances*",
    "ping *",
    "tcpdump *",
    # editors, pagers, interactive tools
    "vi",
    "vi *",
    "vim",
    "vim *",
    "nvim",
    "nvim *",
    "nano",
    "nano *",
    "emacs",
    "emacs *",
    "micro *",
    "less",
    "less *",
    "more",
    "more *",
    "most *",
    "man *",
    "tmux*",
    "screen*",
    "ssh",
    "git add -p*",
    "git add --patch*",
    "git add -i*",
    "git rebase -i*",
    "git rebase --interactive*",
    "git commit",
    "fzf*",
    "lazygit*",
    "tig",
    "tig *",
    "mc",
    # REPLs and interactive shells
    "python",
    "python3",
    "ipython*",
    "bpython*",
    "node",
    "deno",
    "deno repl*",
    "bun repl*",
    "irb*",
    "pry*",
    "rails console*",
    "rails c",
    "php -a",
    "psql",
    "mysql",
    "sqlite3",
    "redis-cli",
    "mongosh",
    "bash",
    "sh",
    "zsh",
    "fish",
    "dash",
    "ghci*",
    "iex*",
    "erl",
    "lua",
    "R",
    "julia",
    # background and detached jobs
    "nohup *",
    "setsid *",
    "disown*",
)


def why_not_wrapped(argv: Sequence[str]) -> str | None:
    """Why this command must run unwrapped (the default pattern it matches), or None."""
    text = join(strip_wrappers(list(argv)))
    for pattern in DEFAULT_SKIP:
        if glob_match(text, pattern):
            return pattern.rstrip("*").strip() or pattern
    return None


def matches_user_pattern(command_text: str, argv: Sequence[str], patterns: Sequence[str]) -> str | None:
    """The first of the user's `hook.skip` patterns matching the command's text or
    its words, or None."""
    targets = {command_text.strip(), join(strip_wrappers(list(argv)))} - {""}
    for pattern in patterns:
        if any(glob_match(target, pattern) for target in targets):
            return pattern
    return None


def glob_match(text: str, pattern: str) -> bool:
    """Does `pattern`, where `*` stands for any run of characters, match all of `text`?
    (fnmatch would compile a regex per pattern: ~10 ms for the default list.)"""
    parts = pattern.split("*")
    if len(parts) == 1:
        return text == pattern
    first, last = parts[0], parts[-1]
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return False
    position, end = len(first), len(text) - len(last)
    for part in parts[1:-1]:
        found = text.find(part, position, end)
        if found < 0:
            return False
        position = found + len(part)
    return True

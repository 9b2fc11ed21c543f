#!/bin/sh
# Install tokenjuice into its own virtual environment, for machines without pipx or uv.
#
#   sh install/install.sh                 install or upgrade, link ~/.local/bin/tokenjuice
#   sh install/install.sh --host cursor   ... then install that host's hook and prove it works
#   sh install/install.sh --all-hosts     ... then every agent host found on this machine
#   sh install/install.sh --uninstall     remove every host's hook, the link and the environment
#
# Options: --source PATH   the checkout (or a wheel or sdist built from it) to install
#                          (default: the checkout this script is in; tokenjuice is not on
#                          the package index, so a name there is never installed)
#          --python PATH   the Python (>= 3.11) to build the environment with (default: python3)
#          --host NAME     cursor, claude-code, codex, gemini, copilot, opencode, windsurf or cline
#                          (repeatable; --cursor is short for --host cursor)
# Environment: TOKENJUICE_PREFIX (default ~/.local/lib/tokenjuice: the environment, kept
#              apart from tokenjuice's data so wiping the data never breaks the hook),
#              TOKENJUICE_BIN_DIR (default ~/.local/bin).
# Running it again upgrades in place; it never touches anything outside those two places
# except through `tokenjuice install <host>` / `uninstall`, and it never replaces a
# `tokenjuice` another installer put in the bin folder.
set -eu

prefix="${TOKENJUICE_PREFIX:-$HOME/.local/lib/tokenjuice}"
# where earlier versions of this script kept the environment: inside the data folder
old_venv="${XDG_DATA_HOME:-$HOME/.local/share}/tokenjuice/venv"
bin_dir="${TOKENJUICE_BIN_DIR:-$HOME/.local/bin}"
venv="$prefix/venv"
link="$bin_dir/tokenjuice"
python="python3"
source=""
hosts=""
all_hosts=0
action=install

say() { printf 'tokenjuice-install: %s\n' "$*"; }
fail() { printf 'tokenjuice-install: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --cursor) hosts="$hosts cursor" ;;
        --host) [ $# -ge 2 ] || fail "--host needs a value"; hosts="$hosts $2"; shift ;;
        --all-hosts) all_hosts=1 ;;
        --uninstall) action=uninstall ;;
        --source) [ $# -ge 2 ] || fail "--source needs a value"; source="$2"; shift ;;
        --python) [ $# -ge 2 ] || fail "--python needs a value"; python="$2"; shift ;;
        -h|--help) sed -n '2,/^set -eu$/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown option $1 (see --help)" ;;
    esac
    shift
done

# Is the bin folder's tokenjuice a link this script made (to this or the old environment)?
ours() {
    [ -L "$link" ] && { [ "$(readlink "$link")" = "$venv/bin/tokenjuice" ] \
        || [ "$(readlink "$link")" = "$old_venv/bin/tokenjuice" ]; }
}

if [ "$action" = uninstall ]; then
    for env_dir in "$venv" "$old_venv"; do
        if [ -x "$env_dir/bin/tokenjuice" ]; then
            "$env_dir/bin/tokenjuice" uninstall --all \
                || fail "could not remove every host's hook; see the message above"
            break
        fi
    done
    if ours; then
        rm -f "$link"
        say "removed $link"
    fi
    for env_dir in "$venv" "$old_venv"; do
        if [ -d "$env_dir" ]; then
            rm -rf "$env_dir"
            say "removed $env_dir"
        fi
    done
    rmdir "$prefix" 2>/dev/null || true
    say "tokenjuice is uninstalled (settings and statistics in your config and data dirs were left alone)"
    exit 0
fi

if [ -z "$source" ]; then
    here=$(cd "$(dirname "$0")/.." && pwd)
    if [ -f "$here/pyproject.toml" ] && grep -q '^name = "tokenjuice"' "$here/pyproject.toml"; then
        source="$here"
    else
        fail "run this script from a clone of the tokenjuice repository (sh path/to/tokenjuice/install/install.sh), or pass --source with a checkout, wheel or sdist; tokenjuice is not published on the package index, so it is never installed from there"
    fi
fi
[ -e "$source" ] || fail "--source $source is not a checkout, wheel or sdist on this machine; tokenjuice is never installed from the package index"
# an absolute path, so pip never reads it as a name to look up on the package index
source="$(cd "$(dirname "$source")" && pwd)/$(basename "$source")"

mkdir -p "$bin_dir"
if [ -e "$link" ] || [ -L "$link" ]; then
    ours || fail "$link is not a link this script made (another installer's tokenjuice?); remove that installation or move $link away, then run again"
fi

command -v "$python" >/dev/null 2>&1 || fail "$python not found; install Python 3.11 or newer, or pass --python"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "$python is older than 3.11; pass --python with a newer one"

if ! "$venv/bin/python" -c 'pass' >/dev/null 2>&1; then
    say "creating $venv"
    rm -rf "$venv"
    mkdir -p "$prefix"
    "$python" -m venv "$venv" || fail "could not create a virtual environment (on Debian/Ubuntu: apt install python3-venv)"
fi
# On a terminal, say that this takes a while and let pip show its own progress; a pipe
# (CI, a log) gets only the lines below, as before.
if [ -t 1 ]; then
    quiet=""
    say "installing tokenjuice from $source (a minute or two: pip shows its progress)"
    say "updating pip in $venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
else
    quiet="--quiet"
    say "installing tokenjuice from $source"
    "$venv/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
fi
"$venv/bin/python" -m pip install $quiet --upgrade "$source" || fail "pip could not install $source"

ln -sfn "$venv/bin/tokenjuice" "$link"
if [ -d "$old_venv" ] && [ "$old_venv" != "$venv" ]; then
    say "note: hooks installed before still run the old environment $old_venv; run tokenjuice install <host> for each (tokenjuice doctor hooks lists them), then rm -rf $old_venv"
fi
say "linked $link -> $venv/bin/tokenjuice ($("$link" --version))"
case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) say "note: $bin_dir is not on your PATH; add it in your shell profile" ;;
esac

if [ "$all_hosts" = 1 ]; then
    "$link" install --all || fail "could not install every host's hook; see the message above"
fi
for host in $hosts; do
    "$link" install "$host" || fail "could not install the $host hook; see the message above"
    "$link" doctor "$host" --deep || fail "the $host hook is installed but the deep check failed; see above"
done

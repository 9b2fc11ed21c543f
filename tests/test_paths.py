"""paths.py's checks on places another user or a project could have prepared:
`secure_root` (is a folder of ours safe from other users?), `read_regular` and
`regular_only` (never block on a FIFO, never read past a cap), and the XDG rules."""

import errno
import os
import sys
import threading

import pytest

from tokenjuice import paths


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(paths, "_SECURE", set())


def test_a_root_under_sticky_or_private_folders_is_secure(tmp_path, fresh):
    sticky = tmp_path / "shared"
    sticky.mkdir()
    sticky.chmod(0o1777)
    assert paths.secure_root(str(sticky / "cache" / "tokenjuice"))  # not there yet: we create it 0700
    assert paths.secure_root(str(tmp_path / "home" / ".cache" / "tokenjuice"))


def test_a_root_below_a_folder_others_may_write_is_not(tmp_path, fresh):
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)  # world-writable, not sticky: anyone could swap what is in it
    assert not paths.secure_root(str(open_folder / "tokenjuice"))


def test_a_root_that_is_a_symlink_or_not_a_folder_is_not(tmp_path, fresh):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "file").write_text("")
    assert not paths.secure_root(str(tmp_path / "link"))
    assert not paths.secure_root(str(tmp_path / "file"))
    with pytest.raises(PermissionError):
        paths.private_dir(str(tmp_path / "link"))


def test_read_regular_never_blocks_on_a_fifo_and_never_reads_past_its_cap(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = []
    worker = threading.Thread(target=lambda: done.append(_errno_of(lambda: paths.read_regular(str(fifo), 100))))
    worker.start()
    worker.join(5)
    assert done == [errno.EINVAL]
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    assert _errno_of(lambda: paths.read_regular(str(big), 100)) == errno.EFBIG
    assert paths.read_regular(str(big), 101) == b"x" * 101
    with pytest.raises(OSError):
        open(fifo, "rb", opener=paths.regular_only)  # noqa: SIM115 - it must fail to open


def test_read_regular_follows_no_link_when_told_and_checks_the_owner(tmp_path):
    target = tmp_path / "target"
    target.write_text("data")
    (tmp_path / "link").symlink_to(target)
    assert paths.read_regular(str(tmp_path / "link"), 10) == b"data"
    assert _errno_of(lambda: paths.read_regular(str(tmp_path / "link"), 10, follow=False)) == errno.ELOOP
    target.chmod(0o666)
    with pytest.raises(PermissionError):
        paths.read_regular(str(target), 10, own=True)


@pytest.mark.skipif(sys.platform == "darwin" or os.name != "posix", reason="XDG folders are for Linux and BSD")
def test_a_relative_xdg_folder_is_ignored(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("TOKENJUICE_HOME", raising=False)
    assert paths.data_dir() == str(tmp_path / ".local" / "share" / "tokenjuice")


def _errno_of(action) -> int | None:
    try:
        action()
    except OSError as error:
        return error.errno
    return None

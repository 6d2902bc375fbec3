"""Limits a hostile archive or client must not get past (issue 14): every query ends, one
stuck archive does not stall the others, file descriptors are not leaked, a full disk is
called a full disk, and another local user can neither read nor plant cache entries."""

from __future__ import annotations

import json
import os
import pwd
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from corpora.fixture_archives import build_pre013
from corpora.hostile_archives import ENDLESS
from nitpicker_query.archive import tarball

pytestmark = pytest.mark.anyio
QUERY = str(Path(sys.executable).with_name("nitpicker-query"))
SERVER = str(Path(sys.executable).with_name("nitpicker-mcp"))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _crawl_dir(tmp: Path, name: str, *sql: str) -> Path:
    src = build_pre013(tmp, extended=True, name=f"{name}-src")
    directory = tmp / name
    inner = tarball.extract(src, tmp / f"{name}-x")
    shutil.move(str(tmp / f"{name}-x" / inner), directory)
    conn = sqlite3.connect(directory / "db.sqlite", isolation_level=None)
    for statement in sql:
        conn.execute(statement)
    conn.close()
    return directory


def _big(tmp: Path, rows: int = 300_000) -> Path:
    directory = _crawl_dir(tmp, "big")
    conn = sqlite3.connect(directory / "db.sqlite", isolation_level=None)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO pages (url, scraped, isTarget, isExternal, status, "
                     "contentType, title, isSkipped) VALUES (?, 1, 1, 0, 200, 'text/html', "
                     "?, 0)", ((f"http://localhost/p/{i}", f"t{i % 97}") for i in range(rows)))
    conn.execute("COMMIT")
    conn.close()
    return directory


def test_a_query_past_its_deadline_is_one_line(tmp_path: Path) -> None:
    big = _big(tmp_path)
    started = time.monotonic()
    r = subprocess.run([QUERY, "duplicates", str(big), "--query-timeout", "0.01"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stderr
    assert "Query stopped after 0.01 s (--query-timeout)" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and time.monotonic() - started < 30
    ok = subprocess.run([QUERY, "duplicates", str(big)], capture_output=True, text=True,
                        timeout=120)
    assert ok.returncode == 0 and json.loads(ok.stdout)["total"] == 97  # the same, in time
    bad = subprocess.run([QUERY, "summary", str(big), "--query-timeout", "0"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--query-timeout must be more than 0" in bad.stderr


async def test_stuck_archives_do_not_stall_the_server(tmp_path: Path) -> None:
    endless = _crawl_dir(tmp_path, "endless", "DROP TABLE anchors",
                         f"CREATE VIEW anchors AS {ENDLESS}")
    big = _big(tmp_path)
    healthy = build_pre013(tmp_path, extended=True, name="healthy")
    params = StdioServerParameters(
        command=SERVER, args=["--root", str(tmp_path), "--query-timeout", "1"],
        env={"NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]})
    results: dict[str, list[tuple[bool, str, float]]] = {"endless": [], "big": [],
                                                          "healthy": []}
    async with Client(params) as client:
        started = time.monotonic()

        async def call(kind: str, tool: str, arguments: dict[str, object]) -> None:
            r = await client.call_tool(tool, arguments)
            text = r.content[0].text if r.content else ""  # type: ignore[union-attr]
            results[kind].append((r.is_error, text, time.monotonic() - started))

        async with anyio.create_task_group() as tg:
            for _ in range(40):
                tg.start_soon(call, "endless", "list_links",
                              {"archive": str(endless), "type": "broken"})
            for _ in range(4):
                tg.start_soon(call, "big", "find_duplicates", {"archive": str(big)})
            tg.start_soon(call, "healthy", "get_summary", {"archive": str(healthy)})
    assert all(err and "table anchors is a view" in text and took < 1 + 5
               for err, text, took in results["endless"]), results["endless"][:3]
    for err, text, took in results["big"]:  # slow, not stuck: stopped at the deadline
        assert took < 1 + 30 and (not err or "Query stopped after 1 s" in text), text
    [(err, text, _)] = results["healthy"]
    assert not err and json.loads(text)["totalPages"] == 5


async def test_rewritten_archives_are_closed(tmp_path: Path) -> None:
    archive = build_pre013(tmp_path, name="rewritten")
    params = StdioServerParameters(
        command="/bin/sh", args=["-c", f"ulimit -n 64 && exec {SERVER} --root {tmp_path}"],
        env={"NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]})
    async with Client(params) as client:
        for i in range(80):  # 56 rewrites exhausted 64 descriptors before
            build_pre013(tmp_path, name="rewritten", extended=bool(i % 2))
            r = await client.call_tool("get_summary", {"archive": str(archive)})
            assert not r.is_error, (i, r.content)
            assert r.structured_content is not None
            assert r.structured_content["totalPages"] == (5 if i % 2 else 2)


def test_roots_on_other_hosts_or_with_nul_are_refused() -> None:
    from nitpicker_mcp.errors import PathNotAllowed
    from nitpicker_mcp.roots import roots_from_uris

    assert roots_from_uris(["file:///tmp", "file://localhost/srv", "https://x/"]) == [
        Path(os.path.realpath("/tmp")), Path(os.path.realpath("/srv"))]
    for uri, message in (("file://fileserver/share", "names another host"),
                         ("file:///tmp/a%00b", "contains a NUL byte")):
        with pytest.raises(PathNotAllowed, match=message):
            roots_from_uris([uri])


def test_out_of_file_descriptors_is_said_as_such(tmp_path: Path) -> None:
    archive = build_pre013(tmp_path, name="fds")
    script = ("import resource, sys, nitpicker_query as q\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))\n"
              "import os\nfds = []\n"
              "try:\n  while True: fds.append(os.open('/dev/null', os.O_RDONLY))\n"
              "except OSError: pass\n"
              "os.close(fds.pop())\n"
              "try:\n  q.open_archive(sys.argv[1])\n"
              "except q.NitpickerError as e: print('error:', e)\n")
    r = subprocess.run([sys.executable, "-c", script, str(archive)], capture_output=True,
                       text=True, timeout=60,
                       env={**os.environ, "NITPICKER_PY_DISABLE_CACHE": "1"})
    assert "EMFILE" in r.stdout and "corrupt" not in r.stdout, r.stdout + r.stderr


def test_a_full_disk_is_not_called_a_corrupt_archive(tmp_path: Path) -> None:
    archive = build_pre013(tmp_path, name="large")

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    r = subprocess.run([QUERY, "summary", str(archive)], capture_output=True, text=True,
                       preexec_fn=small_files, timeout=60,
                       env={**os.environ, "NITPICKER_PY_DISABLE_CACHE": "1"})
    assert r.returncode == 1
    assert "Cannot extract large.nitpicker: File too large (EFBIG)" in r.stderr
    assert "corrupt" not in r.stderr


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("useradd") is None,
                    reason="needs root and useradd to create a second local user")
def test_another_user_cannot_read_or_plant_cache_entries(tmp_path: Path) -> None:
    name = "nitpicker-other"
    if subprocess.run(["id", name], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/false", name],
                       check=True)
    other = pwd.getpwnam(name)
    mine = tmp_path / "cache"
    archive = build_pre013(tmp_path, name="private")
    env = {**os.environ, "NITPICKER_PY_CACHE_DIR": str(mine)}
    subprocess.run([QUERY, "summary", str(archive)], env=env, check=True,
                   capture_output=True)
    entry = next(p for p in mine.iterdir() if p.is_dir())
    tmp_path.chmod(0o755)

    def as_other() -> None:
        os.setgid(other.pw_gid)
        os.setuid(other.pw_uid)

    script = ("import sys, pathlib; p = pathlib.Path(sys.argv[1]);\n"
              "try:\n  print(len(list(p.iterdir())))\nexcept OSError as e: print('denied')\n"
              "try:\n  (p / 'planted').mkdir(); print('planted')\n"
              "except OSError as e: print('denied')\n")
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    r = subprocess.run([python, "-c", script, str(mine)], preexec_fn=as_other,
                       capture_output=True, text=True, timeout=30)
    assert r.stdout.split() == ["denied", "denied"], r.stdout + r.stderr
    assert (mine.stat().st_mode & 0o777) == 0o700 and entry.exists()
    # the other user's own default cache is theirs: the same path cannot be shared
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    r = subprocess.run([QUERY, "summary", str(archive)], capture_output=True, text=True,
                       env={**os.environ, "NITPICKER_PY_CACHE_DIR": str(shared)})
    assert r.returncode == 1 and "is not private" in r.stderr
    os.chown(shared, other.pw_uid, other.pw_gid)
    shared.chmod(0o700)
    r = subprocess.run([QUERY, "summary", str(archive)], capture_output=True, text=True,
                       env={**os.environ, "NITPICKER_PY_CACHE_DIR": str(shared)})
    assert r.returncode == 1 and f"owner uid {other.pw_uid}" in r.stderr


async def test_a_path_swapped_after_the_check_never_reads_outside(tmp_path: Path) -> None:
    import threading

    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "d").mkdir(parents=True)
    (outside / "d").mkdir(parents=True)
    build_pre013(root / "d", name="x")                  # 2 pages: what may be read
    build_pre013(outside / "d", extended=True, name="x")  # 5 pages: what must not be
    stop = threading.Event()

    def swap() -> None:  # root/d flips between the real directory and a symlink outside
        real, link = root / "d", root / "d.real"
        while not stop.is_set():
            os.rename(real, link)
            os.symlink(outside / "d", real)
            time.sleep(0.0005)
            os.unlink(real)
            os.rename(link, real)
            time.sleep(0.0005)

    params = StdioServerParameters(
        command=SERVER, args=["--root", str(root)],
        env={"NITPICKER_PY_CACHE_DIR": os.environ["NITPICKER_PY_CACHE_DIR"]})
    seen: dict[object, int] = {}
    thread = threading.Thread(target=swap)
    async with Client(params) as client:
        thread.start()
        try:
            for _ in range(400):
                r = await client.call_tool(
                    "get_summary", {"archive": str(root / "d" / "x.nitpicker")})
                key = "error" if r.is_error else r.structured_content["totalPages"]  # type: ignore[index]
                seen[key] = seen.get(key, 0) + 1
                if r.is_error:
                    text = r.content[0].text  # type: ignore[union-attr]
                    assert "Internal error" not in text, text
        finally:
            stop.set()
            thread.join()
    assert 5 not in seen, seen  # never the outside archive's answer
    assert seen.get(2, 0) > 0, seen

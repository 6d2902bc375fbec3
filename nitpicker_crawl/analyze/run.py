"""Running plugins over an archive: one plugin after another, each over the pages it has
not done yet, a batch at a time, each batch committed with its pages' done-marks.

What a stop costs: a signal (Ctrl-C, SIGTERM, SIGHUP) cancels the batch in progress —
its pages were not written, so they are simply not done — and the plugin's tool is
closed. Everything committed before stays (in the work directory of a ``.nitpicker``
file, whose original is untouched; in place for a crawl directory), and the next run
goes on from there.

Memory: one batch of HTML per plugin at a time (:attr:`Plugin.batch`), whatever the
archive's size; the page list is read batch by batch (:meth:`Store.pending`).
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

from .plugin import Finding, Page, Plugin, Unavailable
from .store import Store
from .workspace import Workspace

Say = Callable[[int, int, str], None]
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@dataclass
class PluginRun:
    """What one plugin did in this run."""

    name: str
    identity: str = ""
    total: int = 0
    """Pages the plugin is for (internal HTML pages with a stored snapshot)."""
    before: int = 0
    """Of them, done by an earlier run under the same identity (skipped)."""
    analysed: int = 0
    findings: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    """(URL, reason) of pages that could not be analysed; tried again next run."""
    unavailable: str | None = None


@dataclass
class Outcome:
    runs: list[PluginRun]
    signal: int | None = None
    """The signal that stopped the run, or None when it went to the end."""


async def _run_one(ws: Workspace, plugin: Plugin, *, force: bool, say: Say,
                   runs: list[PluginRun]) -> None:
    report = PluginRun(plugin.name)
    runs.append(report)  # what it did so far is told even if a stop cuts it short
    try:
        await plugin.start()
    except Unavailable as exc:
        report.unavailable = str(exc)
        await plugin.close()
        return
    try:
        store = Store(ws.conn, plugin.name, plugin.identity)
        report.identity = plugin.identity
        if force:
            store.forget()
        report.total, report.before = store.counts()
        done = report.before
        say(done, report.total, f"{plugin.name}: {done}/{report.total} pages")
        for batch in store.pending(plugin.batch):
            results = await plugin.analyze(batch)
            finished: list[tuple[Page, list[Finding]]] = []
            for page in batch:
                outcome = results.get(page.id, "the plugin returned nothing for it")
                if isinstance(outcome, str):
                    report.failed.append((page.url, outcome))
                else:
                    finished.append((page, outcome))
            report.findings += store.save(finished)
            report.analysed += len(finished)
            done += len(batch)
            say(done, report.total, f"{plugin.name}: {done}/{report.total} pages, "
                f"{report.findings} findings")
    finally:
        await plugin.close()


async def _run_all(ws: Workspace, plugins: list[Plugin], *, force: bool, say: Say,
                   stopped: list[int]) -> list[PluginRun]:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None

    def stop(signum: int) -> None:
        if not stopped:
            stopped.append(signum)
            task.cancel()

    for signum in STOPPING:
        loop.add_signal_handler(signum, stop, signum)
    runs: list[PluginRun] = []
    try:
        for plugin in plugins:
            await _run_one(ws, plugin, force=force, say=say, runs=runs)
    except asyncio.CancelledError:
        if not stopped:
            raise
    finally:
        for signum in STOPPING:
            loop.remove_signal_handler(signum)
    return runs


def prune_texts(conn: sqlite3.Connection) -> None:
    """Texts no finding points at any more (findings replaced by a re-run) go."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'analysis_text_refs'"
                    ).fetchone() is None:  # no plugin ran (each was unavailable)
        return
    with conn:
        conn.execute("DELETE FROM analysis_text_refs WHERE id NOT IN (SELECT message_text_id "
                     "FROM analysis_violations) AND id NOT IN (SELECT code_text_id FROM "
                     "analysis_violations WHERE code_text_id IS NOT NULL)")


def run(ws: Workspace, plugins: list[Plugin], *, force: bool, say: Say) -> Outcome:
    """Run ``plugins`` in order over the archive open in ``ws``. On a stopping signal
    the batch in progress is dropped and the outcome carries the signal; the caller then
    suspends the workspace instead of finishing it."""
    stopped: list[int] = []
    runs = asyncio.run(_run_all(ws, plugins, force=force, say=say, stopped=stopped))
    if stopped:
        return Outcome(runs, stopped[0])
    prune_texts(ws.conn)
    return Outcome(runs)

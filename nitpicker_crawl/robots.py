"""robots.txt, fetched once per origin and honoured unless ``--ignore-robots``."""

from __future__ import annotations

import asyncio
from urllib.robotparser import RobotFileParser

from .fetcher import Fetcher
from .urls import origin


class Robots:
    """Answers "may we fetch this URL?" per origin; a missing or broken robots.txt allows all."""

    def __init__(self, fetcher: Fetcher, user_agent: str) -> None:
        self.fetcher = fetcher
        self.user_agent = user_agent
        self._parsers: dict[str, RobotFileParser | None] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def allowed(self, url: str) -> bool:
        key = origin(url)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self._parsers:
                self._parsers[key] = await self._load(key)
        parser = self._parsers[key]
        return True if parser is None else parser.can_fetch(self.user_agent, url)

    async def _load(self, key: str) -> RobotFileParser | None:
        try:
            response = await self.fetcher.client.get(f"{key}/robots.txt",
                                                     timeout=self.fetcher.timeout_s,
                                                     follow_redirects=True)
        except Exception:  # unreachable robots.txt: the page fetch will report the host
            return None
        if response.status_code >= 400:
            return None
        parser = RobotFileParser()
        parser.parse(response.text.splitlines())
        return parser


"""What the server keeps for each browser: games and labs belong to the browser that made them.

A browser is named by a random token in an HttpOnly, SameSite=Strict cookie (``web.guard``).
Another browser (or a page of another site, which the cookie is never sent with) can neither see
nor move nor stop what a browser owns: asking for it answers 404, as for an id that never was.
Within the bounds a browser's oldest goes first; when the server is full of other browsers'
things, a newcomer gets 429 and nobody loses anything, except things nobody has touched for
``IDLE_SECONDS``, which may make room, and things whose browser never came back for them
(``UNCLAIMED_SECONDS``): a client that keeps no cookie (a script without a cookie jar) gets a new
owner with every request, so without this its things would hold the server for an hour.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from purestate.web.errors import NotFound, WebError

IDLE_SECONDS = 3600.0
"""Things untouched for this long may be forgotten to make room for another browser's."""
UNCLAIMED_SECONDS = 60.0
"""Things their browser never came back for (no later request with its cookie asked for them or
made another thing) may be forgotten after this long to make room for another browser's."""

T = TypeVar("T")


class Busy(WebError):
    """The server holds as many things as it may, all of other browsers: try again later."""

    status = 429


class Owned(Generic[T]):
    """Things (games, labs) by unguessable id, each owned by one browser.

    Args:
        total: The most kept at once.
        each: The most one browser keeps (its least recently used goes for a new one).
        what: What they are, for messages ("game", "lab").
        gone: Called with a thing that is forgotten (a lab stops its training).
        busy: Whether a thing is in use (a lab streaming to its page), so never idle.
        now: The clock of idleness (seconds).
    """

    def __init__(
        self,
        total: int,
        each: int,
        what: str,
        gone: Callable[[T], None] = lambda item: None,
        busy: Callable[[T], bool] = lambda item: False,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.each, self.what = total, each, what
        self._gone, self._busy, self._now = gone, busy, now
        # id -> (owner, thing, last touched, whether its owner came back since making it)
        self._items: OrderedDict[str, tuple[str, T, float, bool]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def _drop(self, item_id: str) -> None:
        _, item, _, _ = self._items.pop(item_id)
        self._gone(item)

    def _oldest_of(self, owner: str) -> str | None:
        return next((k for k, (o, *_) in self._items.items() if o == owner), None)

    def add(self, item: T, owner: str) -> str:
        """Keep ``item`` for ``owner``; its id.

        Raises:
            Busy: the server is full of other browsers' things, none of them idle.
        """
        returning = self._oldest_of(owner) is not None  # the cookie came back with this request
        if returning:
            for k, (o, it, t, _) in self._items.items():
                if o == owner:
                    self._items[k] = (o, it, t, True)
        while sum(o == owner for o, *_ in self._items.values()) >= self.each:
            oldest = self._oldest_of(owner)
            assert oldest is not None
            self._drop(oldest)
        if len(self._items) >= self.total:
            self._drop(self._room_for(owner))
        item_id = secrets.token_urlsafe(12)
        self._items[item_id] = (owner, item, self._now(), returning)
        return item_id

    def room(self, owner: str) -> None:
        """Check, before making a new thing for ``owner``, that it could be kept.

        Raises:
            Busy: the server is full of other browsers' things, none of them idle.
        """
        if len(self._items) >= self.total:
            self._room_for(owner)

    def _room_for(self, owner: str) -> str:
        """The id to forget for ``owner``'s new thing on a full server: the owner's oldest, else
        a thing not in use and idle for ``IDLE_SECONDS``, or unclaimed for ``UNCLAIMED_SECONDS``."""
        now = self._now()

        def forgettable(touched: float, claimed: bool) -> bool:
            return touched < now - (IDLE_SECONDS if claimed else UNCLAIMED_SECONDS)

        found = self._oldest_of(owner) or next(
            (
                k
                for k, (_, it, t, claimed) in self._items.items()
                if forgettable(t, claimed) and not self._busy(it)
            ),
            None,
        )
        if found is None:
            raise Busy(
                f"the server holds as many {self.what}s as it may ({self.total}), all of other "
                "browsers: try again later"
            )
        return found

    def get(self, item_id: str, owner: str) -> T:
        """The thing ``item_id`` if ``owner`` owns it.

        Raises:
            NotFound: if there is none, or it belongs to another browser (the same answer).
        """
        found = self._items.get(item_id)
        if found is None or found[0] != owner:
            raise NotFound(
                f"no such {self.what} in this browser (the server forgets old {self.what}s): "
                "start a new one"
            )
        self._items[item_id] = (owner, found[1], self._now(), True)
        self._items.move_to_end(item_id)
        return found[1]

    def all(self) -> list[T]:
        """Everything kept (to stop it when the server stops)."""
        return [item for _, item, *_ in self._items.values()]

"""The errors the web app answers with a JSON message instead of a page of traceback."""

from __future__ import annotations


class WebError(Exception):
    """A request the app refuses; ``status`` is the HTTP status, the message says why."""

    status = 400


class NotFound(WebError):
    """No such run, game, session or page."""

    status = 404


class TooLarge(WebError):
    """A request body past the app's bound."""

    status = 413


class Conflict(WebError):
    """A request that clashes with what is going on (a lab's updates already stream elsewhere)."""

    status = 409

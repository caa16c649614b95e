"""XML text and attribute escapes for the SVG pictures.

They write what ``xml.sax.saxutils.escape`` and ``quoteattr`` write, character for character
(``tests/test_markup.py`` compares them); importing that module costs every command its import
of ``urllib.request`` (with ``http.client``, ``email`` and ``ssl``), a tenth of the command
line's start-up, for three replacements.
"""

from __future__ import annotations


def escape(text: str) -> str:
    """``text`` as XML character data: ``&``, ``<`` and ``>`` written as entities."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, quotes included.

    Besides ``escape``'s entities, line breaks and tabs become character references (a parser
    would fold them into spaces); the value is quoted with ``"`` unless it holds one and no
    ``'``, and with both present its ``"`` are written ``&quot;``.
    """
    data = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"{}"'.format(data.replace('"', "&quot;"))

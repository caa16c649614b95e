"""The SVG escapes write what the standard library's XML escapes write."""

from __future__ import annotations

from xml.sax.saxutils import escape as sax_escape
from xml.sax.saxutils import quoteattr as sax_quoteattr

from hypothesis import given
from hypothesis import strategies as st

from purestate.core.markup import escape, quoteattr

# the characters the escapes treat apart, and a few others, so that every case is met often
_TEXT = st.text(alphabet=st.sampled_from("&<>\"'\n\r\t a;#é") | st.characters(), max_size=30)


@given(_TEXT)
def test_escape_is_the_standard_librarys(text: str) -> None:
    assert escape(text) == sax_escape(text)


@given(_TEXT)
def test_quoteattr_is_the_standard_librarys(text: str) -> None:
    assert quoteattr(text) == sax_quoteattr(text)


def test_each_quoting_case() -> None:
    assert quoteattr("a<b") == '"a&lt;b"'
    assert quoteattr('say "hi"') == "'say \"hi\"'"
    assert quoteattr('it\'s "x"') == '"it\'s &quot;x&quot;"'
    assert quoteattr("a\nb\tc\rd") == '"a&#10;b&#9;c&#13;d"'
    assert escape("a & b > c") == "a &amp; b &gt; c"

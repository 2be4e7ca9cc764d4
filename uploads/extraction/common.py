"""Helpers every extractor shares: decoding, the character budget, text quality and normalisation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from core.deadline import Deadline
from uploads.extraction.sniff import utf16_byte_order
from uploads.rejections import Reason, SourceRefused, refuse

_SPACES = re.compile(r"[ \t\u00a0]+")
_INVISIBLE = re.compile(
    "[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)


@dataclass(frozen=True)
class Decoded:
    text: str
    replaced: int


def decode(data: bytes) -> Decoded:
    """Bytes to text: BOM first (UTF-8, UTF-16, UTF-32), BOM-less UTF-16 by its NULs, else UTF-8.

    Invalid sequences become U+FFFD, counted in ``replaced``. Line endings become ``\\n``.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
    elif data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        text = data.decode("utf-32", errors="replace")
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    elif order := utf16_byte_order(data):
        text = data.decode(order, errors="replace")
    else:
        text = data.decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return Decoded(text=text, replaced=text.count("\ufffd"))


def strip_invisible(text: str) -> str:
    """``text`` without control, zero-width and bidi-override characters (tabs and newlines stay)."""
    return _INVISIBLE.sub("", text)


def clean_line(line: str) -> str:
    """One line with invisible control and bidi-override characters removed, spaces collapsed."""
    return _SPACES.sub(" ", _INVISIBLE.sub("", line)).strip()


def clean_inline(value: str) -> str:
    """A cell or value on one line: every whitespace run, newlines included, becomes one space."""
    return " ".join(_INVISIBLE.sub("", value).split())


# Text a font could not map to Unicode comes out as glyph names or codes: /g18, /gid00042,
# (cid:12), /uni0041 or /.notdef. They are letters and digits to ``isalnum`` but nothing a reader
# can read, so they count as unreadable, like U+FFFD, private-use characters and symbol soup.
_GLYPH_CODES = re.compile(
    r"/(?:g|gid|G|cid)\d+\b|\(cid:\d+\)|/uni[0-9A-Fa-f]{4,6}\b|/\.notdef|\bcid:\d+\b"
)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# A word of three or more symbols and no letter or digit ("#$%&", "}{][").
_SOUP = re.compile(r"(?<!\S)[^\w\s\ufffd\ue000-\uf8ff]{3,}(?!\S)")
_NOT_ALNUM = re.compile(r"[\W_]+")
# A word a reader can read: three letters in a row, a number, or any Chinese, Japanese or Korean
# character (a Korean word is often two syllables). Garbled OCR of a scan (":., dP .") and
# character charts ("! \" # $ A B C") are mostly tokens with none of these.
_WORDLIKE_TOKEN = re.compile(
    r"[^\W\d_]{3,}|\d|[\u1100-\u11ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
#: A page or file is unreadable when more than this share of its visible characters are.
UNREADABLE_SHARE = 0.5
#: ... or when fewer than this share of its visible characters are in words or numbers (a text
#: of fewer than IN_WORDS_MIN_CHARS visible characters, "a" or "OK", is too short to judge so).
IN_WORDS_SHARE = 0.5
IN_WORDS_MIN_CHARS = 40


@dataclass(frozen=True)
class Readability:
    """How much of a text a reader could read; measures of pages add up to the document's."""

    visible: int = 0
    unreadable: int = 0
    replaced: int = 0
    private: int = 0
    #: Letters and digits outside glyph codes.
    wordlike: int = 0
    #: Visible characters in tokens that hold a word (three letters in a row) or a number.
    in_words: int = 0

    def __add__(self, other: Readability) -> Readability:
        return Readability(
            self.visible + other.visible,
            self.unreadable + other.unreadable,
            self.replaced + other.replaced,
            self.private + other.private,
            self.wordlike + other.wordlike,
            self.in_words + other.in_words,
        )

    @property
    def unreadable_share(self) -> float:
        return self.unreadable / self.visible if self.visible else 0.0

    @property
    def mostly_unreadable(self) -> bool:
        return self.unreadable_share > UNREADABLE_SHARE

    def problem(self) -> str | None:
        """Why the text is too garbled to cite, or None.

        Refused: more than half unreadable, or more than a tenth replacement or private-use
        characters, or fewer than two in five letters or digits once glyph codes are left out.
        """
        if not self.visible:
            return None
        if self.replaced / self.visible > 0.10:
            return f"{self.replaced:,} of {self.visible:,} characters could not be decoded"
        if self.mostly_unreadable:
            return (
                f"{self.unreadable_share:.0%} of the characters are unmapped glyph codes, "
                "replacement characters or symbols, not readable text"
            )
        if self.private / self.visible > 0.10 or self.wordlike < 0.40 * self.visible:
            return (
                "the extracted characters are mostly symbols or unmapped glyphs, not readable text"
            )
        return None

    def scattered(self) -> str | None:
        """Why a text layer is scattered letters and symbols rather than words, or None.

        For a PDF's text layer (a poor scan's OCR, a character chart): fewer than half its visible
        characters in words or numbers. Not for tables or text files, whose cells and lines may
        rightly be single letters (codes such as Y/N).
        """
        if self.visible >= IN_WORDS_MIN_CHARS and self.in_words < IN_WORDS_SHARE * self.visible:
            return (
                f"only {self.in_words / self.visible:.0%} of the characters are in words or numbers; "
                "the rest are scattered letters and symbols (a poor scan's text layer or a "
                "character chart), not readable text"
            )
        return None


def readability(text: str) -> Readability:
    """Count the characters of ``text`` a reader could not read, in a few passes of C-level regexes.

    Unreadable: unmapped-glyph codes (``/g18``, ``/gid00042``, ``(cid:12)``), replacement,
    private-use, surrogate and unassigned characters, and symbol soup (words of three or more
    symbols without a letter or digit).
    """
    tokens = text.split()
    visible = sum(map(len, tokens))
    in_words = sum(len(token) for token in tokens if _WORDLIKE_TOKEN.search(token))
    # Every glyph code holds a "/" or "cid:"; most pages have neither, and the search is slow.
    has_codes = "/" in text or "cid:" in text
    glyphs = sum(len(m.group()) for m in _GLYPH_CODES.finditer(text)) if has_codes else 0
    rest = _GLYPH_CODES.sub(" ", text) if glyphs else text
    replaced = rest.count("\ufffd")
    private = sum(
        1 for c in _NON_ASCII.findall(rest) if unicodedata.category(c) in ("Co", "Cn", "Cs")
    )
    soup = sum(map(len, _SOUP.findall(rest)))
    wordlike = len(_NOT_ALNUM.sub("", rest))
    return Readability(
        visible=visible,
        unreadable=glyphs + replaced + private + soup,
        replaced=replaced,
        private=private,
        wordlike=wordlike,
        in_words=in_words,
    )


def quality_problem(text: str) -> str | None:
    """Why ``text`` is too garbled to cite, or None (see ``Readability.problem``)."""
    return readability(text).problem()


class CharBudget:
    """Extracted characters for one file: a per-file limit that refuses, a session budget that truncates.

    ``take(n)`` counts ``n`` more characters of the file. Past ``limit`` (the file type's own
    character limit) the file is refused with the refusal the budget was given. Past ``keep``
    (what the session has left; None for no session) nothing more is kept: ``take`` returns False
    from then on, and the extractor keeps the whole units (pages, rows, sections) it already has.
    """

    def __init__(
        self,
        limit: int,
        reason: Reason,
        message: str,
        *,
        keep: int | None = None,
        full_message: str = "",
    ):
        self.limit = limit
        self.reason = reason
        self.message = message
        self.keep = keep
        self.full_message = full_message
        self.used = 0
        self.kept = 0
        self.full = False

    def take(self, n: int) -> bool:
        """Count ``n`` characters; True if they are kept, False once the session budget is full."""
        self.used += n
        if self.used > self.limit:
            raise refuse(self.reason, self.message)
        if self.full:
            return False
        if self.keep is not None and self.kept + n > self.keep:
            self.full = True
            return False
        self.kept += n
        return True

    def nothing_fits(self) -> SourceRefused:
        """The refusal for a file of which not even the first page, row, section or line fits."""
        return SourceRefused(Reason.SESSION_LIMIT, self.full_message)


def kept_range(unit: str, kept: int, total: int, *, first: int = 1) -> str:
    """What a truncated source kept, in its own units: ``pages 1-54 of 74``."""
    last = first + kept - 1
    span = f"{first:,}" if kept == 1 else f"{first:,}-{last:,}"
    return f"{unit} {span} of {first + total - 1:,}"


def check_deadline(deadline: Deadline, what: str) -> None:
    """Refuse the upload once extracting it has used up its time bound (checked between units)."""
    if deadline.expired():
        raise over_time(deadline, what)


def over_time(deadline: Deadline, what: str) -> SourceRefused:
    """The refusal for an upload whose extraction used up its time bound."""
    return refuse(
        Reason.TOO_LARGE,
        f"Extracting this {what} took longer than the {deadline.seconds:g}-second limit.",
    )

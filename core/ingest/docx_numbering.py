"""Word's automatic numbering, rendered the way Word shows it ("7.2", "(a)", "iv.").

Case B35: a contract's clause numbers live in ``word/numbering.xml``, not in the text,
so "clause 7.2" could not be told from its siblings 7.1 and 7.3. Neither python-docx
nor mammoth renders list labels, and docx2python renders its own ("7)", "1)") instead
of the document's ``lvlText`` ("%1.%2" → "7.2"), so the counting is ours, after ECMA-376
Part 1, §17.9 (Numbering):

* a paragraph is numbered by its ``w:numPr`` (``numId``, ``ilvl``), or by its style's
  (the level is then the one whose ``w:pStyle`` names the style, else 0); ``numId`` 0
  means "not numbered";
* a ``w:num`` points at a ``w:abstractNum`` (possibly through ``w:numStyleLink``) and may
  override a level's start (``w:lvlOverride/w:startOverride``, applied when that ``num`` is
  first used) or the whole level;
* ``num`` instances of one ``abstractNum`` share its counters (Word continues a list
  across them unless a start override restarts it);
* counting a level restarts every deeper level, unless the deeper level's
  ``w:lvlRestart`` says otherwise (0: never; n: only after level n, 1-based);
* the label is ``w:lvlText`` with ``%1``…``%9`` replaced by the counters of those levels in
  their ``w:numFmt`` (decimal when the level is ``w:isLgl``), followed by the
  ``w:suff`` separator (tab or space → one space, nothing → nothing).

Formats rendered: decimal, decimalZero, lower/upperRoman, lower/upperLetter, ordinal
(English "1st"), bullet (private-use symbol glyphs become "•"), none; any other format
falls back to decimal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docx.oxml.ns import qn


@dataclass
class Level:
    """One level of a list definition (ECMA-376 ``w:lvl``)."""

    start: int = 1
    fmt: str = "decimal"
    text: str = "%1."
    restart: int | None = None  # w:lvlRestart (None = default: restart after any higher level)
    legal: bool = False  # w:isLgl
    suffix: str = " "
    style: str = ""  # w:pStyle linked to this level


def _val(el, tag: str, default: str | None = None) -> str | None:
    child = el.find(qn(tag)) if el is not None else None
    if child is None:
        return default
    return child.get(qn("w:val"), default)


def _level(el, base: Level | None = None) -> Level:
    lvl = Level(**vars(base)) if base else Level()
    if (v := _val(el, "w:start")) is not None and v.lstrip("-").isdigit():
        lvl.start = int(v)
    if (v := _val(el, "w:numFmt")) is not None:
        lvl.fmt = v
    if (t := el.find(qn("w:lvlText"))) is not None:
        lvl.text = t.get(qn("w:val"), "")
    if (v := _val(el, "w:lvlRestart")) is not None and v.isdigit():
        lvl.restart = int(v)
    if (g := el.find(qn("w:isLgl"))) is not None:
        lvl.legal = g.get(qn("w:val"), "1") not in ("0", "false", "off")
    if (v := _val(el, "w:suff")) is not None:
        lvl.suffix = "" if v == "nothing" else " "
    if (v := _val(el, "w:pStyle")) is not None:
        lvl.style = v
    return lvl


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def roman(n: int) -> str:
    """Lower-case roman numeral of ``n`` (``n`` ≤ 0 → decimal)."""
    if n <= 0:
        return str(n)
    out = []
    for value, sym in _ROMAN:
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)


def letter(n: int) -> str:
    """Word's lower-case letter numbering: a…z, then aa…zz, aaa… (``n`` ≤ 0 → decimal)."""
    if n <= 0:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def format_number(n: int, fmt: str) -> str:
    """``n`` in a ``w:numFmt`` format (see the module docstring for the formats rendered)."""
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "lowerRoman":
        return roman(n)
    if fmt == "upperRoman":
        return roman(n).upper()
    if fmt == "lowerLetter":
        return letter(n)
    if fmt == "upperLetter":
        return letter(n).upper()
    if fmt == "ordinal":
        return _ordinal(n)
    if fmt == "none":
        return ""
    return str(n)


@dataclass
class _Num:
    abstract: str
    starts: dict[int, int] = field(default_factory=dict)  # ilvl -> startOverride
    levels: dict[int, Level] = field(default_factory=dict)  # ilvl -> overriding level


class Numbering:
    """The numbering definitions of one document part and the counters while reading it in order.

    Args:
        root: the ``w:numbering`` element (``None`` when the document has no numbering part).
        style_num: paragraph style id → ``(numId, ilvl or None)`` from the styles' ``w:numPr``
            (used to resolve ``w:numStyleLink``).
    """

    def __init__(self, root, style_num: dict[str, tuple[str, int | None]]) -> None:
        self.abstracts: dict[str, dict[int, Level]] = {}
        self.nums: dict[str, _Num] = {}
        links: dict[str, str] = {}
        if root is not None:
            for a in root.findall(qn("w:abstractNum")):
                aid = a.get(qn("w:abstractNumId"))
                self.abstracts[aid] = {int(lv.get(qn("w:ilvl"), "0")): _level(lv) for lv in a.findall(qn("w:lvl"))}
                if (link := _val(a, "w:numStyleLink")) is not None:
                    links[aid] = link
            for n in root.findall(qn("w:num")):
                num = _Num(_val(n, "w:abstractNumId", "") or "")
                for ov in n.findall(qn("w:lvlOverride")):
                    ilvl = int(ov.get(qn("w:ilvl"), "0"))
                    if (v := _val(ov, "w:startOverride")) is not None and v.lstrip("-").isdigit():
                        num.starts[ilvl] = int(v)
                    if (lv := ov.find(qn("w:lvl"))) is not None:
                        num.levels[ilvl] = _level(lv, self.abstracts.get(num.abstract, {}).get(ilvl))
                self.nums[n.get(qn("w:numId"))] = num
        # numStyleLink: the abstract definition is the one of the num its style points at
        for aid, style in links.items():
            target = style_num.get(style)
            if target and target[0] in self.nums:
                real = self.nums[target[0]].abstract
                if real != aid and real in self.abstracts:
                    for num in self.nums.values():
                        if num.abstract == aid:
                            num.abstract = real
        self._counters: dict[str, dict[int, int]] = {}
        self._used: set[str] = set()

    def level_for_style(self, num_id: str, style: str) -> int:
        """The level of list ``num_id`` linked to paragraph style ``style`` (0 if none)."""
        num = self.nums.get(num_id)
        for ilvl, lvl in (self.abstracts.get(num.abstract, {}) if num else {}).items():
            if lvl.style == style:
                return ilvl
        return 0

    def _level(self, num: _Num, ilvl: int) -> Level | None:
        return num.levels.get(ilvl) or self.abstracts.get(num.abstract, {}).get(ilvl)

    def next_label(self, num_id: str, ilvl: int) -> str:
        """Count one more paragraph at ``ilvl`` of list ``num_id`` and return its label with suffix.

        Returns ``""`` for ``numId`` 0, an unknown list or level, or a level without text.
        """
        num = self.nums.get(num_id)
        if num_id == "0" or num is None:
            return ""
        lvl = self._level(num, ilvl)
        if lvl is None:
            return ""
        counters = self._counters.setdefault(num.abstract, {})
        if num_id not in self._used:
            self._used.add(num_id)
            for k, start in num.starts.items():
                counters[k] = start - 1
                for deeper in [d for d in counters if d > k]:
                    del counters[deeper]
        counters[ilvl] = counters.get(ilvl, lvl.start - 1) + 1
        for deeper in [d for d in counters if d > ilvl]:
            restart = (self._level(num, deeper) or Level()).restart
            if restart is None or (restart > 0 and ilvl < restart):
                del counters[deeper]
        if lvl.fmt == "bullet":
            glyph = lvl.text.strip()
            return ("•" if not glyph or any(0xE000 <= ord(c) <= 0xF8FF for c in glyph) else glyph) + lvl.suffix
        out = []
        i = 0
        text = lvl.text
        while i < len(text):
            if text[i] == "%" and i + 1 < len(text) and text[i + 1].isdigit():
                k = int(text[i + 1]) - 1
                ref = self._level(num, k) or Level()
                value = counters.get(k, ref.start)
                out.append(format_number(value, "decimal" if lvl.legal and ref.fmt != "none" else ref.fmt))
                i += 2
            else:
                out.append(text[i])
                i += 1
        label = "".join(out).strip()
        return label + lvl.suffix if label else ""

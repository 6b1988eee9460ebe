"""Word (.docx) files: the text a reader of the document sees, in reading order.

What is read (cases B11, B25, B32, B34, B35):

* **tracked changes** as if accepted: insertions (``w:ins``, ``w:moveTo``) in, deletions
  (``w:del``, ``w:moveFrom``, deleted table rows) out; a deleted paragraph mark joins
  the paragraph with the next one;
* **automatic numbering** rendered into the text ("7.2 Either party…",
  :mod:`core.ingest.docx_numbering`);
* **footnotes and endnotes** placed right after the paragraph that refers to them, as
  blocks labelled "footnote 1" / "endnote i" (the citation's location); the reference
  mark is written as a superscript ("months.¹");
* **content controls** (``w:sdt``) in the body, paragraphs, tables, rows and cells;
  **text boxes** (``w:txbxContent``, DrawingML and VML, one copy of an
  ``mc:AlternateContent``) as blocks after their anchor paragraph;
* **headers and footers** once (each distinct text once, however many sections repeat
  it): headers before the body, footers after it, labelled "header" / "footer";
* tables row by row, each row a record carrying its column names (``"Unit: 4B-17 | Rent: 1.250"``,
  :mod:`core.ingest.tables`), nested tables inside their cell;
  headings from the paragraph style ("Heading 2" → level 2, "Title" → 1);
* superscript/subscript runs as Unicode super/subscripts (``as_superscript``).

Hidden runs (``w:vanish``, directly or through the run's character style) and white
text of at most 2 pt are left out (case B25: instructions hidden from the reader).

**Why this walker.** Evaluated first (2026-11-30, on the cases above):
docx2python 3.7.1 raises ``KeyError: 'r'`` on B34 (a footnotes part without the ``r``
namespace) and renders numbering in its own style ("7)", "1)", "a)") instead of the
document's ("7.", "7.2", "(a)"); mammoth 1.13 reads tracked changes, notes and text
boxes, but drops list labels (HTML ``<ol>``), headers and footers, and keeps B25's white
1-pt text. No library renders numbering labels, so python-docx (already a dependency:
package, relationships, styles and parts) opens the file and this module walks its
XML; every rule above is a few lines over ``lxml`` elements.
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass, field
from pathlib import Path

from docx.oxml.ns import qn

from core.errors import IngestError
from core.ingest.base import ParsedDocument, TextBuilder, as_subscript, as_superscript
from core.ingest.docx_numbering import Numbering, format_number
from core.ingest.tables import record_lines

_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_MATH_T = "{http://schemas.openxmlformats.org/officeDocument/2006/math}t"
_MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"

# Elements whose children are read as if they stood in their place.
_TRANSPARENT = {qn(t) for t in ("w:hyperlink", "w:smartTag", "w:customXml", "w:ins", "w:moveTo", "w:fldSimple",
                                "w:dir", "w:bdo", "w:sdtContent")}
_SKIPPED = {qn(t) for t in ("w:del", "w:moveFrom", "w:pPr", "w:rPr", "w:sdtPr", "w:sdtEndPr", "w:tblPr",
                            "w:tblGrid", "w:trPr", "w:tcPr", "w:sectPr")}


@dataclass
class _Style:
    name: str = ""
    based_on: str | None = None
    num: tuple[str, int | None] | None = None
    hidden: bool = False


def _on(el) -> bool:
    """An OOXML on/off property: present and not ``w:val="0|false|off"``."""
    return el is not None and el.get(qn("w:val"), "1") not in ("0", "false", "off")


def _num_pr(ppr) -> tuple[str | None, int | None] | None:
    num_pr = ppr.find(qn("w:numPr")) if ppr is not None else None
    if num_pr is None:
        return None
    nid = num_pr.find(qn("w:numId"))
    lvl = num_pr.find(qn("w:ilvl"))
    return (nid.get(qn("w:val")) if nid is not None else None,
            int(lvl.get(qn("w:val"), "0")) if lvl is not None else None)


@dataclass
class _Notes:
    """Footnote or endnote texts by id, and the marks given to them in order of reference."""

    kind: str  # "footnote" | "endnote"
    fmt: str
    elements: dict[str, object] = field(default_factory=dict)
    count: int = 0


class _Reader:
    """Walks one document's parts in reading order into a :class:`TextBuilder`."""

    def __init__(self, document) -> None:
        self.document = document
        self.styles: dict[str, _Style] = {}
        for s in document.styles.element.findall(qn("w:style")):
            sid = s.get(qn("w:styleId"))
            name = s.find(qn("w:name"))
            based = s.find(qn("w:basedOn"))
            rpr = s.find(qn("w:rPr"))
            num = _num_pr(s.find(qn("w:pPr")))
            self.styles[sid] = _Style(
                name=(name.get(qn("w:val"), "") if name is not None else "").lower(),
                based_on=based.get(qn("w:val")) if based is not None else None,
                num=(num[0], num[1]) if num and num[0] else None,  # type: ignore[arg-type]
                hidden=rpr is not None and _on(rpr.find(qn("w:vanish"))),
            )
        self.default_pstyle = next((sid for sid, s in self.styles.items() if s.name == "normal"), None)
        parts = {rel.reltype.rsplit("/", 1)[-1]: rel.target_part for rel in document.part.rels.values()
                 if not rel.is_external}
        from docx.oxml import parse_xml

        numbering = parts.get("numbering")
        style_num = {sid: s.num for sid, s in self.styles.items() if s.num}
        self.numbering = Numbering(numbering.element if numbering is not None else None, style_num)  # type: ignore[arg-type]
        settings = parts.get("settings")
        fmts = {"footnote": "decimal", "endnote": "lowerRoman"}
        if settings is not None:
            for kind in fmts:
                pr = settings.element.find(qn(f"w:{kind}Pr"))
                fmt = pr.find(qn("w:numFmt")) if pr is not None else None
                if fmt is not None:
                    fmts[kind] = fmt.get(qn("w:val"), fmts[kind])
        self.notes: dict[str, _Notes] = {}
        for kind in ("footnote", "endnote"):
            notes = _Notes(kind, fmts[kind])
            part = parts.get(f"{kind}s")
            if part is not None:
                root = parse_xml(part.blob)
                for note in root.findall(qn(f"w:{kind}")):
                    if note.get(qn("w:type")) in (None, "normal"):
                        notes.elements[note.get(qn("w:id"))] = note
            self.notes[kind] = notes
        self.out = TextBuilder()

    # --- styles -------------------------------------------------------------------------

    def _chain(self, sid: str | None):
        seen = set()
        while sid and sid in self.styles and sid not in seen:
            seen.add(sid)
            yield sid, self.styles[sid]
            sid = self.styles[sid].based_on

    def heading_level(self, pstyle: str | None) -> int:
        """Heading level from the paragraph style chain ("Heading 2" → 2, "Title" → 1), 0 for body text."""
        import re

        for _, style in self._chain(pstyle):
            if style.name == "title":
                return 1
            m = re.match(r"(heading|título|titulo)\s*(\d)", style.name)
            if m:
                return int(m.group(2))
        return 0

    def _run_hidden(self, rpr) -> bool:
        if rpr is None:
            return False
        if _on(rpr.find(qn("w:vanish"))) or _on(rpr.find(qn("w:specVanish"))):
            return True
        rstyle = rpr.find(qn("w:rStyle"))
        if rstyle is not None and any(s.hidden for _, s in self._chain(rstyle.get(qn("w:val")))):
            return True
        color = rpr.find(qn("w:color"))
        size = rpr.find(qn("w:sz"))
        if color is not None and size is not None and (color.get(qn("w:val")) or "").upper() == "FFFFFF":
            try:
                return int(size.get(qn("w:val"), "24")) <= 4  # half-points: at most 2 pt
            except ValueError:
                return False
        return False

    # --- inline content -----------------------------------------------------------------

    def _note_mark(self, kind: str, note_id: str | None, pending: list) -> str:
        notes = self.notes[kind]
        if note_id not in notes.elements:
            return ""
        notes.count += 1
        mark = format_number(notes.count, notes.fmt)
        pending.append((kind, note_id, mark))
        return as_superscript(mark) if as_superscript(mark) != mark or not mark.isalnum() else f"[{mark}]"

    def inline(self, el, pending: list, boxes: list, own_mark: str = "") -> str:
        """Text of a paragraph's inline content; note references go to ``pending``, text boxes to ``boxes``."""
        parts: list[str] = []
        for child in el:
            tag = child.tag
            if tag == qn("w:r"):
                rpr = child.find(qn("w:rPr"))
                if self._run_hidden(rpr):
                    continue
                va = rpr.find(qn("w:vertAlign")) if rpr is not None else None
                align = va.get(qn("w:val")) if va is not None else ""
                text = self._run(child, pending, boxes, own_mark)
                parts.append(as_superscript(text) if align == "superscript" else
                             as_subscript(text) if align == "subscript" else text)
            elif tag in _TRANSPARENT:
                parts.append(self.inline(child, pending, boxes, own_mark))
            elif tag == qn("w:sdt"):
                content = child.find(qn("w:sdtContent"))
                if content is not None:
                    parts.append(self.inline(content, pending, boxes, own_mark))
            elif tag == _MC + "AlternateContent":
                choice = child.find(_MC + "Choice")
                if choice is None:
                    choice = child.find(_MC + "Fallback")
                if choice is not None:
                    parts.append(self.inline(choice, pending, boxes, own_mark))
            elif tag in (_MATH + "oMath", _MATH + "oMathPara"):
                parts.append("".join(t.text or "" for t in child.iter(_MATH_T)))
        return "".join(parts)

    def _run(self, run, pending: list, boxes: list, own_mark: str) -> str:
        parts: list[str] = []
        custom_mark = False
        for child in run:
            tag = child.tag
            if tag == qn("w:t"):
                parts.append(child.text or "")
            elif tag in (qn("w:tab"), qn("w:ptab")):
                parts.append("\t")
            elif tag in (qn("w:br"), qn("w:cr")):
                parts.append("\n")
            elif tag == qn("w:noBreakHyphen"):
                parts.append("-")
            elif tag == qn("w:softHyphen"):
                parts.append("\u00ad")
            elif tag in (qn("w:footnoteReference"), qn("w:endnoteReference")):
                kind = "footnote" if tag == qn("w:footnoteReference") else "endnote"
                if _on(child.find(qn("w:customMarkFollows"))) or child.get(qn("w:customMarkFollows")) in ("1", "true"):
                    custom_mark = True
                    self.notes[kind].count -= 1  # the mark is the text that follows; not numbered
                parts.append(self._note_mark(kind, child.get(qn("w:id")), pending) if not custom_mark else "")
                if custom_mark and pending:
                    pending[-1] = (*pending[-1][:2], "")
            elif tag in (qn("w:footnoteRef"), qn("w:endnoteRef")):
                parts.append(as_superscript(own_mark) if own_mark else "")
            elif tag in (qn("w:drawing"), qn("w:pict"), qn("w:object"), _MC + "AlternateContent"):
                self._collect_boxes(child, boxes)
            elif tag == qn("w:sym"):
                code = child.get(qn("w:char"), "")
                try:
                    value = int(code, 16)
                except ValueError:
                    continue
                if not 0xE000 <= value <= 0xF8FF and value >= 0x20:
                    parts.append(chr(value))
        return "".join(parts)

    def _collect_boxes(self, el, boxes: list) -> None:
        """Text box contents under a drawing, once per ``mc:AlternateContent`` (its Choice)."""
        if el.tag == _MC + "Fallback":
            return
        if el.tag == qn("w:txbxContent"):
            boxes.append(el)
            return
        for child in el:
            self._collect_boxes(child, boxes)

    # --- blocks -------------------------------------------------------------------------

    def paragraph_parts(self, p, pending: list, boxes: list, own_mark: str = "") -> tuple[str, int, bool]:
        """``(text, heading level, mark deleted)`` of a ``w:p``, its numbering label in front."""
        ppr = p.find(qn("w:pPr"))
        pstyle_el = ppr.find(qn("w:pStyle")) if ppr is not None else None
        pstyle = pstyle_el.get(qn("w:val")) if pstyle_el is not None else self.default_pstyle
        text = self.inline(p, pending, boxes, own_mark)
        mark_rpr = ppr.find(qn("w:rPr")) if ppr is not None else None
        deleted = mark_rpr is not None and mark_rpr.find(qn("w:del")) is not None
        label = ""
        if text.strip():
            num = _num_pr(ppr)
            num_id, ilvl = num if num else (None, None)
            if num_id is None:
                for sid, style in self._chain(pstyle):
                    if style.num:
                        num_id = style.num[0]
                        if ilvl is None:
                            ilvl = style.num[1] if style.num[1] is not None else self.numbering.level_for_style(num_id, sid)
                        break
            if num_id is not None:
                label = self.numbering.next_label(num_id, ilvl or 0)
        return label + text, self.heading_level(pstyle), deleted

    def table_rows(self, tbl, pending: list) -> list[str]:
        """Rows of a table as records (``"Column: value | Column: value"`` after a header row,
        :func:`core.ingest.tables.record_lines`; cells joined by ``" | "`` without one), nested
        tables' rows inside their cell. A header row repeated on each page is written once."""
        rows: list[list[str]] = []
        marked = False  # the first row repeats on each page (w:tblHeader): Word's own header mark
        for row in self._children(tbl, "w:tr"):
            trpr = row.find(qn("w:trPr"))
            if trpr is not None and trpr.find(qn("w:del")) is not None:
                continue
            if not rows and trpr is not None and _on(trpr.find(qn("w:tblHeader"))):
                marked = True
            rows.append([self.cell_text(tc, pending) for tc in self._children(row, "w:tc")])
        return record_lines(rows, header=True if marked else None)

    def cell_text(self, tc, pending: list) -> str:
        lines: list[str] = []
        carry = ""
        for el in self._block_children(tc):
            if el.tag == qn("w:tbl"):
                lines.extend(self.table_rows(el, pending))
            elif el.tag == qn("w:p"):
                boxes: list = []
                text, _, deleted = self.paragraph_parts(el, pending, boxes)
                text = carry + text
                carry = text if deleted else ""
                if not deleted and text.strip():
                    lines.append(text.strip())
                for box in boxes:
                    lines.extend(self._box_lines(box, pending))
        return "\n".join(lines)

    def _box_lines(self, box, pending: list) -> list[str]:
        return [ln for ln in (self.cell_text(box, pending).split("\n")) if ln.strip()]

    def _children(self, el, tag: str):
        """Children ``tag`` of ``el``, looking through content controls and custom XML wrappers."""
        for child in el:
            if child.tag == qn(tag):
                yield child
            elif child.tag in (qn("w:sdt"), qn("w:customXml")):
                inner = child.find(qn("w:sdtContent")) if child.tag == qn("w:sdt") else child
                if inner is not None:
                    yield from self._children(inner, tag)

    def _block_children(self, el):
        """Paragraphs and tables of a body, cell, note or text box, in order, through wrappers."""
        for child in el:
            if child.tag in (qn("w:p"), qn("w:tbl")):
                yield child
            elif child.tag in (qn("w:sdt"), qn("w:customXml"), _MC + "AlternateContent", _MC + "Choice"):
                inner = child.find(qn("w:sdtContent")) if child.tag == qn("w:sdt") else \
                    (child.find(_MC + "Choice") if child.tag == _MC + "AlternateContent" else child)
                if inner is not None:
                    yield from self._block_children(inner)

    def blocks(self, container, kind: str | None = None, label: str = "", own_mark: str = "") -> None:
        """Add the blocks of a body-like container (paragraphs, tables, notes, text boxes) in order."""
        carry = ""
        for el in self._block_children(container):
            pending: list = []
            boxes: list = []
            if el.tag == qn("w:tbl"):
                self.out.add("\n".join(self.table_rows(el, pending)), kind or "table", label=label)
            else:
                text, level, deleted = self.paragraph_parts(el, pending, boxes, own_mark)
                own_mark = ""
                text = carry + text
                if deleted:  # the paragraph mark is deleted: this paragraph runs on into the next
                    carry = text
                    continue
                carry = ""
                block_kind = kind or ("heading" if level else "paragraph")
                self.out.add(text, block_kind, level if block_kind == "heading" else 0, label)
            for box in boxes:
                self.blocks(box, kind, label)
            self._add_notes(pending)
        if carry.strip():
            self.out.add(carry, kind or "paragraph", label=label)

    def _add_notes(self, pending: list) -> None:
        for note_kind, note_id, mark in pending:
            note = self.notes[note_kind].elements.get(note_id)
            if note is not None:
                self.blocks(note, "note", f"{note_kind} {mark}".strip(), own_mark=mark)

    def header_footer_parts(self, kind: str) -> list:
        """The distinct header (or footer) parts of all sections, in section order."""
        seen: set[str] = set()
        parts = []
        for sect in self.document.element.body.iter(qn("w:sectPr")):
            for ref in sect.findall(qn(f"w:{kind}Reference")):
                rid = ref.get(_R_ID)
                part = self.document.part.related_parts.get(rid) if rid else None
                if part is not None and str(part.partname) not in seen:
                    seen.add(str(part.partname))
                    parts.append(part)
        return parts

    def read(self) -> None:
        """Headers, body (with notes and text boxes), footers."""
        body = self.document.element.body
        furniture: dict[str, list[str]] = {}
        for kind in ("header", "footer"):
            texts: list[str] = []
            for part in self.header_footer_parts(kind):
                sub = _Reader.__new__(_Reader)
                sub.__dict__.update(self.__dict__)
                # headers count their own lists and notes: the body's clause 1 stays clause 1
                sub.numbering = copy.deepcopy(self.numbering)
                sub.notes = {k: copy.copy(v) for k, v in self.notes.items()}
                sub.out = TextBuilder()
                sub.blocks(part.element, "header", kind)
                text = sub.out.page().text.strip()
                if text and text not in texts:
                    texts.append(text)
            furniture[kind] = texts
        for text in furniture["header"]:
            self.out.add(text, "header", label="header")
        self.blocks(body)
        for text in furniture["footer"]:
            self.out.add(text, "header", label="footer")


def parse_docx(path: Path, *, data: bytes | None = None) -> ParsedDocument:
    """Parse a Word file (see the module docstring for what is read).

    Args:
        data: the file's bytes when it is not a file of its own (an e-mail attachment).

    Raises:
        IngestError: not a DOCX (zip) file, damaged, or no text.
    """
    import docx

    if (len(data) if data is not None else path.stat().st_size) == 0:
        raise IngestError(str(path), "empty file (0 bytes)")
    try:
        document = docx.Document(io.BytesIO(data) if data is not None else str(path))
    except Exception as exc:  # python-docx raises PackageNotFoundError, KeyError, BadZipFile...
        raise IngestError(str(path), f"not a readable Word (.docx) file ({exc})") from exc
    try:
        reader = _Reader(document)
        reader.read()
    except Exception as exc:  # malformed XML inside a valid package
        raise IngestError(str(path), f"Word file could not be read ({exc})") from exc
    page = reader.out.page()
    if not page.text.strip():
        raise IngestError(str(path), "no text in the Word file")
    title = (document.core_properties.title or "").strip()
    return ParsedDocument(path, "", [page], "docx", title=title or path.name)

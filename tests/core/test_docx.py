"""Word files as they really come (issue #14): tracked changes, automatic numbering, footnotes and
endnotes, content controls, text boxes, headers and footers.

Each kind is tested on packages written here in other shapes than the shared cases (B32, B34,
B35): python-docx's own template, with the WordprocessingML parts replaced or added.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from core.chunking import chunk_pages
from core.ingest import parse_file
from core.ingest.docx_numbering import format_number, letter, roman

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
NS = (W + ' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
      ' xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
      ' xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
      ' xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
      ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
      ' xmlns:v="urn:schemas-microsoft-com:vml"')
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."


def p(text: str = "", *, style: str = "", num: tuple[int, int] | None = None, inner: str = "", ppr: str = "") -> str:
    """A paragraph: ``text`` in one run, or ``inner`` runs as given."""
    props = (f'<w:pStyle w:val="{style}"/>' if style else "")
    props += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>' if num else ""
    props += ppr
    runs = inner or (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "")
    return f"<w:p>{'<w:pPr>' + props + '</w:pPr>' if props else ''}{runs}</w:p>"


def r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def make_docx(path: Path, body: str, *, numbering: str = "", footnotes: str = "", endnotes: str = "",
              headers: dict[str, str] | None = None, settings: str = "", sect: str = "") -> Path:
    """A .docx made from python-docx's template with ``body`` (and the given parts) in it."""
    import docx

    buf = io.BytesIO()
    docx.Document().save(buf)
    src = zipfile.ZipFile(buf)
    files = {n: src.read(n) for n in src.namelist()}
    rels, types = [], []
    files["word/document.xml"] = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {NS}>'
                                  f"<w:body>{body}<w:sectPr>{sect}</w:sectPr></w:body></w:document>").encode()
    if numbering:
        files["word/numbering.xml"] = f'<w:numbering {W}>{numbering}</w:numbering>'.encode()
    for kind, xml in (("footnotes", footnotes), ("endnotes", endnotes)):
        if xml:
            files[f"word/{kind}.xml"] = f"<w:{kind} {NS}>{xml}</w:{kind}>".encode()
            rels.append((f"rId{kind}", f"{_RT}{kind}", f"{kind}.xml"))
            types.append((f"/word/{kind}.xml", f"{_CT}{kind}+xml"))
    for rid, xml in (headers or {}).items():
        kind = "footer" if rid.startswith("f") else "header"
        files[f"word/{rid}.xml"] = f"<w:{'ftr' if kind == 'footer' else 'hdr'} {NS}>{xml}</w:{'ftr' if kind == 'footer' else 'hdr'}>".encode()
        rels.append((rid, f"{_RT}{kind}", f"{rid}.xml"))
        types.append((f"/word/{rid}.xml", f"{_CT}{kind}+xml"))
    if settings:
        files["word/settings.xml"] = f"<w:settings {W}>{settings}</w:settings>".encode()
    rel_xml = files["word/_rels/document.xml.rels"].decode()
    rel_xml = rel_xml.replace("</Relationships>", "".join(
        f'<Relationship Id="{i}" Type="{t}" Target="{tg}"/>' for i, t, tg in rels) + "</Relationships>")
    files["word/_rels/document.xml.rels"] = rel_xml.encode()
    ct = files["[Content_Types].xml"].decode()
    ct = ct.replace("</Types>", "".join(f'<Override PartName="{n}" ContentType="{c}"/>' for n, c in types) + "</Types>")
    files["[Content_Types].xml"] = ct.encode()
    with zipfile.ZipFile(path, "w") as out:
        for name, data in files.items():
            out.writestr(name, data)
    return path


def text_of(path: Path) -> str:
    return parse_file(path).pages[0].text


# --- tracked changes --------------------------------------------------------------------


def test_tracked_changes_read_as_accepted_in_paragraphs_tables_and_moves(tmp_path) -> None:
    ins = '<w:ins w:id="1" w:author="A"><w:r><w:t>{}</w:t></w:r></w:ins>'
    dele = '<w:del w:id="2" w:author="A"><w:r><w:delText>{}</w:delText></w:r></w:del>'
    body = (
        p(inner=r("Notice period: ") + dele.format("thirty") + ins.format("ninety") + r(" days."))
        + p(inner='<w:moveFrom w:id="3" w:author="A"><w:r><w:t>Moved sentence.</w:t></w:r></w:moveFrom>')
        + p(inner=r("Intro. ") + '<w:moveTo w:id="4" w:author="A"><w:r><w:t>Moved sentence.</w:t></w:r></w:moveTo>')
        # a deleted paragraph mark joins this paragraph with the next one
        + p(inner=r("The first half "), ppr='<w:rPr><w:del w:id="5" w:author="A"/></w:rPr>')
        + p("and the second half.")
        + "<w:tbl><w:tr><w:tc>" + p(inner=r("Price") ) + "</w:tc><w:tc>"
        + p(inner=dele.format("EUR 900") + ins.format("EUR 950")) + "</w:tc></w:tr>"
        + '<w:tr><w:trPr><w:del w:id="6" w:author="A"/></w:trPr><w:tc>' + p("Removed row") + "</w:tc></w:tr></w:tbl>"
    )
    text = text_of(make_docx(tmp_path / "t.docx", body))
    assert "Notice period: ninety days." in text and "thirty" not in text
    assert text.count("Moved sentence.") == 1 and "Intro. Moved sentence." in text
    assert "The first half and the second half." in text
    assert "Price | EUR 950" in text and "EUR 900" not in text and "Removed row" not in text


# --- automatic numbering ------------------------------------------------------------------

_LEGAL = (
    '<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="multilevel"/>'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="ARTICLE %1."/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:isLgl/><w:lvlText w:val="%1.%2"/></w:lvl>'
    '<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="(%3)"/><w:suff w:val="space"/></w:lvl>'
    "</w:abstractNum>"
    '<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/>'
    '<w:lvlText w:val="%1)"/></w:lvl></w:abstractNum>'
    '<w:num w:numId="5"><w:abstractNumId w:val="1"/></w:num>'
    '<w:num w:numId="6"><w:abstractNumId w:val="2"/></w:num>'
    '<w:num w:numId="7"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
)


def test_numbering_labels_are_rendered_from_the_definitions(tmp_path) -> None:
    """Roman, legal-style (isLgl), nested restarts, letters, a list restarted by a start override."""
    body = (
        p("Definitions", num=(5, 0)) + p("Terms have their meaning.", num=(5, 1))
        + p("Payment", num=(5, 0)) + p("Invoices are monthly.", num=(5, 1)) + p("Late fees apply.", num=(5, 1))
        + p("first case", num=(5, 2)) + p("second case", num=(5, 2)) + p("Disputes go to court.", num=(5, 1))
        + p("Option one", num=(6, 0)) + p("Option two", num=(6, 0))
        + p("Restarted option", num=(7, 0)) + p("Not numbered", num=(0, 0))
    )
    lines = [ln for ln in text_of(make_docx(tmp_path / "n.docx", body, numbering=_LEGAL)).split("\n") if ln]
    assert lines == [
        "ARTICLE I. Definitions", "1.1 Terms have their meaning.", "ARTICLE II. Payment",
        "2.1 Invoices are monthly.", "2.2 Late fees apply.", "(i) first case", "(ii) second case",
        "2.3 Disputes go to court.", "A) Option one", "B) Option two", "A) Restarted option", "Not numbered",
    ]


def test_numbering_given_by_a_heading_style(tmp_path) -> None:
    """Numbering given by the paragraph style (as Word's numbered headings do) starts a section."""
    import docx

    d = docx.Document()
    styles = d.styles.element
    heading = next(s for s in styles.findall("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}style")
                   if s.get("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}styleId") == "Heading2")
    from docx.oxml import parse_xml

    ppr = heading.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}pPr")
    ppr.append(parse_xml(f'<w:numPr {W}><w:numId w:val="5"/></w:numPr>'))
    buf = io.BytesIO()
    d.save(buf)
    styles_xml = zipfile.ZipFile(buf).read("word/styles.xml")
    path = make_docx(tmp_path / "s.docx", p("Scope", style="Heading2") + p("Price", style="Heading2")
                     + p("The price is fixed."), numbering=_LEGAL)
    files = {n: zipfile.ZipFile(path).read(n) for n in zipfile.ZipFile(path).namelist()}
    files["word/styles.xml"] = styles_xml
    with zipfile.ZipFile(path, "w") as out:
        for n, data in files.items():
            out.writestr(n, data)
    page = parse_file(path).pages[0]
    assert [(b.kind, b.level, page.text[b.start:b.end]) for b in page.blocks] == [
        ("heading", 2, "ARTICLE I. Scope"), ("heading", 2, "ARTICLE II. Price"), ("paragraph", 0, "The price is fixed."),
    ]


@pytest.mark.parametrize(("n", "fmt", "out"), [(4, "lowerRoman", "iv"), (1994, "upperRoman", "MCMXCIV"),
                                               (27, "lowerLetter", "aa"), (3, "decimalZero", "03"),
                                               (22, "ordinal", "22nd"), (5, "none", ""), (5, "chineseCounting", "5")])
def test_number_formats(n: int, fmt: str, out: str) -> None:
    assert format_number(n, fmt) == out
    assert roman(9) == "ix" and letter(52) == "zz"


# --- footnotes and endnotes ----------------------------------------------------------------

_NOTE = '<w:{k} w:id="{i}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:{k}Ref/></w:r>{body}</w:p></w:{k}>'


def test_notes_follow_their_reference_with_a_location_of_their_own(tmp_path) -> None:
    """A footnote referenced in a table cell follows the table; endnotes numbered as settings say."""
    fref = '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="{}"/></w:r>'
    eref = '<w:r><w:endnoteReference w:id="{}"/></w:r>'
    body = (
        p(inner=r("The cap is EUR 5,000") + fref.format(7) + r(" per year."))
        + "<w:tbl><w:tr><w:tc>" + p(inner=r("Interest") + eref.format(3)) + "</w:tc><w:tc>"
        + p(inner=r("8 %") + fref.format(9)) + "</w:tc></w:tr></w:tbl>"
        + p("Closing words.")
    )
    footnotes = (_NOTE.format(k="footnote", i=7, body=r(" Indexed to inflation each January."))
                 + _NOTE.format(k="footnote", i=9, body=r(" Simple interest, not compound.")))
    endnotes = _NOTE.format(k="endnote", i=3, body=r(" As published by the central bank."))
    path = make_docx(tmp_path / "f.docx", body, footnotes=footnotes, endnotes=endnotes,
                     settings='<w:endnotePr><w:numFmt w:val="decimal"/></w:endnotePr>')
    text = text_of(path)
    assert "The cap is EUR 5,000¹ per year.\n\n¹ Indexed to inflation each January." in text
    assert text.index("Interest¹ | 8 %²") < text.index("¹ As published") < text.index("² Simple interest")
    blocks = parse_file(path).pages[0].blocks
    assert [(b.kind, b.label) for b in blocks] == [
        ("paragraph", ""), ("note", "footnote 1"), ("table", ""), ("note", "endnote 1"), ("note", "footnote 2"),
        ("paragraph", ""),
    ]


def test_a_chunk_starting_in_a_note_is_located_by_the_note() -> None:
    from core.ingest import Block, PageText

    main = "The main text of the clause states the rule that applies to every order placed under it."
    text = main + "\n\n¹ The note explains the one exception to that rule, for orders placed by public bodies."
    page = PageText(page=1, text=text, blocks=[Block(0, len(main), index=1), Block(len(main) + 2, len(text), "note", index=2, label="footnote 1")])
    chunks = chunk_pages("w/n.docx", "/n.docx", [page], chunk_tokens=36, overlap_tokens=0)
    assert [c.location for c in chunks] == ["¶ 1", "footnote 1"]


# --- content controls, text boxes, headers and footers ------------------------------------------


def test_content_controls_text_boxes_and_headers_once(tmp_path) -> None:
    sdt = "<w:sdt><w:sdtPr><w:alias w:val='x'/></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt>"
    box = ("<w:r><mc:AlternateContent><mc:Choice Requires=\"wps\"><w:drawing><wp:anchor><a:graphic><a:graphicData>"
           "<wps:wsp><wps:txbx><w:txbxContent>" + p("Boxed note: keys are returned at exit.")
           + "</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
           "<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>" + p("Boxed note: keys are returned at exit.")
           + "</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>")
    body = (
        sdt.format(p("Block control: the tenant is Ana Ruiz."))
        + p(inner=r("Landlord: ") + sdt.format(r("Pedro Gil")) + r("."))
        + "<w:tbl>" + sdt.format("<w:tr><w:tc>" + p("Row control") + "</w:tc>" + sdt.format(
            "<w:tc>" + p("Cell control") + "</w:tc>") + "</w:tr>") + "</w:tbl>"
        + p(inner=r("Anchor paragraph.") + box)
        # a second section repeating the same header, and a first-page header of its own
        + p(ppr='<w:sectPr><w:headerReference w:type="default" r:id="hdr1"/>'
                '<w:headerReference w:type="first" r:id="hdr2"/><w:footerReference w:type="default" r:id="ftr1"/></w:sectPr>')
        + p("Second section text.")
    )
    headers = {
        "hdr1": sdt.format(p("CONFIDENTIAL – Lease 2291")) + p(inner=r("Logo") + box.replace("Boxed note: keys are returned at exit.", "Header box text")),
        "hdr2": p("First page header"),
        "ftr1": p("Footer line"),
    }
    sect = '<w:headerReference w:type="default" r:id="hdr1"/><w:footerReference w:type="default" r:id="ftr1"/>'
    parsed = parse_file(make_docx(tmp_path / "c.docx", body, headers=headers, sect=sect))
    text = parsed.pages[0].text
    assert "Block control: the tenant is Ana Ruiz." in text and "Landlord: Pedro Gil." in text
    assert "Row control | Cell control" in text
    assert text.count("Boxed note: keys are returned at exit.") == 1
    assert text.index("Anchor paragraph.") < text.index("Boxed note")
    assert text.count("CONFIDENTIAL – Lease 2291") == 1 and text.count("Footer line") == 1
    assert text.startswith("CONFIDENTIAL – Lease 2291") and "Header box text" in text and "First page header" in text
    assert text.rstrip().endswith("Footer line")
    assert [b.label for b in parsed.pages[0].blocks if b.kind == "header"] == ["header", "header", "footer"]


def test_a_numbered_list_in_a_header_does_not_shift_the_body_numbers(tmp_path) -> None:
    sect = '<w:headerReference w:type="default" r:id="hdr1"/>'
    path = make_docx(tmp_path / "h.docx", p("Definitions", num=(5, 0)) + p("Payment", num=(5, 0)),
                     numbering=_LEGAL, headers={"hdr1": p("Draft for review", num=(5, 0))}, sect=sect)
    lines = [ln for ln in text_of(path).split("\n") if ln]
    assert lines == ["ARTICLE I. Draft for review", "ARTICLE I. Definitions", "ARTICLE II. Payment"]

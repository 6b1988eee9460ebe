"""Make the small files of tests/data/formats (run from the repository root:
``python tests/data/formats/make.py``). Each is a real file of its format, written with the
library the product reads it with or, for RTF and Outlook .msg, by hand from the format's
specification; the sentences are invented. ``formats.json`` lists a quote each must give.
"""

from __future__ import annotations

import datetime as dt
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent


def make_odt() -> None:
    from odfdo import Annotation, Document, Header, Paragraph, Table

    doc = Document("text")
    doc.body.append(Header(1, "Adenda al contrato de arrendamiento"))
    p = Paragraph("Con efectos desde el 1 de enero de 2026 la renta mensual se eleva a 1.400 euros.")
    p.append(Annotation("Revisor: comprobar el IPC antes de firmar.", creator="Revisor"))
    doc.body.append(p)
    table = Table("Pagos", width=2, height=4)
    for r, (a, b) in enumerate([("Vencimiento", "Importe"), ("05/01/2026", "1.400"), ("05/02/2026", "1.400"),
                                ("05/03/2026", "1.400")]):
        table.set_value((0, r), a)
        table.set_value((1, r), b)
    doc.body.append(table)
    doc.save(HERE / "adenda.odt")


def make_rtf() -> None:
    # RTF 1.9.1 by hand: \ansicpg1252, \'xx escapes for accented letters, \par paragraphs and a
    # {\*\annotation} comment destination that is not the document's text.
    (HERE / "acta.rtf").write_bytes(
        b"{\\rtf1\\ansi\\ansicpg1252\\deff0 {\\fonttbl {\\f0 Times New Roman;}}\\f0\\fs24 "
        b"ACTA DE LA JUNTA DE PROPIETARIOS\\par\\par "
        b"Se aprueba una derrama de 300 euros por local, pagadera antes del 31 de marzo de 2026."
        b"{\\*\\atnid RV}{\\*\\annotation Revisor: confirmar el qu\\'f3rum.}\\par\\par "
        b"La pr\\'f3xima reuni\\'f3n se celebrar\\'e1 en el mes de junio.\\par}"
    )


def make_xlsx() -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Rentas"
    ws.append(["Unidad", "Arrendatario", "Renta mensual (EUR)", "Fin del contrato"])
    for unit, tenant, rent, end in [("4B-15", "Óptica Brisa", 1250, dt.date(2028, 3, 31)),
                                    ("4B-16", "Café Rambla", 980.5, dt.date(2027, 6, 30)),
                                    ("4B-17", "Farmacia Oriol", 2120, dt.date(2030, 6, 10)),
                                    ("4B-18", "Estudio Nácar", 1600, dt.date(2029, 1, 15))]:
        ws.append([unit, tenant, rent, end])
    ws2 = wb.create_sheet("Notas")
    ws2["A1"] = "Las rentas se actualizan cada enero según el IPC."
    wb.save(HERE / "rentas.xlsx")


def make_pptx() -> None:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    s1 = prs.slides.add_slide(prs.slide_layouts[1])
    s1.shapes.title.text = "Propuesta de honorarios"
    s1.placeholders[1].text = "Los honorarios mensuales serán de 3.250 euros más IVA."
    s2 = prs.slides.add_slide(prs.slide_layouts[5])
    s2.shapes.title.text = "Calendario"
    rows = [("Hito", "Fecha"), ("Firma", "15/01/2026"), ("Entrega", "30/04/2026"), ("Cierre", "30/06/2026")]
    table = s2.shapes.add_table(len(rows), 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, (a, b) in enumerate(rows):
        table.cell(r, 0).text, table.cell(r, 1).text = a, b
    s2.notes_slide.notes_text_frame.text = "Confirmar la fecha de entrega con el cliente."
    prs.save(HERE / "propuesta.pptx")


def make_png() -> None:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=420, height=200)
    page.insert_text((30, 60), "Recibido en Bilbao el 9 de marzo de 2026.", fontsize=14)
    page.insert_text((30, 100), "Sello del registro de entrada.", fontsize=14)
    page.get_pixmap(dpi=200).save(HERE / "firmas.png")


# --- Outlook .msg: an OLE2 compound file ([MS-CFB]) holding MAPI property streams ([MS-OXMSG]) ---
_FREE, _END, _FATSECT, _NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def _cfb(tree: dict) -> bytes:
    """A version 3 compound file (512-byte sectors) of ``tree``: {name: bytes | dict} (dict = storage).
    Streams under 4096 bytes go to the mini stream (64-byte mini sectors), as [MS-CFB] 2.6.3 requires."""
    entries: list[dict] = [{"name": "Root Entry", "type": 5, "kids": []}]

    def add(node: dict, parent: int) -> None:
        for name, value in node.items():
            idx = len(entries)
            entries.append({"name": name, "type": 1 if isinstance(value, dict) else 2, "kids": [],
                            "data": None if isinstance(value, dict) else value})
            entries[parent]["kids"].append(idx)
            if isinstance(value, dict):
                add(value, idx)

    add(tree, 0)
    mini = bytearray()
    minifat: list[int] = []
    big: list[tuple[int, bytes]] = []
    for i, e in enumerate(entries):
        data = e.get("data")
        if data is None:
            continue
        e["size"] = len(data)
        if len(data) < 4096:
            n = max(1, -(-len(data) // 64))
            e["start"] = len(minifat) if data else _END
            minifat.extend(list(range(len(minifat) + 1, len(minifat) + n)) + [_END])
            mini += data + b"\0" * (n * 64 - len(data))
        else:
            big.append((i, data))
    sectors: list[bytes] = []
    fat: list[int] = []

    def put(data: bytes) -> int:
        n = max(1, -(-len(data) // 512))
        first = len(sectors)
        padded = data + b"\0" * (n * 512 - len(data))
        for k in range(n):
            sectors.append(padded[k * 512:(k + 1) * 512])
            fat.append(first + k + 1 if k < n - 1 else _END)
        return first

    minifat_bytes = b"".join(struct.pack("<I", v) for v in minifat)
    minifat_bytes += struct.pack("<I", _FREE) * ((-len(minifat)) % 128)
    minifat_start = put(minifat_bytes)
    mini_start = put(bytes(mini))
    entries[0]["start"], entries[0]["size"] = mini_start, len(mini)
    for i, data in big:
        entries[i]["start"] = put(data)

    def key(i: int) -> tuple[int, str]:
        return len(entries[i]["name"]), entries[i]["name"].upper()

    left = {i: _NOSTREAM for i in range(len(entries))}
    right = dict(left)
    child = dict(left)

    def tree_of(ids: list[int]) -> int:
        if not ids:
            return _NOSTREAM
        ids = sorted(ids, key=key)
        mid = len(ids) // 2
        left[ids[mid]] = tree_of(ids[:mid])
        right[ids[mid]] = tree_of(ids[mid + 1:])
        return ids[mid]

    for i, e in enumerate(entries):
        if e["kids"]:
            child[i] = tree_of(e["kids"])
    directory = bytearray()
    for i, e in enumerate(entries):
        name = e["name"].encode("utf-16-le") + b"\0\0"
        directory += name + b"\0" * (64 - len(name))
        directory += struct.pack("<HBBIII", len(name), e["type"], 1, left[i], right[i], child[i])
        directory += b"\0" * 16 + b"\0" * 4 + b"\0" * 16
        directory += struct.pack("<IQ", e.get("start", _END) if e["type"] != 1 else 0, e.get("size", 0))
    directory += (b"\0" * 64 + struct.pack("<HBBIII", 0, 0, 0, _NOSTREAM, _NOSTREAM, _NOSTREAM) + b"\0" * 52) * (
        (-len(entries)) % 4)
    dir_start = put(bytes(directory))
    n_fat = 1
    while len(sectors) + n_fat > 128 * n_fat:
        n_fat += 1
    fat_start = len(sectors)
    fat.extend([_FATSECT] * n_fat)
    fat.extend([_FREE] * (128 * n_fat - len(fat)))
    for k in range(n_fat):
        sectors.append(b"".join(struct.pack("<I", v) for v in fat[k * 128:(k + 1) * 128]))
    difat = [fat_start + k for k in range(n_fat)] + [_FREE] * (109 - n_fat)
    header = (bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 16 + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
              + b"\0" * 6 + struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, 4096, minifat_start,
                                        -(-len(minifat) // 128), _END, 0)
              + b"".join(struct.pack("<I", v) for v in difat))
    return header + b"".join(sectors)


def make_msg() -> None:
    import pymupdf

    def u(text: str) -> bytes:
        return text.encode("utf-16-le")

    pdf = pymupdf.open()
    pdf.new_page().insert_text((72, 72), "Anexo I. La fianza asciende a dos mensualidades de renta.", fontsize=11)
    attachment = pdf.tobytes()
    sent = dt.datetime(2026, 1, 12, 9, 30, tzinfo=dt.timezone.utc)
    filetime = int((sent - dt.datetime(1601, 1, 1, tzinfo=dt.timezone.utc)).total_seconds() * 10_000_000)
    props = b"\0" * 32 + struct.pack("<HHIQ", 0x0040, 0x0039, 6, filetime)
    tree = {
        "__substg1.0_0037001F": u("Contrato de la oficina: renta de 2026"),
        "__substg1.0_0C1A001F": u("Marta Lanza"),
        "__substg1.0_5D01001F": u("marta.lanza@example.com"),
        "__substg1.0_0E04001F": u("Despacho Oriol"),
        "__substg1.0_1000001F": u("Buenos días:\r\n\r\nConfirmamos que la renta mensual de 2026 será de "
                                  "1.400 euros, como dice la adenda.\r\n\r\nUn saludo,\r\nMarta"),
        "__properties_version1.0": props,
        "__attach_version1.0_#00000000": {
            "__substg1.0_3707001F": u("Anexo_I.pdf"),
            "__substg1.0_37010102": attachment,
            "__properties_version1.0": b"\0" * 8,
        },
    }
    (HERE / "correo.msg").write_bytes(_cfb(tree))


if __name__ == "__main__":
    for make in (make_odt, make_rtf, make_xlsx, make_pptx, make_png, make_msg):
        make()

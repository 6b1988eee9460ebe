"""Images of documents (``.jpg``, ``.png``, ``.tif``…): a scanned page photographed or saved as a picture.

An image is read through the OCR the PDF reader already uses (:func:`core.ingest.ocr.ocr_page`,
Tesseract through PyMuPDF): PyMuPDF opens the image as a one-page document (a multi-page TIFF
as several), converts it to a PDF page, and that page is OCRed. The page text has character
boxes like an OCRed PDF page's; each image page is one page of the document.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from core.errors import IngestError
from core.ingest.base import PageText, ParsedDocument
from core.ingest.ocr import OCR_LANGUAGES, ocr_page, tessdata_dir

#: Pages with fewer non-space OCR characters than this are an image without text.
_MIN_CHARS = 20


def image_as_pdf(path: Path, data: bytes | None = None) -> pymupdf.Document:
    """The image (every frame of a multi-page TIFF) as a PDF document, one page per frame.

    Raises:
        IngestError: not a readable image.
    """
    try:
        img = pymupdf.open(stream=data, filetype=path.suffix.lstrip(".").lower()) if data is not None \
            else pymupdf.open(path)
        with img:
            if img.is_pdf or img.page_count == 0:
                raise ValueError("no image")
            return pymupdf.open("pdf", img.convert_to_pdf())
    except Exception as exc:
        raise IngestError(str(path), f"not a readable image ({exc})") from exc


def parse_image(path: Path, *, data: bytes | None = None, ocr: bool = True,
                languages: str = OCR_LANGUAGES) -> ParsedDocument:
    """OCR an image file into pages (``kind="image"``, ``modality="ocr"``).

    Raises:
        IngestError: not a readable image; OCR turned off or Tesseract (with its eng and spa data)
            missing (the message says which); no text found on the image.
    """
    doc = image_as_pdf(path, data)
    tessdata = tessdata_dir(languages) if ocr else None
    if tessdata is None:
        doc.close()
        fix = "install Tesseract with eng and spa" if ocr else "OCR is turned off in the settings"
        raise IngestError(str(path), f"image of a document: needs OCR ({fix})")
    pages: list[PageText] = []
    with doc:
        for index in range(doc.page_count):
            try:
                page = ocr_page(doc.load_page(index), languages=languages, tessdata=tessdata)
            except Exception as exc:
                raise IngestError(str(path), f"OCR failed ({exc})", page=index + 1) from exc
            page.page = index + 1
            pages.append(page)
    if sum(len(p.text.strip()) for p in pages) < _MIN_CHARS:
        raise IngestError(str(path), "no text found on the image")
    return ParsedDocument(path, "", pages, "image", title=path.name)

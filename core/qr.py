"""QR codes on printed pages (an event's score cards and log-in slips, a club table's card):
one way to draw them, so every printed code scans the same."""

import segno


def qr_data_uri(url: str, *, scale: int = 3) -> str:
    """`url` as a QR code in a data: URI for an <img> (the template writes the tag); medium
    error correction survives a folded or coffee-stained card."""
    return segno.make(url, error="m").svg_data_uri(scale=scale, border=1)

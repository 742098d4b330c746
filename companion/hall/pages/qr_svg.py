"""A QR code as an SVG picture for the hall's pages (companion/qr.py makes the modules, as for the kiosk)."""

from __future__ import annotations

from companion.qr import matrix


def qr_svg(text: str, module_px: int = 8) -> str:
    """`text`'s QR code, dark on light, the quiet zone included."""
    modules = matrix(text)
    size = len(modules) * module_px
    dark = "".join(f'<rect x="{x * module_px}" y="{y * module_px}" width="{module_px}" height="{module_px}"/>'
                   for y, row in enumerate(modules) for x, on in enumerate(row) if on)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
            f'<rect width="{size}" height="{size}" fill="#fff"/><g fill="#000">{dark}</g></svg>')

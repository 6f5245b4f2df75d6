"""The installed app's icons, drawn from the site's own artwork: the chicken foot of the top bar's logo
(its path in ``web/pages/_shell.html``) in the tiles' cream on the accent colour (``web/style.css``).

Writes the PNG files the web app manifest names (``server/pages.py``, ``ICONS``) into ``web/icons/``:
an icon for any use with rounded corners, a maskable one whose foot stays inside the safe zone (the
middle 80 % circle a launcher may cut any shape from) on a full square, and the full square an iPhone's
home screen rounds itself. Run it again after changing the logo or the colours, and commit the files:

    python scripts/app-icons.py
"""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image, ImageDraw

WEB = Path(__file__).resolve().parents[1] / "src" / "chickenfoot" / "web"
OUT = WEB / "icons"
SUPERSAMPLE = 4
"""Drawn this many times larger, then scaled down: smooth edges without an anti-aliasing renderer."""
STROKE = 2.6
"""The logo's stroke width, in the units of its path (style.css, ``.logo``), with round caps."""


def logo_segments() -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The logo's straight strokes, read from the shell's ``<svg class="logo">`` path (commands M, L, l, V)."""
    shell = (WEB / "pages" / "_shell.html").read_text()
    found = re.search(r'<svg class="logo"[^>]*><path d="([^"]+)"', shell)
    assert found, "the shell has no logo"
    segments = []
    x = y = 0.0
    for command, numbers in re.findall(r"([MLlV])([^MLlV]+)", found.group(1)):
        values = [float(n) for n in re.findall(r"-?[\d.]+", numbers)]  # "7-7" is 7 and -7
        if command == "M":
            x, y = values
            continue
        start = (x, y)
        if command == "L":
            x, y = values
        elif command == "l":
            x, y = x + values[0], y + values[1]
        else:  # V
            y = values[0]
        segments.append((start, (x, y)))
    return segments


def colour(name: str) -> str:
    """A colour of the light theme (the first ``--name: #rrggbb`` of style.css, in ``:root``)."""
    found = re.search(rf"--{name}: (#[0-9a-f]{{6}})", (WEB / "style.css").read_text())
    assert found, name
    return found.group(1)


def icon(size: int, foot: float, corner: float) -> Image.Image:
    """A ``size``-pixel square of the accent colour (corners rounded by ``corner`` of its side, 0 for
    none) with the foot ``foot`` of its side tall, centred."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=round(corner * big), fill=colour("accent"))
    segments = logo_segments()
    xs = [x for segment in segments for x, _ in segment]
    ys = [y for segment in segments for _, y in segment]
    scale = foot * big / (max(ys) - min(ys) + STROKE)
    middle = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
    width = STROKE * scale

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return (big / 2 + (point[0] - middle[0]) * scale, big / 2 + (point[1] - middle[1]) * scale)

    cream = colour("tile")
    for start, end in segments:
        draw.line((at(start), at(end)), fill=cream, width=round(width))
        for x, y in (at(start), at(end)):  # round caps, which also round the joints
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=cream)
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    return small if corner else small.convert("RGB")  # a full square has no transparency to keep


ICONS = {
    "icon-192.png": (192, 0.62, 0.2),
    "icon-512.png": (512, 0.62, 0.2),
    # The safe zone is a circle of 40 % of the side around the middle: the foot, 46 % tall, fits in it.
    "maskable-192.png": (192, 0.46, 0),
    "maskable-512.png": (512, 0.46, 0),
    "apple-touch-icon.png": (180, 0.56, 0),
}
"""Each file: its side in pixels, the foot's height and the corners' radius, as parts of the side."""


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, (size, foot, corner) in ICONS.items():
        icon(size, foot, corner).save(OUT / name, optimize=True)
        print(f"{OUT / name}: {size}x{size}")


if __name__ == "__main__":
    main()

"""Render frontend/icon.svg as the web app manifest's PNG icons (192 and 512 px), with Chromium.

Run after changing the SVG: .venv/bin/python tools/make_icons.py
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

FRONTEND = Path(__file__).resolve().parents[1] / "frontend"
SIZES = (192, 512)


def main() -> None:
    svg = (FRONTEND / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<body style="margin:0">{svg.replace("<svg ", f"<svg width={size} height={size} ", 1)}')
            page.screenshot(path=FRONTEND / "icons" / f"icon-{size}.png", omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()

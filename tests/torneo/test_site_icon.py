"""The site's icon (issue 34): the favicon, and a phone's home screen (apple-touch-icon, the web
app manifest with its 192 and 512 px icons), served by the site itself (no CDN)."""

import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image

pytestmark = pytest.mark.django_db


def test_every_page_names_its_icons_and_the_manifest_and_they_exist_at_their_sizes():
    html = Client().get("/").content.decode()
    links = dict(re.findall(r'<link rel="(icon|apple-touch-icon|manifest)" href="([^"]+)"', html))
    assert set(links) == {"icon", "apple-touch-icon", "manifest"}
    assert '<meta name="theme-color"' in html
    touch = finders.find("img/apple-touch-icon.png")
    assert touch and Image.open(touch).size == (180, 180)
    manifest = json.loads(Path(finders.find("manifest.webmanifest")).read_text(encoding="utf-8"))
    assert manifest["name"] and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        with open(path, "rb") as handle:
            image = Image.open(io.BytesIO(handle.read()))
        assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"
        sizes.add(icon["sizes"])
    assert sizes == {"192x192", "512x512"}

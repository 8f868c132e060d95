"""Parse rendered HTML and list what could run or load: script tags, inline
handlers and styles, htmx attributes, remote sources."""

from __future__ import annotations

from html.parser import HTMLParser


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_bodies: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.script_bodies.append(data)


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    collector = _Collector()
    collector.feed(html)
    return collector.tags


def inline_scripts(html: str) -> list[str]:
    collector = _Collector()
    collector.feed(html)
    missing_src = [f"<script {a}>" for t, a in collector.tags if t == "script" and not a.get("src")]
    return collector.script_bodies + missing_src


def active_attributes(html: str) -> list[str]:
    """Inline handlers and styles, anywhere."""
    return [
        f"{tag} {name}"
        for tag, attrs in tags(html)
        for name in attrs
        if name.startswith("on") or name == "style"
    ]


def remote_sources(html: str) -> list[str]:
    found = []
    for tag, attrs in tags(html):
        for name in ("src", "href", "action", "hx-post", "hx-get", "ws-connect", "poster"):
            value = attrs.get(name) or ""
            if value.startswith(("//", "http:", "https:", "javascript:")):
                found.append(f"{tag} {name}={value}")
    return found


def htmx_request_attributes(html: str) -> list[str]:
    """Every hx-get/hx-post/... in the page (ours are only the confirm and decline forms)."""
    verbs = ("hx-get", "hx-post", "hx-put", "hx-patch", "hx-delete")
    return [f"{attrs[v]}" for _tag, attrs in tags(html) for v in verbs if v in attrs]

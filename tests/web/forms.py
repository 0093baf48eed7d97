"""A page's forms as a browser would send them: hidden inputs and each select's chosen option."""

from html.parser import HTMLParser


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self.fields: dict[str, str] | None = None
        self.select: str | None = None
        self.first: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.fields = {}
            self.forms.append((a.get("action", ""), self.fields))
        elif self.fields is None:
            return
        elif tag == "input" and a.get("name"):
            self.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.first = a["name"], None
        elif tag == "option" and self.select is not None:
            if self.first is None:
                self.first = a.get("value", "")
            if "selected" in a:
                self.fields[self.select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select is not None and self.fields is not None:
            self.fields.setdefault(self.select, self.first or "")
            self.select = None
        elif tag == "form":
            self.fields = None


def form_fields(page: str, action: str, having: str) -> dict[str, str]:
    """The first form posting to ``action`` with a field ``having``: every field as it would be
    submitted unchanged."""
    parser = _Forms()
    parser.feed(page)
    for to, fields in parser.forms:
        if to == action and having in fields:
            return fields
    raise AssertionError(f"no form to {action} with {having}")

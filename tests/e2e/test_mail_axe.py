"""Every kind of mail's HTML part under axe-core in Chromium (issue 29): 0 violations in the
light and the dark colour scheme, and as a mail client that inverts every colour shows it.

The mails are made as the system sends them (tests/mail/every_kind.py, on moto); per kind the
shortest and the longest HTML part are checked (the longest has every one-tap link).
"""

import pytest

from tests.support.every_kind import KINDS, made_once
from tests.support.mail import app_clock, ses  # noqa: F401
from tests.support.phones import AXE, PHONE
from tests.support.services import aws, clock, rng  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.axe]

_HTML: dict[str, list[str]] = {}

# What a client that inverts colours does (Outlook's and Gmail's apps in dark mode, roughly):
# each element's computed text and background colours, inverted, set inline.
INVERT_JS = """
() => {
  const invert = (value) => {
    const m = value.match(/rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)(?:, ([\\d.]+))?\\)/);
    if (!m || m[4] === "0") return null;
    const [r, g, b] = [m[1], m[2], m[3]].map((c) => 255 - Number(c));
    return m[4] === undefined ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${m[4]})`;
  };
  const elements = [...document.querySelectorAll("*")];
  const computed = elements.map((el) => getComputedStyle(el));
  const wanted = computed.map((s) => [invert(s.color), invert(s.backgroundColor)]);
  elements.forEach((el, i) => {
    const [color, background] = wanted[i];
    if (color) el.style.setProperty("color", color, "important");
    if (background) el.style.setProperty("background-color", background, "important");
  });
  if (!invert(getComputedStyle(document.body).backgroundColor)) {
    document.body.style.setProperty("background-color", "rgb(0, 0, 0)", "important");
  }
}
"""


@pytest.fixture
def html_parts(clock, rng, tmp_path_factory):  # noqa: F811
    """kind -> the shortest and the longest HTML part of that kind, made once for the run."""
    if not _HTML:
        for kind, mails in made_once(clock, rng, tmp_path_factory).items():
            parts = sorted((m.html for m in mails), key=len)
            _HTML[kind] = [parts[0], parts[-1]] if len(parts) > 1 else parts
    return _HTML


SCHEMES = ("light", "dark", "inverted")


@pytest.fixture(scope="module")
def scheme_pages(chromium):
    """One phone page per colour scheme, each mail's HTML part set into it in turn.

    A new context per check cost ~1.5 s of Chromium's CPU (a renderer process each); the
    page's document is replaced whole by ``set_content`` and axe-core is injected again, so
    every check reads only its own mail (axe's full results compared equal both ways).
    """
    contexts = [
        chromium.new_context(**PHONE, color_scheme="dark" if scheme == "dark" else "light")
        for scheme in SCHEMES
    ]
    try:
        yield {
            scheme: context.new_page() for scheme, context in zip(SCHEMES, contexts, strict=True)
        }
    finally:
        for context in contexts:
            context.close()


def violations(page, html: str, scheme: str) -> list[str]:
    page.set_content(html)
    if scheme == "inverted":
        page.evaluate(INVERT_JS)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {node['target']} {node['failureSummary']}"
        for v in found
        for node in v["nodes"]
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_every_mail_kind_has_no_axe_violation_in_light_dark_and_inverted(
    scheme_pages, html_parts, kind
):
    assert html_parts[kind], f"no {kind} mail was sent"
    for html in html_parts[kind]:
        for scheme, page in scheme_pages.items():
            assert violations(page, html, scheme) == [], (kind, scheme, html)

"""A phone for the browser tests: Debian's Chromium at a 360 px viewport, through Playwright.

Every step a test checks is laid out at 360 px (no sideways scroll, touch targets of 44 px,
no console error) and screenshotted into test-artifacts/e2e/.
"""

from pathlib import Path

from .accounts import PASSWORD

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "ja-JP",
    "timezone_id": "Asia/Tokyo",
}
WIDTH = PHONE["viewport"]["width"]
MIN_TARGET = 44  # px: the smallest touch target we accept
# How long a step may wait for its condition (a page, an element, a text). A wait ends as soon as
# its condition holds, so this bounds only a failure; it is no speed check (those are `make
# bench`'s): a two-core machine under a load of 15 took over 10 s for /dev/clock's tick.
WAIT_MS = 30_000

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


# Touch targets: controls, navigation and button-like links. Links inside running text
# (「新規登録 へ」, 「この村から離脱する」) are excluded; their line is their target.
TARGETS = ", ".join(
    (
        "button",
        "select",
        "textarea",
        "input:not([type=hidden]):not([type=checkbox]):not([type=radio])",
        "label.check",
        "nav a",
        "a.button",
        "ul.villages a",
        ".pager a",
    )
)

LAYOUT_JS = """
({selector, minimum}) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.display === "none" || style.visibility === "hidden") continue;
    if (box.width === 0 && box.height === 0) continue;
    if (box.height < minimum) {
      const text = (el.innerText || el.value || el.name || "").trim().slice(0, 30);
      small.push(`<${el.tagName.toLowerCase()}> "${text}" ${box.height.toFixed(1)}px`);
    }
  }
  return {
    scrollWidth: document.documentElement.scrollWidth,
    bodyWidth: document.body.scrollWidth,
    small,
  };
}
"""


class Phone:
    """One person's phone: a page whose every step is checked for layout and screenshotted."""

    def __init__(self, page, base_url: str, prefix: str) -> None:
        self.page = page
        self.base_url = base_url
        self.prefix = prefix
        self.errors: list[str] = []
        self.shots: list[Path] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("response", self._response)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.errors.append(f"HTTP {response.status} {response.request.method} {response.url}")

    def goto(self, path: str):
        return self.page.goto(path if path.startswith("http") else self.base_url + path)

    def reload(self) -> None:
        """Loads the page again. A live page may be reloading itself at the same moment (its
        poll saw the other side's move): that aborts ours, and the page is loaded again anyway,
        so ours is tried once more rather than failing the test on the race."""
        from playwright.sync_api import Error

        for _ in range(3):
            try:
                self.page.reload()
                return
            except Error as error:
                if "ERR_ABORTED" not in str(error):
                    raise
        self.page.reload()

    def login(self, account_id: str) -> None:
        """Logs in through the login page and waits for the header to name the account."""
        from playwright.sync_api import expect

        self.goto("/login")
        self.page.fill("#account_id", account_id)
        self.page.fill("#password", PASSWORD)
        self.page.locator("main").get_by_role("button", name="ログイン").click()
        expect(self.page.locator("nav.user")).to_contain_text(account_id)

    def check(self, step: str) -> None:
        """Layout at 360 px, touch targets and console, then a full-page screenshot."""
        page = self.page
        page.wait_for_load_state("load")
        shot = ARTIFACTS / f"{self.prefix}-{len(self.shots) + 1:02d}-{step}.png"
        page.screenshot(path=str(shot), full_page=True)
        self.shots.append(shot)
        layout = page.evaluate(LAYOUT_JS, {"selector": TARGETS, "minimum": MIN_TARGET})
        where = f"{step} ({page.url})"
        assert layout["scrollWidth"] <= WIDTH, f"horizontal scroll on {where}: {layout}"
        assert layout["bodyWidth"] <= WIDTH, f"content wider than the screen on {where}: {layout}"
        assert not layout["small"], f"touch targets under {MIN_TARGET}px on {where}: {layout}"
        assert not self.errors, f"errors on {where}: {self.errors}"

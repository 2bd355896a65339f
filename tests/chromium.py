"""Headless Chromium at a phone's width, driven over the DevTools protocol (its
--remote-debugging-pipe, so no client package), and what it measures on a page: every
control's box, every text's size, how wide the page is.

For the browser tests (tests/**/test_*_in_chromium.py), which skip where no Chromium is
installed (Debian's package: `apt-get install chromium`)."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

WIDTH = 390  # a phone's width in CSS px
TAP = 44  # the least tap, either way, in CSS px
TEXT = 14  # the least size of text that says something, in CSS px


class Chromium:
    """One headless Chromium tab at a phone's size, spoken to over a pipe."""

    def __init__(self, profile: str) -> None:
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def pipes() -> None:  # the protocol's pipe is the child's fds 3 (in) and 4 (out)
            # Copied above both first, so that placing one cannot close the other.
            got, put = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_r, from_w))
            os.dup2(got, 3)
            os.dup2(put, 4)

        assert CHROMIUM is not None
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", "--hide-scrollbars", f"--user-data-dir={profile}",
             "about:blank"],
            preexec_fn=pipes, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.out = os.fdopen(to_w, "wb", buffering=0)
        self.into = os.fdopen(from_r, "rb", buffering=0)
        self.sent = 0
        self.answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self.dialogs: list[str] = []
        self.accept = True
        threading.Thread(target=self._read, daemon=True).start()
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.tab("Page.enable")
        self.tab("Emulation.setDeviceMetricsOverride", width=WIDTH, height=844,
                 deviceScaleFactor=1, mobile=True)

    def _read(self) -> None:
        pending = b""
        while chunk := self.into.read(65536):
            pending += chunk
            while b"\0" in pending:
                raw, pending = pending.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message and message["id"] in self.answers:
                    self.answers[message["id"]].put(message)
                elif message.get("method") == "Page.javascriptDialogOpening":
                    self.dialogs.append(message["params"]["message"])
                    threading.Thread(target=self.tab, args=("Page.handleJavaScriptDialog",),
                                     kwargs={"accept": self.accept}, daemon=True).start()

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.sent += 1
        number = self.sent
        self.answers[number] = queue.Queue()
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.out.write(json.dumps(message).encode() + b"\0")
        try:
            answer = self.answers[number].get(timeout=30)
        finally:
            del self.answers[number]
        assert "error" not in answer, (method, answer["error"])
        return dict(answer.get("result", {}))

    def tab(self, method: str, **params: Any) -> dict[str, Any]:
        return self.call(method, self.session, **params)

    def js(self, expression: str) -> Any:
        result = self.tab("Runtime.evaluate", expression=expression, returnByValue=True,
                          awaitPromise=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def until(self, expression: str, seconds: float = 10) -> None:
        """Wait for `expression` to hold on the page."""
        end = time.monotonic() + seconds
        while not self.js(f"!!({expression})"):
            assert time.monotonic() < end, f"never true: {expression}"
            time.sleep(0.1)

    def open(self, url: str) -> None:
        self.follow(lambda: self.tab("Page.navigate", url=url))

    def send(self, expression: str) -> None:
        """Run `expression`, which leaves the page (a form sent, a link followed), and wait
        for the page it leads to."""
        self.follow(lambda: self.js(expression))

    def follow(self, leave: Callable[[], Any]) -> None:
        self.js("window.leaving = true")
        leave()
        self.until("window.leaving === undefined && document.readyState === 'complete'")

    def press(self, key: str, shift: bool = False) -> None:
        """A key pressed and let go on the keyboard ("Tab", "Enter", "Escape", " "), as a
        person does: the browser moves focus and activates controls itself, scripts or not."""
        codes = {"Tab": (9, "\t"), "Enter": (13, "\r"), "Escape": (27, ""), " ": (32, " "),
                 "ArrowLeft": (37, ""), "ArrowRight": (39, "")}
        number, text = codes[key]
        sent = {"key": key, "code": "Space" if key == " " else key,
                "windowsVirtualKeyCode": number, "modifiers": 8 if shift else 0}
        if text:
            self.tab("Input.dispatchKeyEvent", type="keyDown", text=text, **sent)
        else:  # a key that types nothing
            self.tab("Input.dispatchKeyEvent", type="rawKeyDown", **sent)
        self.tab("Input.dispatchKeyEvent", type="keyUp", **sent)

    def resize(self, width: int, height: int = 844) -> None:
        """The tab's viewport, as a phone (at most 480px wide) or a desktop."""
        self.tab("Emulation.setDeviceMetricsOverride", width=width, height=height,
                 deviceScaleFactor=1, mobile=width <= 480)

    def screenshot(self, path: Path | str) -> None:
        """The whole page as a PNG file (for a person to look at)."""
        shot = self.tab("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        Path(path).write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        finally:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


# What a phone shows: each visible control's box (a checkbox's label's when it is taller:
# a tap on the label ticks it), each visible text's size (and whether it sits in an element
# `measure` was told is a dense game card, and not in one it was told is a card's words),
# and how wide the page is.
MEASURE = """(() => {
  const dense = el => !!el.closest(%(dense)s) && !el.closest(%(plain)s);
  const hidden = el => { const cs = getComputedStyle(el);
    return cs.display === 'none' || cs.visibility === 'hidden' || !!el.closest('.visually-hidden'); };
  const controls = [];
  for (const el of document.querySelectorAll('main a[href], main button, main summary, '
      + 'main input:not([type=hidden]), main select, main textarea')) {
    const box = el.getBoundingClientRect();
    if (hidden(el) || (box.width === 0 && box.height === 0)) continue;
    let [w, h] = [box.width, box.height];
    if (el.type === 'checkbox' && el.labels.length) {
      const label = el.labels[0].getBoundingClientRect();
      [w, h] = [Math.max(w, label.width), Math.max(h, label.height)];
    }
    controls.push({what: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' '
                   + (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 40),
                   classes: el.getAttribute('class') || '', w: w, h: h});
  }
  const texts = [];
  const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest('option, noscript') || hidden(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    texts.push({text: node.textContent.trim().slice(0, 40), px: parseFloat(getComputedStyle(el).fontSize),
                dense: dense(el), where: el.getAttribute('class') || el.tagName.toLowerCase()});
  }
  return {controls: controls, texts: texts, wide: document.documentElement.scrollWidth};
})()"""


@contextmanager
def started() -> Iterator[Chromium]:
    """A Chromium tab, signed in as nobody, closed at the end."""
    with tempfile.TemporaryDirectory() as profile:
        browser = Chromium(profile)
        try:
            browser.tab("Network.enable")
            yield browser
        finally:
            browser.close()


def sign_in(browser: Chromium, url: str, user: Any) -> None:
    """Sign the tab in as `user` on the site at `url` (a live_server's), by the session
    cookie of a test client logged in as them; whoever it was signed in as before is
    signed out."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    sign_out(browser)
    cookie = settings.SESSION_COOKIE_NAME
    browser.tab("Network.setCookie", name=cookie, url=url, value=client.cookies[cookie].value)


def sign_out(browser: Chromium) -> None:
    """Forget every cookie the tab holds: the next page is a visitor's."""
    browser.tab("Network.clearBrowserCookies")


@contextmanager
def signed_in(url: str, user: Any) -> Iterator[Chromium]:
    """A Chromium tab signed in as `user` on the site at `url` (a live_server's)."""
    with started() as browser:
        sign_in(browser, url, user)
        yield browser


def measure(browser: Chromium, dense: str = ":not(*)", plain: str = ":not(*)") -> dict[str, Any]:
    """What the page in `browser` shows (MEASURE); `dense`: a CSS selector of the elements
    whose text may be smaller (a game's dense cards), marked `dense` among the texts, but
    for the text in those `plain` selects (a card's name and rules, read as any text)."""
    return dict(browser.js(MEASURE % {"dense": json.dumps(dense), "plain": json.dumps(plain)}))

"""static/js/league.js run by node against a stand-in for the page: what it does on a
form's submit and on an htmx request, in place of the inline handlers it replaced."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="needs node to run the page's script")

# Elements are attribute bags with a tag name, children and the selectors league.js uses
# ("[attr]" and tag names); listeners are kept by event name, capture or not.
PAGE = """
const listeners = {};
class Element {
  constructor(tag, attrs, children) {
    this.tagName = tag.toUpperCase(); this.attrs = Object.assign({}, attrs || {});
    this.children = children || []; this.isConnected = true;
    this.type = this.attrs.type || ""; this.name = this.attrs.name || "";
    this.value = this.defaultValue = this.attrs.value || "";
  }
  hasAttribute(n) { return n in this.attrs; }
  getAttribute(n) { return n in this.attrs ? this.attrs[n] : null; }
  setAttribute(n, v) { this.attrs[n] = String(v); }
  removeAttribute(n) { delete this.attrs[n]; }
  toggleAttribute(n, on) { if (on) { this.attrs[n] = ""; } else { delete this.attrs[n]; } }
  matches(selectors) {
    return selectors.split(",").some(sel => {
      sel = sel.trim();
      return sel[0] === "[" ? this.hasAttribute(sel.slice(1, -1))
        : this.tagName === sel.toUpperCase();
    });
  }
  all() { return this.children.flatMap(c => [c, ...c.all()]); }
  contains(el) { return el === this || this.all().includes(el); }
  querySelectorAll(sel) { return this.all().filter(c => c.matches(sel)); }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
  closest(sel) { return this.matches(sel) ? this : null; }
}
class HTMLFormElement extends Element {
  constructor(attrs, children) {
    super("form", attrs, children);
    this.elements = {namedItem: n => this.all().find(c => c.name === n) || null};
  }
}
const document = {
  activeElement: null,
  addEventListener(name, fn, capture) { (listeners[name] = listeners[name] || []).push(fn); },
};
const asked = [];
let answer = true;
const window = {confirm(question) { asked.push(question); return answer; }};
const htmx = {onLoad() {}, trigger() {}};
function dispatch(name, target, detail) {
  const event = {
    type: name, target, detail, prevented: false, stopped: false,
    preventDefault() { this.prevented = true; },
    stopPropagation() { this.stopped = true; },
  };
  (listeners[name] || []).forEach(fn => fn(event));
  return event;
}
SCRIPT
"""


def run(drill: str) -> Any:
    found = finders.find("js/league.js")
    assert found is not None
    script = PAGE.replace("SCRIPT", Path(str(found)).read_text()) + drill
    ran = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=30,
                         check=True)
    return json.loads(ran.stdout)


CONFIRM_DRILL = """
function resignForm() {
  return new HTMLFormElement({"data-confirm": "Resign? The match ends and you lose it."}, [
    new Element("input", {type: "hidden", name: "confirmed", value: ""}),
    new Element("button", {type: "submit"})]);
}
function submit(form, agree) {
  answer = agree;
  asked.length = 0;
  const event = dispatch("submit", form);
  const confirmed = form.elements.namedItem("confirmed");
  return {asked: asked.slice(), sent: !event.prevented, stopped: event.stopped,
          confirmed: confirmed ? confirmed.value : null};
}
console.log(JSON.stringify({
  agreed: submit(resignForm(), true),
  refused: submit(resignForm(), false),
  withdraw: submit(new HTMLFormElement({"data-confirm": "Withdraw your entry?"}), true),
  plain: submit(new HTMLFormElement({}, [new Element("input", {name: "confirmed"})]), false),
}));
"""


def test_a_form_with_data_confirm_asks_first_and_says_it_was_confirmed() -> None:
    """What the resign form's onsubmit did: ask; not sent on a no; on a yes, its hidden
    `confirmed` field says so, and the server resigns without asking again on a page."""
    assert run(CONFIRM_DRILL) == {
        "agreed": {"asked": ["Resign? The match ends and you lose it."], "sent": True,
                   "stopped": False, "confirmed": "yes"},
        "refused": {"asked": ["Resign? The match ends and you lose it."], "sent": False,
                    "stopped": True, "confirmed": ""},
        "withdraw": {"asked": ["Withdraw your entry?"], "sent": True, "stopped": False,
                     "confirmed": None},
        # No question of its own: nothing asked, nothing changed.
        "plain": {"asked": [], "sent": True, "stopped": False, "confirmed": ""},
    }

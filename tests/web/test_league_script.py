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
# (a tag name, then [attr]s); listeners are kept by event name, capture or not, and
# htmx.onLoad's callbacks in `loaded`.
PAGE = r"""
const listeners = {};
class Element {
  constructor(tag, attrs, children) {
    this.tagName = tag.toUpperCase(); this.attrs = Object.assign({}, attrs || {});
    this.children = children || []; this.isConnected = true; this.parent = null;
    this.children.forEach(c => { c.parent = this; });
    this.type = this.attrs.type || ""; this.name = this.attrs.name || "";
    this.value = this.defaultValue = this.attrs.value || ""; this.style = {};
  }
  hasAttribute(n) { return n in this.attrs; }
  getAttribute(n) { return n in this.attrs ? this.attrs[n] : null; }
  setAttribute(n, v) { this.attrs[n] = String(v); }
  removeAttribute(n) { delete this.attrs[n]; }
  toggleAttribute(n, on) { if (on) { this.attrs[n] = ""; } else { delete this.attrs[n]; } }
  get classList() {
    const el = this;
    const names = () => (el.attrs.class || "").split(" ").filter(Boolean);
    return {contains: n => names().includes(n),
            add(n) { this.toggle(n, true); },
            toggle(n, on) {
              const kept = names().filter(m => m !== n);
              el.attrs.class = (on ? [...kept, n] : kept).join(" ");
            }};
  }
  matches(selectors) {
    return selectors.split(",").some(sel => {
      const steps = sel.split(">");
      if (steps.length > 1) {  // "details > summary": a child of its parent
        return this.matches(steps.pop()) && !!this.parent && this.parent.matches(steps.join(">"));
      }
      const tag = sel.trim().match(/^[a-z]*/)[0];
      const attrs = Array.from(sel.matchAll(/\[([a-z-]+)\]/g), found => found[1]);
      const classes = Array.from(sel.matchAll(/\.([a-z-]+)/g), found => found[1]);
      const own = (this.attrs.class || "").split(" ");
      return (!tag || this.tagName === tag.toUpperCase())
        && attrs.every(attr => this.hasAttribute(attr))
        && classes.every(name => own.includes(name));
    });
  }
  remove() {
    if (this.parent) { this.parent.children = this.parent.children.filter(c => c !== this); }
    this.isConnected = false;
  }
  appendChild(child) {
    if (child.parent) { child.remove(); }
    child.parent = this; child.isConnected = true; this.children.push(child);
    return child;
  }
  all() { return this.children.flatMap(c => [c, ...c.all()]); }
  contains(el) { return el === this || this.all().includes(el); }
  querySelectorAll(sel) { return this.all().filter(c => c.matches(sel)); }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
  closest(sel) { return this.matches(sel) ? this : this.parent && this.parent.closest(sel); }
}
class HTMLFormElement extends Element {
  constructor(attrs, children) {
    super("form", attrs, children);
    this.elements = {namedItem: n => this.all().find(c => c.name === n) || null};
  }
}
const document = {
  activeElement: null,
  documentElement: new Element("html", {}, []),
  addEventListener(name, fn, capture) { (listeners[name] = listeners[name] || []).push(fn); },
  querySelectorAll() { return []; },  // no top bar here
};
const asked = [];
let answer = true;
const window = {confirm(question) { asked.push(question); return answer; },
                addEventListener() {}};
const loaded = [];
const htmx = {onLoad(fn) { loaded.push(fn); }, trigger() {}};
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
    ran = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
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


HOLD_DRILL = """
// The play page's state: a guarded poll holding a choice form (a field, its button).
function page() {
  const field = new Element("input", {type: "text", name: "pick"});
  const button = new Element("button", {type: "submit"});
  const form = new HTMLFormElement({"hx-post": "/act/"}, [field, button]);
  const guard = new Element("div", {"data-guard-edits": "", "hx-get": "/state/"}, [form]);
  return {guard, form, field, button};
}
function request(elt, cause) {
  const event = dispatch("htmx:confirm", elt,
                         {elt, triggeringEvent: cause ? {type: cause} : undefined});
  return event.prevented ? "held" : "sent";
}
function outcome(setUp, elt, cause) {
  const p = page();
  document.activeElement = null;
  setUp(p);
  const sent = request(elt ? p[elt] : p.guard, cause);
  return [sent, p.guard.hasAttribute("data-refresh-held")];
}
console.log(JSON.stringify({
  idle_poll: outcome(() => {}),
  focus_on_a_field: outcome(p => { document.activeElement = p.field; }),
  focus_on_a_button: outcome(p => { document.activeElement = p.button; }),
  focus_outside: outcome(() => { document.activeElement = new Element("input", {}); }),
  edit_not_posted: outcome(p => { p.field.value = "b";
                                  dispatch("input", p.field); }),
  edit_undone: outcome(p => { p.field.value = "b"; dispatch("input", p.field);
                              p.field.value = ""; dispatch("change", p.field); }),
  league_changed_while_typing: outcome(p => { document.activeElement = p.field; },
                                       null, "league-changed"),
  its_league_refresh: outcome(p => { p.guard.setAttribute("data-dirty", "");
                                     document.activeElement = p.field; },
                              null, "league-refresh"),
  a_form_in_it_posts: outcome(p => { document.activeElement = p.field; }, "form", "submit"),
}));
"""


def test_a_guarded_sections_own_requests_wait_while_a_form_in_it_is_busy() -> None:
    """What the trigger filter [leagueIdle(this)] did, without eval: the poll and the
    "league-changed" refresh of an element marked data-guard-edits are held while a field
    in it has focus or holds an edit not yet posted, and the element is marked
    data-refresh-held; its own "league-refresh" and its forms' posts go."""
    assert run(HOLD_DRILL) == {
        "idle_poll": ["sent", False],
        "focus_on_a_field": ["held", True],
        "focus_on_a_button": ["sent", False],
        "focus_outside": ["sent", False],
        "edit_not_posted": ["held", True],
        "edit_undone": ["sent", False],
        "league_changed_while_typing": ["held", True],
        "its_league_refresh": ["sent", False],
        "a_form_in_it_posts": ["sent", False],
    }


MIN_WIDTH_DRILL = """
const bracket = new Element("svg", {"data-min-width": "589", width: "694"});
const chart = new Element("svg", {width: "360"});
const swapped = new Element("div", {id: "event-results"}, [bracket, chart]);
loaded.forEach(fn => fn(swapped));
console.log(JSON.stringify({bracket: bracket.style, chart: chart.style}));
"""


def test_a_diagram_gets_its_min_width_from_data_min_width_when_swapped_in() -> None:
    """What league/svg.py's style="min-width: ..." did, set by the script: the bracket
    shrinks with the page but no further than 85% of its width (data-min-width)."""
    assert run(MIN_WIDTH_DRILL) == {"bracket": {"minWidth": "589px"}, "chart": {}}


REFUSAL_DRILL = """
// The organizer panel with a refusal shown: its banner, Dismiss button, and the refused
// form as the server sent it back (its values as typed, so not an edit of the page's).
const triggered = [];
htmx.trigger = (elt, name) => { triggered.push(name); };
function panel(keep) {
  const dismiss = new Element("button", {type: "button", "data-dismiss-alert": ""});
  const banner = new Element("div", {class: "error-banner"}, [new Element("p", {}), dismiss]);
  const field = new Element("textarea", {name: "order", value: "e2 e1"});
  const attrs = {"data-guard-edits": "", "hx-get": "/panel/"};
  if (keep) { attrs["data-keep-refusal"] = ""; }
  const guard = new Element("div", attrs, [banner, new HTMLFormElement({}, [field])]);
  return {guard, dismiss};
}
function changed(p) {
  const event = dispatch("htmx:confirm", p.guard,
                         {elt: p.guard, triggeringEvent: {type: "league-changed"}});
  return event.prevented ? "held" : "sent";
}
document.activeElement = null;
const kept = panel(true);
const before = changed(kept);
dispatch("click", kept.dismiss);
const other = panel(false);
console.log(JSON.stringify({
  while_shown: before, held: triggered.slice(), after: changed(kept),
  not_marked: changed(other),
}));
"""


def test_the_panel_keeps_a_refusal_and_its_form_until_it_is_dismissed() -> None:
    """A refresh of the organizer panel (another part's league-changed: a player entered)
    waits while it shows a refusal, which it would wipe with the refused form's values;
    dismissing the message makes the refresh held back."""
    assert run(REFUSAL_DRILL) == {"while_shown": "held", "held": ["league-refresh"],
                                  "after": "sent", "not_marked": "sent"}


REOPEN_DRILL = """
// The play page's view, polled: a Discard pile open (its <details> with an id), a reference
// card open (with none), a pile folded. The answer has a card more in the discard pile.
function fold(attrs, words, open) {
  const summary = new Element("summary", {});
  summary.textContent = "  " + words + " ";
  const details = new Element("details", Object.assign(open ? {open: ""} : {}, attrs),
                              [summary]);
  details.open = open;
  details.id = attrs.id || "";
  summary.parentElement = details;
  return details;
}
function view(discard) {
  const section = new Element("section", {id: "play-view", "data-guard-edits": ""}, [
    fold({id: "sx-1-discard-fold"}, "Discard pile (" + discard + ")", discard === 3),
    fold({}, "Reference card", discard === 3),
    fold({id: "sx-2-discard-fold"}, "Discard pile (" + discard + ")", false),
    fold({}, "Rounds played", false)]);
  section.id = "play-view";
  return section;
}
const before = view(3);
dispatch("htmx:beforeSwap", before, {requestConfig: {verb: "get"}, target: before});
const after = view(4);
document.getElementById = id => (id === "play-view" ? after : null);
dispatch("htmx:afterSwap", after, {});  // opened again as the swap is made, before a paint
dispatch("htmx:afterSettle", after, {});
console.log(JSON.stringify(after.children.map(
  d => [d.querySelector("summary").textContent.trim(), d.open])));
"""


def test_an_open_section_stays_open_after_a_poll_when_its_summary_counts_anew() -> None:
    """An open "Discard pile (3)" folded once the poll answered "Discard pile (4)": a
    section is known again by its <details>'s id, and by its summary's words where it has
    none; a folded one stays folded."""
    assert run(REOPEN_DRILL) == [
        ["Discard pile (4)", True], ["Reference card", True],
        ["Discard pile (4)", False], ["Rounds played", False]]


FOCUS_BOX_DRILL = """
// The Event's results as a poll swaps them, a keyboard user on the bracket's box, which
// scrolls (Tab reaches it); focus is given back by the page's script, not htmx.
function results() {
  const box = new Element("div", {id: "bracket-scroll", "data-scroll-box": "", tabindex: "0"});
  box.focus = () => { document.activeElement = box; };
  box.id = "bracket-scroll";
  const swapped = new Element("div", {"data-focus-home": "event-matches"}, [box]);
  box.parentElement = swapped;
  return [swapped, box];
}
const [before, was] = results();
document.activeElement = was;
dispatch("htmx:beforeSwap", before, {target: before, shouldSwap: true});
const [after, box] = results();
document.activeElement = null;
document.getElementById = id => (id === "bracket-scroll" ? box : null);
dispatch("htmx:afterSettle", after, {target: after});
console.log(JSON.stringify([document.activeElement === box, box.getAttribute("tabindex")]));
"""


def test_a_box_tab_reaches_is_focused_again_after_a_poll_and_stays_in_tab_s_order() -> None:
    """Focus given back to the bracket's box made it tabindex="-1", out of Tab's order
    where it scrolls: it keeps the tabindex it came with."""
    assert run(FOCUS_BOX_DRILL) == [True, "0"]


ANNOUNCE_DRILL = """
// The page as base.html answers it after a form's redirect: a refusal (an alert, left
// where it is), a status message shown at once, and the status region, empty at load.
const alert = new Element("div", {class: "msg msg-error", role: "alert"});
const saved = new Element("div", {class: "msg msg-success", "data-announce": ""});
const region = new Element("div", {role: "status", "data-announce-here": ""});
const messages = new Element("div", {class: "messages"}, [alert, saved, region]);
const body = new Element("body", {}, [messages]);
function where() {
  return {shown: messages.children.map(c => c.attrs.class || c.attrs.role),
          region: region.children.map(c => c.attrs.class),
          marked: saved.hasAttribute("data-announce")};
}
loaded.forEach(fn => fn(body));
const atLoad = where();
setTimeout(() => {
  const soon = where();
  setTimeout(() => console.log(JSON.stringify({atLoad, soon, later: where()})), 600);
}, 100);
"""


def test_a_status_message_moves_into_the_empty_live_region_a_moment_after_load() -> None:
    """A screen reader reads out what comes into a live region, not what it held when the
    page loaded: the message shown at load goes into the status region half a second
    later; a refusal, an alert, stays where it is."""
    assert run(ANNOUNCE_DRILL) == {
        "atLoad": {"shown": ["msg msg-error", "msg msg-success", "status"], "region": [],
                   "marked": True},
        "soon": {"shown": ["msg msg-error", "msg msg-success", "status"], "region": [],
                 "marked": True},
        "later": {"shown": ["msg msg-error", "status"], "region": ["msg msg-success"],
                  "marked": False},
    }


EDGES_DRILL = """
// Superstar Showdown's ring on a phone, scrolled by play.js to the squares to tap.
const ring = new Element("div", {class: "st-ring-box", "data-scroll-box": ""});
Object.assign(ring, {scrollLeft: 120, clientWidth: 340, scrollWidth: 600});
window.league.scrolled(ring);
const middle = ring.attrs.class;
ring.scrollLeft = 0;
window.league.scrolled(ring);
console.log(JSON.stringify([middle, ring.attrs.class]));
"""


def test_the_page_script_marks_a_box_s_edges_for_play_js_there_and_then() -> None:
    """play.js scrolls the ring to the squares to tap and has league.js mark the ring's
    edges at once (window.league.scrolled), as it marks every box that scrolls."""
    assert run(EDGES_DRILL) == ["st-ring-box more-left more-right", "st-ring-box more-right"]


def test_one_script_marks_the_edges_of_every_box_that_scrolls_sideways() -> None:
    """play.js kept a second copy of league.js's scroll edges (its own toggles, a scroll
    and a resize listener) for the ring: the ring is a data-scroll-box like the others,
    and league.js alone marks edges."""
    scripts = {name: Path(str(finders.find(f"js/{name}"))).read_text()
               for name in ("league.js", "play.js")}
    assert [name for name, text in scripts.items() if "more-left" in text] == ["league.js"]
    assert '"resize"' not in scripts["play.js"] and '"scroll"' not in scripts["play.js"]
    ring = Path(str(finders.find("js/league.js"))).parents[2] / "templates" / "games" \
        / "superstar_showdown" / "_view.html"
    assert 'class="st-ring-box" id="st-ring-box" data-keep-scroll data-scroll-box' \
        in ring.read_text()


LOCAL_TIME_DRILL = """
// An Event's start (league/_starts_at.html) and a turn's deadline, written in UTC.
const start = new Element("time", {datetime: "2037-01-15T18:30:00+00:00", "data-local": ""});
const soon = new Date(Date.now() + 60 * 1000);
const deadline = new Element("time", {datetime: soon.toISOString(), "data-local": ""});
loaded.forEach(fn => fn(new Element("div", {}, [start, deadline])));
console.log(JSON.stringify([start.textContent, deadline.textContent]));
"""


def test_a_local_time_says_its_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server writes "18:30 UTC"; the page rewrote it in the reader's zone with no zone
    at all ("13:30"), which a reader whose device is set to another zone misread."""
    monkeypatch.setenv("TZ", "America/New_York")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    start, deadline = run(LOCAL_TIME_DRILL)
    assert start.endswith("EST") and "2037" in start and "30" in start
    assert deadline.endswith(("EST", "EDT"))

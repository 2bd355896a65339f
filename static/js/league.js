/* The organizer panel refreshes itself on "league-changed" (a match ended, a seat changed
   hands) by swapping its whole HTML, which would wipe what the organizer is typing there.
   An element marked data-guard-edits refreshes (its poll, its "league-changed") only
   while it is idle: no form field in it has focus and none holds an edit not yet posted
   (data-dirty). Its requests are held back here, on htmx:confirm, not by a filter in its
   hx-trigger, which htmx would have to eval. A refresh it held back is made once focus
   has left the element with nothing left unposted, by the element's own "league-refresh"
   trigger, which is never held. A refresh (a GET) keeps the folded sections (<details>)
   the reader had opened open. */
(function () {
  "use strict";

  var GUARD = "[data-guard-edits]";
  var FIELDS = "input, select, textarea";

  function edited(field) {
    if (field.type === "hidden" || field.type === "submit" || field.type === "button") {
      return false;
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      var shown = 0;  // the option the page marked selected, else the first
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].defaultSelected) { shown = i; break; }
      }
      return field.selectedIndex !== shown;
    }
    return field.value !== field.defaultValue;
  }

  function guardOf(event) {
    return event.target instanceof Element ? event.target.closest(GUARD) : null;
  }

  function markEdits(event) {
    var guard = guardOf(event);
    if (guard) {
      var fields = guard.querySelectorAll(FIELDS);
      guard.toggleAttribute("data-dirty", Array.prototype.some.call(fields, edited));
    }
  }

  function refreshHeld(event) {
    var guard = guardOf(event);
    if (!guard || !guard.hasAttribute("data-refresh-held")) {
      return;
    }
    setTimeout(function () {  // by then focus has landed where it was going
      var away = !guard.contains(document.activeElement);
      if (guard.isConnected && away && !guard.hasAttribute("data-dirty")
          && guard.hasAttribute("data-refresh-held")) {
        guard.removeAttribute("data-refresh-held");
        htmx.trigger(guard, "league-refresh");
      }
    }, 0);
  }

  /* A guard marked data-keep-refusal (the organizer panel) is busy too while it shows a
     refusal (its banner's Dismiss button): a refresh would wipe the message and the form
     it came back with, the values typed into it. Dismissing it, or an action that
     succeeds, ends that. */
  function idle(guard) {
    var focused = document.activeElement;
    var busy = guard.hasAttribute("data-dirty")
      || (focused !== null && guard.contains(focused) && focused.matches(FIELDS))
      || (guard.hasAttribute("data-keep-refusal")
          && guard.querySelector("[data-dismiss-alert]") !== null);
    if (busy) {
      guard.setAttribute("data-refresh-held", "");
    }
    return !busy;
  }

  // A guarded element's own request (not one of a form inside it) waits while it is busy.
  function holdWhileBusy(event) {
    var elt = event.detail.elt;
    var cause = event.detail.triggeringEvent;
    if (elt instanceof Element && elt.matches(GUARD)
        && !(cause && cause.type === "league-refresh") && !idle(elt)) {
      event.preventDefault();
    }
  }

  /* Sections open before a refresh, by guarded element id: each open <details> by its own
     id, which stays as its summary's count changes ("Discard pile (3)", then (4)), or by
     its summary's words where it has none. */
  var reopen = {};

  function foldKey(details) {
    if (details.id) {
      return "id " + details.id;
    }
    var summary = details.querySelector("summary");
    return summary ? "text " + summary.textContent.trim() : "";
  }

  function noteOpen(event) {
    var target = event.detail.target;
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "get"
        && target instanceof Element && target.id
        && target.matches(GUARD + ", [data-keep-open]")) {
      reopen[target.id] = Array.prototype.map.call(target.querySelectorAll("details[open]"),
                                                   foldKey);
    }
  }

  function openAgain() {
    Object.keys(reopen).forEach(function (id) {
      var fresh = document.getElementById(id);
      if (fresh) {
        fresh.querySelectorAll("details").forEach(function (details) {
          var key = foldKey(details);
          if (key && reopen[id].indexOf(key) !== -1) {
            details.open = true;
          }
        });
      }
    });
    reopen = {};
  }

  /* A box scrolled sideways (data-keep-scroll: the Event's bracket and standings,
     Superstar Showdown's ring, on a phone) is where it was scrolled to after a poll swaps
     it in anew, by its id; it went back to its start at every result or move. */
  var scrolledTo = {};

  function noteScroll(event) {
    var target = event.detail.target;
    if (target instanceof Element) {
      target.querySelectorAll("[data-keep-scroll][id]").forEach(function (box) {
        scrolledTo[box.id] = box.scrollLeft;
      });
    }
  }

  function scrollAgain() {
    Object.keys(scrolledTo).forEach(function (id) {
      var box = document.getElementById(id);
      if (box && !box.hasAttribute("data-keep-scroll")) {
        delete scrolledTo[id];  // a finished Event's bracket: opened anew (openBracket)
        return;
      }
      if (box) {
        box.scrollLeft = scrolledTo[id];
      }
      if (!box || Math.abs(box.scrollLeft - scrolledTo[id]) < 1) {
        delete scrolledTo[id];  // there (a later script may scroll it on: play.js)
      }
    });
  }

  /* The sections open before a swap are open again (openAgain), then the boxes scrolled
     back, as soon as the swap is made, before the browser paints it: the standings, whose
     tiebreak columns such a section shows, are too narrow to scroll until it is open, and
     opened only once the swap had settled (htmx's 20 ms later) they showed folded and
     back at the names for a few frames at every result. */
  function openAndScrollAgain() {
    openAgain();
    scrollAgain();
  }

  /* A box that could not be scrolled back yet (its width set as the swap settles) is then. */
  function scrollAgainOpened() {
    scrollAgain();
    scrolledTo = {};
  }

  /* htmx gives focus back to the control with the focused one's id. A control the answer
     no longer has (a Withdraw once its entrant withdrew, Start once started, a Forfeit once
     its match ended) left focus on the page's top: it goes instead to the nearest element
     around it that is still there (its row, its card's heading), or to the one its
     data-focus-instead names (the Event page's "Your match" link, gone once the match
     ended: that match's row), the summary of a disclosure it was in (closed again, the
     control in it hidden), else to the swapped element's data-focus-home, so a
     keyboard user goes on from where they were. */
  var lostFrom = null;

  function noteFocus(event) {
    var target = event.detail.target;
    var focused = document.activeElement;
    if (!event.detail.shouldSwap || !(target instanceof Element)
        || !target.matches(GUARD + ", [data-focus-home]") || !focused
        || !target.contains(focused)) {
      return;
    }
    lostFrom = {ids: [], home: target.getAttribute("data-focus-home")};
    // The focused element first: a row focused here before is no control, which htmx
    // cannot focus again.
    for (var el = focused; el && el !== target; el = el.parentElement) {
      if (el.id) {
        lostFrom.ids.push(el.id);
      }
      if (el.hasAttribute("data-focus-instead")) {
        lostFrom.ids.push(el.getAttribute("data-focus-instead"));
      }
      // A disclosure (a result's Correct form) comes back closed: its summary, which
      // still shows, takes focus where the control inside it cannot.
      var summary = el.matches("details") ? el.querySelector(":scope > summary[id]") : null;
      if (summary) {
        lostFrom.ids.push(summary.id);
      }
    }
  }

  function focusAgain() {
    var lost = lostFrom;
    lostFrom = null;
    if (!lost || (document.activeElement && document.activeElement !== document.body)) {
      return;
    }
    var ids = lost.ids.concat(lost.home ? [lost.home] : []);
    for (var i = 0; i < ids.length; i++) {
      var around = document.getElementById(ids[i]);
      if (around) {
        var spot = around.matches("section") ? around.querySelector("h2, h3") : around;
        spot = spot || around;
        if (!spot.matches("a, button, input, select, textarea, summary")
            && !spot.hasAttribute("tabindex")) {  // a box Tab reaches stays in its order
          spot.setAttribute("tabindex", "-1");
        }
        spot.focus({preventScroll: false});
        if (document.activeElement === spot) {
          return;
        }  // (a control hidden in a closed disclosure takes no focus: on to the next)
      }
    }
  }

  /* A refusal's Dismiss button takes its banner away (the next action that succeeds
     empties it too, from the server). A keyboard user on the button goes back to the
     control they were on before it, else to the panel's or list's home, where they are. */
  var beforeDismiss = null;

  function noteBeforeDismiss(event) {
    if (event.target instanceof Element && event.target.matches("[data-dismiss-alert]")) {
      beforeDismiss = event.relatedTarget;
    }
  }

  function dismiss(event) {
    var button = event.target instanceof Element
      ? event.target.closest("[data-dismiss-alert]") : null;
    if (!button) {
      return;
    }
    var focused = document.activeElement === button;
    var guard = button.closest(GUARD);
    var banner = button.closest(".error-banner");
    (banner || button).remove();
    if (guard && guard.hasAttribute("data-refresh-held") && idle(guard)) {
      guard.removeAttribute("data-refresh-held");  // the refresh the refusal held back
      htmx.trigger(guard, "league-refresh");
    }
    if (!focused) {
      return;  // a tap: focus stays where it was
    }
    var back = beforeDismiss && beforeDismiss.isConnected ? beforeDismiss
      : guard && document.getElementById(guard.getAttribute("data-focus-home"));
    beforeDismiss = null;
    if (back) {
      if (!back.matches("a, button, input, select, textarea, summary")) {
        back.setAttribute("tabindex", "-1");
      }
      back.focus({preventScroll: true});
    }
  }

  /* A <time data-local> is written in UTC by the server; it is shown in the reader's own
     time zone instead, its time alone when it falls today, its year when not this one,
     and the zone's short name ("CET", "GMT+1"), as the server's says "UTC": a reader on
     a device set to another zone than theirs, or a screenshot sent on, tells which. */
  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (time) {
      var at = new Date(time.getAttribute("datetime"));
      if (isNaN(at.getTime())) {
        return;
      }
      var clock = {hour: "2-digit", minute: "2-digit", timeZoneName: "short"};
      var now = new Date();
      var today = at.toDateString() === now.toDateString();
      var day = {weekday: "short", day: "numeric", month: "short"};
      if (at.getFullYear() !== now.getFullYear()) {
        day.year = "numeric";  // an Event next January, read in December
      }
      time.textContent = today ? at.toLocaleTimeString([], clock)
        : at.toLocaleString([], Object.assign(day, clock));
    });
  }

  /* An <input type="datetime-local" data-local-input> is typed in the reader's own time
     zone. The server writes its value in UTC with the moment in data-utc, shown here in
     the reader's zone; on submit the zone's name goes along as NAME_zone and the moment
     in UTC as NAME_utc, which the server reads first (league.forms.StartsAt): from the
     zone it can tell a time the clocks skip, which a Date moves on by the jump. */
  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function localInputs(root) {
    root.querySelectorAll("input[data-local-input][data-utc]").forEach(function (input) {
      var at = new Date(input.getAttribute("data-utc"));
      if (!isNaN(at.getTime())) {
        input.defaultValue = input.value = at.getFullYear() + "-" + pad(at.getMonth() + 1)
          + "-" + pad(at.getDate()) + "T" + pad(at.getHours()) + ":" + pad(at.getMinutes());
      }
    });
  }

  function sendInUtc(event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) {
      return;
    }
    form.querySelectorAll("input[data-local-input]").forEach(function (input) {
      var at = new Date(input.value);
      var sent = {_utc: input.value && !isNaN(at.getTime()) ? at.toISOString() : "",
                  _zone: input.value ? deviceZone() : ""};
      Object.keys(sent).forEach(function (suffix) {
        var name = input.name + suffix;
        var old = form.querySelector('input[type="hidden"][name="' + name + '"]');
        if (old) {
          old.remove();
        }
        if (sent[suffix]) {
          var hidden = document.createElement("input");
          hidden.type = "hidden";
          hidden.name = name;
          hidden.value = sent[suffix];
          form.appendChild(hidden);
        }
      });
    });
  }

  /* The account page's time zone for mails: a button offers this device's zone when the
     list shows another, and picks it (the player still saves the form). */
  function deviceZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return "";
    }
  }

  function offerDeviceZone(root) {
    root.querySelectorAll("button[data-zone-from-device]").forEach(function (button) {
      var select = document.getElementById(button.getAttribute("data-zone-from-device"));
      var zone = deviceZone();
      var listed = select && Array.prototype.some.call(select.options, function (option) {
        return option.value === zone;
      });
      button.hidden = !listed || select.value === zone;
      if (!button.hidden) {
        button.textContent = "Use this device's time zone: " + zone.replace(/_/g, " ");
      }
    });
  }

  function useDeviceZone(event) {
    var button = event.target.closest && event.target.closest("button[data-zone-from-device]");
    if (!button) {
      return;
    }
    var select = document.getElementById(button.getAttribute("data-zone-from-device"));
    select.value = deviceZone();
    button.hidden = true;
    select.focus();
  }

  /* A diagram (an Event's bracket, wider than a phone, which draws it 1:1; a player's
     rating chart) shrinks to the page's width, but no narrower than its data-min-width,
     below which its text would be too small to read: it scrolls sideways in its box
     instead. (Set here: the Content-Security-Policy allows no style attribute,
     but a script of the site's may set a style.) */
  function minWidths(root) {
    root.querySelectorAll("svg[data-min-width]").forEach(function (svg) {
      svg.style.minWidth = svg.getAttribute("data-min-width") + "px";
    });
  }

  /* A box a diagram or a table scrolls sideways in (data-scroll-box) is focusable, so a
     keyboard scrolls it, only while what it holds is wider than the box: where it fits
     (a wide screen) Tab stopped on a box that never scrolls. Its role and name stay.
     The page sends it focusable, as it must be without JavaScript, and so as htmx can
     give focus back to it (by its id) when a poll swaps it in anew. Run once min-width
     is set (minWidths), and again when the window's width changes. A box that holds
     buttons (Superstar Showdown's ring, its squares to tap) is no stop of its own either:
     Tab reaches its buttons, the browser scrolls each into view as it takes focus, and
     the arrow keys on one scroll the box, so a stop before them was one Tab more. */
  function focusableIfScrolls(root) {
    root.querySelectorAll("[data-scroll-box]").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth && !box.querySelector("button")) {
        box.setAttribute("tabindex", "0");
      } else if (document.activeElement === box) {
        box.setAttribute("tabindex", "-1");  // out of Tab's order, focus kept
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }

  /* An edge of a box that scrolls sideways (data-scroll-box: a standings or Ranking
     Points table, the bracket, Superstar Showdown's ring) with more past it fades
     (site.css), so that a reader on a phone knows to scroll; where all of it shows, no
     edge fades. Marked again as it scrolls, as the window's width changes, and when a
     swap brings a box anew (and puts back where it was scrolled); play.js marks the ring
     (window.league.scrolled) once it has scrolled it to the squares to tap. */
  function scrollEdges(box) {
    box.classList.toggle("more-left", box.scrollLeft > 0);
    box.classList.toggle("more-right", box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  }

  /* How wide the faded edge of a scrolled box is (site.css: 1rem), in CSS px. */
  function edgeFade() {
    return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  }

  /* A diagram's section titles (the bracket's "Winners bracket", "Group A", and its
     "Champion: ..." banner: SVG text at its left edge, which CSS cannot make sticky) follow the box's left edge as it scrolls, so
     that a reader scrolled to a later round (as the page opens the bracket at their own
     match: openBracket) still sees which section it is in; no further than the drawing's
     right edge. */
  function titlesInView(box) {
    var svg = box.querySelector("svg");
    var titles = svg ? svg.querySelectorAll("text.sec-title, text.champ-banner") : [];
    if (!titles.length || !svg.viewBox || !svg.viewBox.baseVal) {
      return;
    }
    var view = svg.viewBox.baseVal;
    var drawn = svg.getBoundingClientRect();
    if (!drawn.width || !view.width) {
      return;
    }
    var scale = view.width / drawn.width;
    var left = (box.getBoundingClientRect().left - drawn.left) * scale + view.x;
    // Scrolled, the box's left edge fades (scrollEdges): a title at it lost its first
    // letter ("wiss"), so it keeps clear of the fade.
    var fade = box.scrollLeft > 0 ? edgeFade() * scale : 0;
    titles.forEach(function (title) {
      var most = view.x + view.width - title.getComputedTextLength() - 2;
      title.setAttribute("x", Math.round(Math.max(0, Math.min(left + fade + 2, most))));
    });
  }

  function scrolled(box) {
    scrollEdges(box);
    titlesInView(box);
  }
  function edgesOfBoxes(root) {
    if (root.matches && root.matches("[data-scroll-box]")) {
      scrolled(root);  // a box swapped in whole
    }
    root.querySelectorAll("[data-scroll-box]").forEach(scrolled);
  }

  /* A <form data-confirm="Question?"> (a plain post, not htmx's: those ask with
     hx-confirm) asks the question before it is sent, and is not sent unless the reader
     agrees. Once they have, its field named "confirmed", if it has one, says "yes": the
     server, which asks on a page of its own when that field comes empty (as it does
     without JavaScript), then acts at once. */
  function askFirst(event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm")) {
      return;
    }
    if (!window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    var confirmed = form.elements.namedItem("confirmed");
    if (confirmed) {
      confirmed.value = "yes";
    }
  }

  /* A status message the page was answered with (Saved, Season created) is shown at once,
     and moved a moment later into the live region beside it, which is empty at load: a
     screen reader reads out what comes into a live region, not what it held at load. */
  var ANNOUNCE_AFTER_MS = 500;

  function announceMessages(root) {
    var region = root.querySelector("[data-announce-here]");
    var said = root.querySelectorAll("[data-announce]");
    if (!region || !said.length) {
      return;
    }
    setTimeout(function () {
      Array.prototype.forEach.call(said, function (message) {
        message.removeAttribute("data-announce");
        region.appendChild(message);
      });
    }, ANNOUNCE_AFTER_MS);
  }

  /* A refused form comes back with autofocus on its first field at fault (the filter
     focused_if_refused), for a screen reader to read its name, that it is invalid and
     the reason beside it. A page reached at a fragment (a form sent to its card's
     anchor, so that the refusal shows) gets no autofocus from the browser, and going to
     the fragment moves focus to the page: focus that field here, once the page has
     loaded (after the fragment), unless focus went somewhere already. */
  function focusRefused() {
    var field = document.querySelector("main [autofocus][aria-invalid='true']");
    if (field && (document.activeElement === document.body || !document.activeElement)) {
      field.focus();
    }
  }

  /* On a phone the bracket is drawn 1:1 and scrolls sideways in its box, which opened at
     its first round: the reader's own match in a later round sat past the screen's edge,
     "Playing now" cut off. Once the page has loaded (the diagram's min-width set), the box
     is scrolled to bring the first of the reader's matches ("Your match") drawn in it into
     view; after that a poll keeps where the reader has scrolled it (scrollAgain). A
     finished Event's (the page no longer keeps its scroll: no data-keep-scroll) opens
     where it ended instead: at the champion's box under the final, else at its start,
     where the "Champion" banner and the titles are; also when it finishes while the
     page is open, scrolled to the reader's match until then. Each box is opened once. */
  function bringIntoView(box, drawn) {
    var at = drawn.getBoundingClientRect();
    var frame = box.getBoundingClientRect();
    if (at.right > frame.right) {  // its left edge stays in view on the narrowest box
      box.scrollLeft += Math.min(at.right - frame.right + 8, at.left - frame.left);
    }
  }

  function openBracket() {
    var box = document.getElementById("bracket-scroll");
    if (!box || box.hasAttribute("data-opened")) {
      return;
    }
    box.setAttribute("data-opened", "");
    if (box.scrollWidth <= box.clientWidth) {
      return;
    }
    if (!box.hasAttribute("data-keep-scroll")) {
      var champion = box.querySelector("g.champion");
      box.scrollLeft = 0;
      if (champion) {
        bringIntoView(box, champion);
      }
      return;
    }
    var links = document.querySelectorAll(".your-match a[href]");
    for (var i = 0; i < links.length; i++) {
      var drawn = box.querySelector("a[href='" + links[i].getAttribute("href") + "']");
      if (drawn) {
        bringIntoView(box, drawn);
        return;
      }
    }
  }

  /* The lobby's New match form: a game picked there sets its seat count's range to the
     game's (the select's data-seats, by game) and brings the count inside it, so that
     picking a game of three seats or more does not leave the count of two it will refuse. */
  function fitSeats(event) {
    var select = event.target;
    if (!(select instanceof Element) || select.tagName !== "SELECT" || !select.dataset
        || !select.dataset.seats || !select.form) {
      return;
    }
    var range = JSON.parse(select.dataset.seats)[select.value];
    var seats = select.form.elements.seats;
    if (!range || !seats) {
      return;
    }
    seats.min = range[0];
    seats.max = range[1];
    var count = parseInt(seats.value, 10);
    if (isNaN(count) || count < range[0] || count > range[1]) {
      seats.value = isNaN(count) || count < range[0] ? range[0] : range[1];
    }
  }

  /* The New Event form: a format made for one game alone (its option's data-game) is
     offered only while that game is chosen, and one chosen before another game was is
     left for the first format offered. Without a script the server refuses it. */
  function fitFormats(form) {
    var game = form.elements["event-game"];
    var format = form.elements["event-format"];
    if (!game || !format || !format.options) {
      return;
    }
    Array.prototype.forEach.call(format.options, function (option) {
      var other = option.dataset.game !== undefined && option.dataset.game !== game.value;
      option.disabled = other;
      option.hidden = other;
    });
    if (format.selectedOptions.length && format.selectedOptions[0].disabled) {
      var first = Array.prototype.find.call(format.options, function (option) {
        return !option.disabled;
      });
      format.value = first ? first.value : "";
    }
  }

  function fitFormatsOnChange(event) {
    var select = event.target;
    if (select instanceof Element && select.tagName === "SELECT" && select.form) {
      fitFormats(select.form);
    }
  }

  function fitFormatsIn(root) {
    root.querySelectorAll("select option[data-game]").forEach(function (option) {
      if (option.parentElement && option.parentElement.form) {
        fitFormats(option.parentElement.form);
      }
    });
  }

  /* The top bar's account menu (a <details>, base.html) folds again at a tap or click
     outside it, at Escape, focus going back to its name, and when Tab takes focus on past
     it (it would cover what focus went to), as a menu does, and so it opens over the page
     (site.css: html.scripted). Without a script it folds at its name alone: open, the bar
     grows to hold it, the page below it, where a tap or Tab reaches what it shows. */
  function foldMenu(event) {
    document.querySelectorAll("details.account-menu[open]").forEach(function (menu) {
      var outside = function (el) { return el instanceof Node && !menu.contains(el); };
      if ((event.type === "click" && outside(event.target))
          || (event.type === "focusout" && outside(event.relatedTarget))) {
        menu.open = false;
      } else if (event.type === "keydown" && event.key === "Escape"
                 && menu.contains(document.activeElement)) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
  }

  window.league = {scrolled: scrolled};
  document.documentElement.classList.add("scripted");
  document.addEventListener("click", foldMenu);
  document.addEventListener("keydown", foldMenu);
  document.addEventListener("focusout", foldMenu);
  window.addEventListener("load", focusRefused);
  window.addEventListener("load", openBracket);
  document.addEventListener("htmx:afterSettle", function () {
    var box = document.getElementById("bracket-scroll");
    if (document.readyState === "complete" && box && !box.hasAttribute("data-keep-scroll")) {
      openBracket();  // the Event finished while the page was open
    }
  });
  htmx.onLoad(announceMessages);
  htmx.onLoad(localTimes);
  htmx.onLoad(offerDeviceZone);
  document.addEventListener("click", useDeviceZone);
  htmx.onLoad(localInputs);
  htmx.onLoad(minWidths);
  htmx.onLoad(fitFormatsIn);
  htmx.onLoad(focusableIfScrolls);
  window.addEventListener("resize", function () { focusableIfScrolls(document); });
  htmx.onLoad(edgesOfBoxes);
  window.addEventListener("resize", function () { edgesOfBoxes(document); });
  /* A section opened or folded changes what a box holds (the standings' tiebreaks
     toggle), as a window's width does. (A toggle does not bubble: caught on its way down.) */
  document.addEventListener("toggle", function () {
    focusableIfScrolls(document);
    edgesOfBoxes(document);
  }, true);
  document.addEventListener("scroll", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-scroll-box")) {
      scrolled(event.target);
    }
  }, true);  /* a box's scroll does not bubble: caught on its way down */
  document.addEventListener("submit", askFirst, true);
  document.addEventListener("submit", sendInUtc, true);
  document.addEventListener("htmx:confirm", holdWhileBusy);
  document.addEventListener("htmx:beforeSwap", noteOpen);
  document.addEventListener("htmx:afterSettle", scrollAgainOpened);
  document.addEventListener("htmx:beforeSwap", noteFocus);
  document.addEventListener("htmx:beforeSwap", noteScroll);
  document.addEventListener("htmx:afterSwap", openAndScrollAgain);
  document.addEventListener("htmx:afterSettle", focusAgain);
  document.addEventListener("input", markEdits);
  document.addEventListener("change", markEdits);
  document.addEventListener("change", fitSeats);
  document.addEventListener("change", fitFormatsOnChange);
  document.addEventListener("focusout", refreshHeld);
  document.addEventListener("focusin", noteBeforeDismiss);
  document.addEventListener("click", dismiss);
})();

/* The play page. A move swaps the whole match state in: the button pressed is gone, and
   focus with it. So does a poll bringing a rival's move that takes away the choice focus
   was on. Put focus back on the status line, so a keyboard or screen reader user goes on
   from there. (A control the swap leaves in place keeps its focus: htmx restores focus by
   id, and the status line, the log's links, the folded sections' summaries and each
   action's button, whose id its action gives, keep theirs from swap to swap; a refused
   play's first spot at fault comes with autofocus, which htmx gives it.) A move that
   fails on its way says so. */
(function () {
  "use strict";

  var focusInState = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var state = document.getElementById("match-state");
    focusInState = state !== null && state.contains(document.activeElement);
  });
  /* A new error banner of the match's: the alert or its copy beside the moves. */
  function errorBanner(tag, id, className, attribute, value) {
    var banner = document.createElement(tag);
    banner.id = id;
    banner.className = className;
    banner.setAttribute(attribute, value);
    return banner;
  }
  /* A move the server answered with an error, or never answered (the network dropped):
     htmx swaps nothing, and the button comes back as though it was never pressed. Say so
     above the table until the next swap, which brings the match as it stands, and again
     just above the moves, where a player on a phone scrolled to them looks (hidden from
     screen readers, which hear the alert). (A poll that fails is tried again at its next
     turn, and says nothing.) */
  function unsent(event) {
    var state = document.getElementById("match-state");
    var config = event.detail.requestConfig;
    if (!state || !config || config.verb !== "post" || !state.contains(event.detail.elt)) {
      return;
    }
    var banner = document.getElementById("match-unsent");
    if (!banner) {
      banner = errorBanner("div", "match-unsent", "error-banner", "role", "alert");
      var seats = state.querySelector(".seats");
      state.insertBefore(banner, seats ? seats.nextSibling : state.firstChild);
    }
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    banner.textContent = status
      ? "Your move was not made: the server answered with an error (" + status + "). "
        + "Try again, or reload the page."
      : "Your move was not sent: the server did not answer (is the network down?). "
        + "Try again.";
    var note = document.getElementById("match-unsent-note")
      || errorBanner("p", "match-unsent-note", "error-banner refusal-note", "aria-hidden", "true");
    var moves = event.detail.elt.closest("section") || event.detail.elt;
    if (!state.contains(moves) || moves === state) {
      moves = event.detail.elt;
    }
    moves.parentNode.insertBefore(note, moves);
    note.textContent = banner.textContent;
  }
  document.addEventListener("htmx:responseError", unsent);
  document.addEventListener("htmx:sendError", unsent);

  /* Superstar Showdown's ring scrolls sideways on a phone (site.css). A swap draws it
     anew, and league.js (data-keep-scroll, its listener first) puts it back where the
     player left it; then the squares they may tap are scrolled into view (as many as the
     box shows, from the left), and league.js marks the edges of its box with more of the
     ring past them (data-scroll-box), there and then, as it does every such box's. */
  function toTheTaps(box) {
    var frame = box.getBoundingClientRect();
    var first = Infinity;
    var last = -Infinity;
    box.querySelectorAll(".sq-go").forEach(function (square) {
      var edges = square.getBoundingClientRect();
      first = Math.min(first, edges.left - frame.left + box.scrollLeft);
      last = Math.max(last, edges.right - frame.left + box.scrollLeft);
    });
    if (last - box.scrollLeft > box.clientWidth) {
      box.scrollLeft = Math.ceil(last - box.clientWidth);
    }
    if (first < box.scrollLeft) {
      box.scrollLeft = Math.floor(first);
    }
  }
  function showRing() {
    var box = document.querySelector("#match-state .st-ring-box");
    if (!box) {
      return;
    }
    if (box.scrollWidth > box.clientWidth) {
      toTheTaps(box);
    }
    window.league.scrolled(box);
  }
  document.addEventListener("htmx:afterSwap", showRing);
  showRing();

  document.addEventListener("htmx:afterSettle", function (event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    var status = document.querySelector("#match-state .status-line");
    if ((verb === "post" || focusInState) && status
        && (document.activeElement === document.body || !document.activeElement)) {
      status.focus({preventScroll: true});
    }
  });
})();

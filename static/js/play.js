/* The play page. A move swaps the whole match state in: the button pressed is gone, and
   focus with it. So does a poll bringing a rival's move while focus is elsewhere in the
   state (a card, a square, the log's link). Put focus back on the status line, so a
   keyboard or screen reader user goes on from there. (The status line keeps its own
   focus across a swap: htmx restores focus by id.) */
(function () {
  "use strict";

  var focusInState = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var state = document.getElementById("match-state");
    focusInState = state !== null && state.contains(document.activeElement);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    var status = document.querySelector("#match-state .status-line");
    if ((verb === "post" || focusInState) && status
        && (document.activeElement === document.body || !document.activeElement)) {
      status.focus({preventScroll: true});
    }
  });
})();

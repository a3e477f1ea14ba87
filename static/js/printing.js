// The progress of a printable while a worker prepares it: asks the job's state every second and
// moves the bar; when done, shows the PDF's link. Without this script, the page reloads itself.
(function () {
  "use strict";
  var box = document.getElementById("print-job");
  if (!box) return;
  var bar = document.getElementById("print-progress");
  var status = document.getElementById("print-status");
  var count = document.getElementById("print-count");
  var pages = document.getElementById("print-pages");
  var ready = document.getElementById("print-ready");
  var error = document.getElementById("print-error");

  function show(state) {
    bar.value = state.percent;
    bar.textContent = state.percent + " %";
    status.textContent = state.status_display;
    count.textContent = state.done + " / " + state.total;
    if (state.status === "done") {
      ready.hidden = false;
      if (state.pages) pages.textContent = state.pages + " p.";
    }
    if (state.status === "failed") {
      error.hidden = false;
      error.querySelector("span").textContent = state.error;
    }
    return state.status === "queued" || state.status === "running";
  }

  function poll() {
    fetch(box.getAttribute("data-state-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (state === null || show(state)) window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  if (box.getAttribute("data-active") === "1") window.setTimeout(poll, 500);
})();

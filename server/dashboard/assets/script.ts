/**
 * The dashboard's only script, compiled into the binary: copy buttons and live job progress
 * (server-sent events). Every page works without it; it adds to what the server rendered.
 */
export const SCRIPT_JS = `
"use strict";
(function () {
  function announce(button, text) {
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    button.textContent = text;
    setTimeout(function () { button.textContent = label; }, 2000);
  }

  // Copy buttons: data-copy names the element whose text is copied.
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source) return;
      var text = source.textContent || "";
      var done = function () { announce(button, "Copied"); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { select(source); });
      } else {
        select(source);
      }
    });
  });

  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // Live progress: each [data-job-events] element follows its job's event stream.
  document.querySelectorAll("[data-job-events]").forEach(function (row) {
    if (!window.EventSource) return;
    var source = new EventSource(row.getAttribute("data-job-events"));
    var bar = row.querySelector("progress");
    var percent = row.querySelector("[data-percent]");
    var status = row.querySelector("[data-status]");
    var counts = row.querySelector("[data-counts]");
    var pages = document.getElementById(row.getAttribute("data-live-list") || "");
    function update(event) {
      var total = event.total || 0;
      var done = event.completed || 0;
      var value = event.type === "done" && event.status !== "cancelled" ? 100
        : total ? Math.floor((done / total) * 100) : 0;
      if (bar) { bar.value = value; bar.textContent = value + "%"; }
      if (percent) percent.textContent = value + "%";
      if (counts) counts.textContent = done + " of " + total;
      if (status && event.status) {
        status.textContent = event.status;
        status.className = "status-" + event.status;
      }
    }
    source.onmessage = function (message) {
      var event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      if (event.type === "page" && pages) {
        var item = document.createElement("li");
        item.textContent = (event.title ? event.title + " — " : "") + event.url;
        pages.appendChild(item);
        // Shown once there is something in it (without the script it stays hidden, empty).
        if (pages.parentElement) pages.parentElement.hidden = false;
        return;
      }
      update(event);
      if (event.type === "done") {
        source.close();
        row.setAttribute("data-finished", event.status);
      }
    };
    source.onerror = function () { source.close(); };
  });
})();
`;

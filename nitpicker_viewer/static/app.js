// The viewer's only script (CSP: script-src 'self'): theme toggle, copy buttons, bar widths.
(function () {
  "use strict";
  var root = document.documentElement;
  var stored = null;
  try { stored = localStorage.getItem("nitpicker-theme"); } catch (e) { stored = null; }
  if (stored === "dark" || stored === "light") { root.setAttribute("data-theme", stored); }
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme");
    if (button) {
      var dark = function () {
        var theme = root.getAttribute("data-theme");
        if (theme) { return theme === "dark"; }
        return window.matchMedia("(prefers-color-scheme: dark)").matches;
      };
      button.setAttribute("aria-pressed", String(dark()));
      button.addEventListener("click", function () {
        var next = dark() ? "light" : "dark";
        root.setAttribute("data-theme", next);
        button.setAttribute("aria-pressed", String(next === "dark"));
        try { localStorage.setItem("nitpicker-theme", next); } catch (e) { /* private mode */ }
      });
    }
    // Copy buttons: the clipboard when the browser lets us; else the text beside the
    // button is selected and the button says to press Ctrl+C (the text fallback).
    var say = function (b, words) {
      if (b.classList.contains("icon")) {
        b.setAttribute("aria-label", words);
        b.setAttribute("title", words);
      } else {
        b.textContent = words;
      }
    };
    document.querySelectorAll("button.copy").forEach(function (b) {
      b.addEventListener("click", function () {
        var text = b.getAttribute("data-copy") || "";
        var words = document.body.dataset;  // the viewer's text table (text.py)
        var done = function () { b.classList.add("done"); say(b, words.copied || "Copied"); };
        var select = function () {
          var target = b.previousElementSibling;
          if (target) {
            var range = document.createRange();
            range.selectNodeContents(target);
            var selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
          }
          say(b, words.pressCopy || "Selected: press Ctrl+C to copy");
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, select);
        } else {
          select();
        }
      });
    });
    // A filter left empty stays out of the URL: a shared link says only what was asked.
    document.querySelectorAll("form.filters").forEach(function (form) {
      form.addEventListener("submit", function () {
        form.querySelectorAll("input, select").forEach(function (field) {
          if (field.name && field.value === "") { field.disabled = true; }
        });
      });
    });
    // Back to a page whose fields were disabled on leaving it: enable them again.
    window.addEventListener("pageshow", function () {
      document.querySelectorAll("form.filters [disabled]").forEach(function (field) {
        field.disabled = false;
      });
    });
    // A view computed on first use (template clusters): its progress line, asked for
    // every second; the page reloads with the result when the work is done.
    var line = document.getElementById("progress");
    if (line && line.dataset.poll) {
      var poll = function () {
        fetch(line.dataset.poll, { headers: { "Accept": "application/json" } })
          .then(function (r) { return r.json(); })
          .then(function (state) {
            if (!state.running) { window.location.reload(); return; }
            if (state.message) {
              var share = state.total && state.done < state.total
                ? " (" + Math.floor(100 * state.done / state.total) + "%)" : "";
              line.textContent = state.message + share;
            }
            window.setTimeout(poll, 1000);
          })
          .catch(function () { window.setTimeout(poll, 3000); });
      };
      window.setTimeout(poll, 500);
    }
    var width = function (el) {
      return Math.max(0, Math.min(100, parseFloat(el.getAttribute("data-share")) || 0)) + "%";
    };
    document.querySelectorAll(".bar[data-share]").forEach(function (bar) {
      bar.firstElementChild.style.width = width(bar);
    });
    document.querySelectorAll(".seg[data-share]").forEach(function (seg) {
      seg.style.width = width(seg);
    });
  });
})();

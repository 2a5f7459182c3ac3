// Keyboard shortcuts of the reviewer UI. No build step: plain browser JavaScript.
(function () {
  "use strict";
  function typing(event) {
    var tag = (event.target && event.target.tagName) || "";
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-href]"));
  var selected = rows.length ? 0 : -1;
  function select(index) {
    if (!rows.length) return;
    selected = Math.max(0, Math.min(rows.length - 1, index));
    rows.forEach(function (row, i) { row.classList.toggle("selected", i === selected); });
    rows[selected].scrollIntoView({ block: "nearest" });
  }
  if (rows.length) select(0);
  function focus(id) {
    var element = document.getElementById(id);
    if (element) { element.focus(); return true; }
    return false;
  }
  function submit(id) {
    var form = document.getElementById(id);
    if (form) form.requestSubmit();
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    var key = event.key;
    if (key === "?") { document.getElementById("help").classList.toggle("shown"); }
    else if (key === "j") { select(selected + 1); }
    else if (key === "k") { select(selected - 1); }
    else if ((key === "Enter" || key === "o") && selected >= 0) { window.location = rows[selected].dataset.href; }
    else if (key === "/") { focus("filter-key"); }
    else if (key === "c") { submit("claim-form"); }
    else if (key === "u") { submit("release-form"); }
    else if (key === "r") { focus("resolve-rationale"); }
    else if (key === "d") { focus("dismiss-reason"); }
    else if (key === "a") { focus("ambiguous-rationale"); }
    else if (key === "f") { focus("defer-until"); }
    else if (key === "q") { window.location = document.body.dataset.queue; }
    else if (/^[1-9]$/.test(key)) {
      var box = document.getElementById("winner-" + key);
      if (box) box.checked = !box.checked;
    } else { return; }
    event.preventDefault();
  });
})();

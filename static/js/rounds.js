// Rounds and draws, small progressive enhancements (every page works without JavaScript):
// - the surname list filters as you type (accents and case ignored), and keeps the filter when
//   live.js refreshes the page;
// - copy buttons for the draw's command input and command;
// - (the projector's scrolling through the tables and the surname list: static/js/projector.js);
// - the wall sheets get a print button;
// - the tournament form shows only the chosen format's parameters.
(function () {
  "use strict";
  const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();

  // --- surname filter ---
  let filterValue = "";
  function applyFilter(input) {
    const list = document.querySelector(input.dataset.filter);
    if (!list) return;
    const words = fold(input.value).split(/\s+/).filter(Boolean);
    let lastLetter = null;
    let letterVisible = false;
    for (const item of list.children) {
      if (item.classList.contains("letter")) {
        if (lastLetter) lastLetter.classList.toggle("hidden-by-filter", !letterVisible);
        lastLetter = item;
        letterVisible = false;
        continue;
      }
      const label = item.querySelector(".name");
      const name = fold((label || item).textContent);
      const show = words.every((w) => name.includes(w));
      item.classList.toggle("hidden-by-filter", !show);
      letterVisible = letterVisible || show;
    }
    if (lastLetter) lastLetter.classList.toggle("hidden-by-filter", !letterVisible);
  }
  function setUpFilters(root) {
    for (const input of root.querySelectorAll("input[data-filter]")) {
      input.hidden = false;
      input.value = filterValue;
      input.addEventListener("input", () => {
        filterValue = input.value;
        applyFilter(input);
      });
      if (filterValue) applyFilter(input);
    }
  }

  // --- copy buttons ---
  function setUpCopy(root) {
    for (const button of root.querySelectorAll("button[data-copy]")) {
      if (!navigator.clipboard) continue;
      button.hidden = false;
      button.addEventListener("click", async () => {
        const source = document.querySelector(button.dataset.copy);
        if (!source) return;
        try {
          await navigator.clipboard.writeText(source.textContent);
          button.classList.add("copied");
          setTimeout(() => button.classList.remove("copied"), 1500);
        } catch (e) {
          const range = document.createRange();
          range.selectNodeContents(source);
          const selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
        }
      });
    }
  }

  // --- print button (wall sheets) ---
  function setUpPrint(root) {
    for (const button of root.querySelectorAll("button[data-print]")) {
      button.hidden = false;
      button.addEventListener("click", () => window.print());
    }
  }

  // --- tournament form: the chosen format's parameters ---
  function setUpFormatSwitch() {
    const box = document.querySelector("[data-format-switch]");
    if (!box) return;
    const select = box.querySelector("select[name=format]");
    if (!select) return;
    box.classList.add("js-formats");
    function update() {
      for (const el of box.querySelectorAll("[data-formats]")) {
        const wanted = el.dataset.formats.split(/\s+/);
        // Never hide a field that has an error to show.
        el.hidden = !wanted.includes(select.value) && !el.querySelector(".has-error");
      }
    }
    select.addEventListener("change", update);
    update();
  }

  function enhance(root) {
    setUpFilters(root);
    setUpCopy(root);
  }
  enhance(document);
  setUpPrint(document);
  setUpFormatSwitch();
  const main = document.querySelector("main[data-live]");
  if (main) main.addEventListener("live:updated", () => enhance(main));
})();

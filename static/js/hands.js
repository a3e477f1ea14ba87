// Recorded hands on a phone: quick buttons that write each lance's pair-level bets in the
// engine's format ("A:envido 2, B:quiero"), and the names of pairs A and B (A is the pair that
// is mano in this hand) next to the mano choice. Without JavaScript the fields are typed by hand.
(function () {
  const form = document.querySelector("form.hand-form");
  if (!form) return;
  const names = { a: form.dataset.pairA, b: form.dataset.pairB };

  function showFrame() {
    const checked = form.querySelector("input[name=mano]:checked");
    const mano = checked ? checked.value : null;
    form.querySelectorAll("[data-frame]").forEach(function (el) {
      if (!mano) { el.textContent = "—"; return; }
      const isA = el.dataset.frame === "A";
      el.textContent = (mano === "a") === isA ? names.a : names.b;
    });
  }
  // Changing the mano pair flips the frame: the prefilled score before the hand flips with it.
  const scoreA = form.querySelector("input[name=score_a]");
  const scoreB = form.querySelector("input[name=score_b]");
  form.querySelectorAll("input[name=mano]").forEach(function (el) {
    el.addEventListener("change", function () {
      if (scoreA && scoreB) { const a = scoreA.value; scoreA.value = scoreB.value; scoreB.value = a; }
      showFrame();
    });
  });
  showFrame();

  // Button labels come translated from the template (data-label-*); the bets stay in the engine's words.
  const label = function (key, fallback) { return form.dataset[key] || fallback; };
  const ACTIONS = [
    [label("labelPaso", "paso"), "paso"], [label("labelEnvido", "envido"), "envido"],
    [label("labelEnvidoN", "envido N"), null], [label("labelOrdago", "órdago"), "ordago"],
    [label("labelQuiero", "quiero"), "quiero"], [label("labelNoQuiero", "no quiero"), "no quiero"],
  ];

  function bets(input) {
    return input.value.split(/[,;\n]+/).map(function (b) { return b.trim(); }).filter(Boolean);
  }

  function add(input, text) {
    const list = bets(input);
    list.push(text);
    input.value = list.join(", ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  form.querySelectorAll(".lance").forEach(function (lance) {
    const input = lance.querySelector("input.bets");
    const quick = lance.querySelector(".quick");
    if (!input || !quick) return;
    ["A", "B"].forEach(function (pair) {
      const row = document.createElement("div");
      row.className = "row";
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = pair;
      row.appendChild(who);
      const amount = document.createElement("input");
      amount.type = "number";
      amount.min = "2";
      amount.value = "5";
      amount.className = "n";
      amount.inputMode = "numeric";
      amount.setAttribute("aria-label", "N");
      ACTIONS.forEach(function (action) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = action[0];
        button.dataset.bet = pair + ":" + (action[1] || "envido N");
        button.addEventListener("click", function () {
          const text = action[1] ? pair + ":" + action[1] : pair + ":envido " + Math.max(2, parseInt(amount.value, 10) || 2);
          add(input, text);
        });
        row.appendChild(button);
        if (action[1] === null) row.insertBefore(amount, button);
      });
      quick.appendChild(row);
    });
    const undo = document.createElement("button");
    undo.type = "button";
    undo.className = "undo";
    undo.textContent = "⌫";
    undo.setAttribute("aria-label", label("labelUndo", "⌫"));
    undo.addEventListener("click", function () {
      const list = bets(input);
      list.pop();
      input.value = list.join(", ");
    });
    quick.lastChild.appendChild(undo);
    // One lance's buttons at a time keeps the form short on a phone: a toggle opens each.
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "quick-toggle";
    toggle.textContent = label("labelButtons", "envites");
    toggle.setAttribute("aria-expanded", "false");
    toggle.addEventListener("click", function () { open(lance); });
    lance.insertBefore(toggle, quick);
  });

  function open(which) {
    form.querySelectorAll(".lance").forEach(function (lance) {
      const quick = lance.querySelector(".quick");
      const toggle = lance.querySelector(".quick-toggle");
      if (!quick || !toggle) return;
      const shown = lance === which;
      quick.hidden = !shown;
      toggle.setAttribute("aria-expanded", String(shown));
    });
  }
  open(form.querySelector(".lance"));
})();

/* The juez's forms name the pairs and players of the table typed (issue 30, AMM 5.3.a, 5.8): the
 * pair choices read «12 · García / López» instead of «Pareja A», and the player choices of the
 * suplente form read each player's name, so nobody sanctions or replaces at the wrong table. The
 * page works without this script: the choices stay A/B and first/second. Data: the JSON the server
 * writes in #rf-tables (referees/views/common.py::table_names). */
(function () {
  "use strict";
  var data = document.getElementById("rf-tables");
  var table = document.getElementById("id_table");
  if (!data || !table) return;
  var tables = JSON.parse(data.textContent);
  var form = table.form;
  var hint = document.getElementById("rf-table-hint");

  function label(input) {
    var span = form.querySelector("label[for='" + input.id + "'] span");
    if (span && !span.dataset.plain) span.dataset.plain = span.textContent;
    return span;
  }

  function update() {
    var entry = tables[String(table.value).trim()];
    if (hint) hint.textContent = table.value && !entry ? hint.dataset.none || "" : "";
    form.querySelectorAll("input[name='pair']").forEach(function (input) {
      var span = label(input);
      if (span) span.textContent = entry && entry[input.value] ? entry[input.value].pair : span.dataset.plain;
    });
    var chosen = form.querySelector("input[name='pair']:checked");
    var players = entry && chosen && entry[chosen.value] ? entry[chosen.value].players : null;
    form.querySelectorAll("input[name='position']").forEach(function (input) {
      var span = label(input);
      if (!span) return;
      var name = players ? players[Number(input.value) - 1] : null;
      span.textContent = name || span.dataset.plain;
      input.closest("label").style.display = players && !name ? "none" : "";
    });
  }

  table.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();

// Check-in without reloading the list (the mesa de control ticks dozens of pairs in a row).
// Through the API: POST /api/v1/tournaments/<slug>/pairs/<n>/check-in/ marks the pair present,
// DELETE undoes it (the form's data-api); the answer is the pair, with checked_in_at.
// Without JavaScript (or with no network answer) the forms still work with a normal POST and redirect.
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (form.dataset.js !== "checkin" || !form.dataset.api) return;
  event.preventDefault();
  const button = form.querySelector("button");
  const present = form.querySelector("input[name=present]");
  button.disabled = true;
  let response;
  try {
    response = await fetch(form.dataset.api, {
      method: present.value === "1" ? "POST" : "DELETE",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": form.querySelector("input[name=csrfmiddlewaretoken]").value,
      },
    });
  } catch (e) {
    button.disabled = false;
    form.submit(); // no network answer: the plain form still works
    return;
  }
  button.disabled = false;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) { alert(data.detail || response.statusText); return; }
  showCount(response.headers.get("X-Parejas-Presentes"));
  if (data.checked_in_at) {
    // The server's local time, as the page shows it: "2025-03-08T10:15:30+01:00" → 10:15.
    const time = (/T(\d\d:\d\d)/.exec(data.checked_in_at) || [])[1] || "";
    present.value = "0"; button.textContent = "✔ " + time; button.classList.add("ok");
  } else {
    present.value = "1"; button.textContent = form.dataset.label || "Presente"; button.classList.remove("ok");
  }
});

// «37 presentes» beside the list, as the server counts them after each tap (every desk's taps).
// The page gives the sentence for one and for many, in its language, with the number in it.
function showCount(value) {
  const counter = document.getElementById("checked-in-count");
  const n = Number.parseInt(value, 10);
  if (!counter || Number.isNaN(n)) return;
  const one = counter.dataset.one || "";
  const many = counter.dataset.many || "";
  counter.textContent = n === 1 ? one : many.replace(/\d+/, String(n));
}

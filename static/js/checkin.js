// Check-in without reloading the list (the mesa de control ticks dozens of pairs in a row).
// Without JavaScript the forms still work with a normal POST and redirect.
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (form.dataset.js !== "checkin") return;
  event.preventDefault();
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    const response = await fetch(form.action, {
      method: "POST", body: new FormData(form), headers: { Accept: "application/json" }, credentials: "same-origin",
    });
    const data = await response.json();
    if (!response.ok) { alert(data.error); return; }
    const present = form.querySelector("input[name=present]");
    if (data.checked_in_at) {
      present.value = "0"; button.textContent = "✔ " + data.checked_in_at; button.classList.add("ok");
    } else {
      present.value = "1"; button.textContent = form.dataset.label || "Presente"; button.classList.remove("ok");
    }
  } catch (e) {
    form.submit();
  } finally {
    button.disabled = false;
  }
});

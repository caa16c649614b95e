// The start page: the "any game spec" form opens /play/<spec>.
const form = document.getElementById("spec-form");
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const spec = form.elements.spec.value.trim();
  if (spec) window.location.href = `/play/${encodeURI(spec)}`;
});

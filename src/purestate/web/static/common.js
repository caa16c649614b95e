// Shared helpers of the pages: the JSON API and the page's data block.

/** Call the JSON API; throw an Error carrying the server's one-line message on refusal.
 *
 * The server takes a change only as a JSON body from its own pages (it checks the Origin the
 * browser sends), and knows this browser by its cookie, sent with same-origin requests only. */
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body === undefined && method !== "GET") body = {};
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

/** The JSON the server put in the page (the game spec, the run and game index, ...). */
export function pageData() {
  const block = document.getElementById("page-data");
  return block ? JSON.parse(block.textContent) : {};
}

/** Let the SVG board just put into `box` scale with the window: as wide as the page allows and
 * at most as high as the viewport (style.css reads the board's aspect ratio from --aspect). */
export function fitBoard(box) {
  const svg = box.querySelector("svg");
  if (!svg || !svg.viewBox.baseVal) return;
  const { width, height } = svg.viewBox.baseVal;
  if (!width || !height) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  box.style.setProperty("--aspect", String(width / height));
  box.classList.add("fitted");
}

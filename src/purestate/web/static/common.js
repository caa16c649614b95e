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

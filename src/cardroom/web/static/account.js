// The account page: sign up, sign in, sign out. The session is an HttpOnly cookie the page
// never reads; the CSRF token (a readable cookie) goes with every change (common.js api()).
import { api, account } from "/static/common.js";

const $ = (id) => document.getElementById(id);

async function show() {
  const me = await account();
  $("signed-in").hidden = !me.signed_in;
  $("signed-out").hidden = me.signed_in;
  $("me-link").textContent = me.signed_in ? me.name : "";
  $("me-link").href = me.signed_in ? `/player/${encodeURIComponent(me.name)}` : "/";
}

function wire(formId, path, errorTestId) {
  const form = $(formId);
  const problem = form.querySelector(`[data-testid="${errorTestId}"]`);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const data = new FormData(form);
    try {
      await api(path, { json: { name: String(data.get("name") || "").trim(), password: String(data.get("password") || "") } });
      form.reset();
      await show();
    } catch (e) {
      problem.textContent = e.message;
    }
  });
}

wire("signin-form", "/api/account/signin", "signin-error");
wire("signup-form", "/api/account/signup", "signup-error");
$("sign-out").addEventListener("click", async () => {
  await api("/api/account/signout", { method: "POST" });
  await show();
});
await show();

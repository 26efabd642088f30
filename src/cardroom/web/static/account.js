// The account page: sign up, sign in, sign out; change the password, sign out every other
// browser, delete the account. The session is an HttpOnly cookie the page never reads; the CSRF
// token (a readable cookie) goes with every change (common.js api()).
import { api, account } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const note = $("account-note");

async function show() {
  const me = await account();
  $("signed-in").hidden = !me.signed_in;
  $("signed-out").hidden = me.signed_in;
  $("me-link").textContent = me.signed_in ? me.name : "";
  $("me-link").href = me.signed_in ? `/player/${encodeURIComponent(me.name)}` : "/";
  const others = me.signed_in ? me.sessions - 1 : 0;
  $("sessions").textContent = others > 0
    ? `Also signed in on ${others} other browser${others === 1 ? "" : "s"}.`
    : "Signed in on this browser only.";
  $("sign-out-others").hidden = others <= 0;
}

/** Submit ``formId`` as JSON to ``path``; ``done(answer)`` says what became of it. */
function wire(formId, path, errorTestId, body, done) {
  const form = $(formId);
  const problem = form.querySelector(`[data-testid="${errorTestId}"]`);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    note.textContent = "";
    const data = new FormData(form);
    let answer;
    try {
      answer = await api(path, { json: body(data) });
    } catch (e) {
      problem.textContent = e.message;
      return;
    }
    form.reset();
    note.textContent = done ? done(answer) : "";
    await show();
  });
}

const text = (data, key) => String(data.get(key) || "");
const signing = (data) => ({ name: text(data, "name").trim(), password: text(data, "password") });
const others = (n) => (n === 1 ? "1 other browser was" : `${n} other browsers were`);

wire("signin-form", "/api/account/signin", "signin-error", signing);
wire("signup-form", "/api/account/signup", "signup-error", signing);
wire("password-form", "/api/account/password", "password-error",
  (data) => ({ password: text(data, "password"), new_password: text(data, "new_password") }),
  (answer) => `Password changed. ${others(answer.signed_out)} signed out.`);
$("delete-form").addEventListener("submit", (event) => {
  const problem = $("delete-form").querySelector('[data-testid="delete-error"]');
  if (!$("delete-form").elements.sure.checked) {
    event.preventDefault();
    event.stopImmediatePropagation();
    problem.textContent = "tick \"I want to delete this account\" to delete it";
  }
});
wire("delete-form", "/api/account/delete", "delete-error",
  (data) => ({ password: text(data, "password") }),
  (answer) => `The account ${answer.name} is deleted. Its finished games stay, its seat named "Former player".`);
$("sign-out").addEventListener("click", async () => {
  note.textContent = "";
  await api("/api/account/signout", { method: "POST" });
  await show();
});
$("sign-out-others").addEventListener("click", async () => {
  try {
    const answer = await api("/api/account/signout-others", { method: "POST" });
    note.textContent = `${others(answer.signed_out)} signed out.`;
  } catch (e) {
    note.textContent = e.message;
  }
  await show();
});
await show();

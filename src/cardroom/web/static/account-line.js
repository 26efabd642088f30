// The lobby's account line: who this browser plays as, with the way to sign in, to the
// player's own page, and to the leaderboard.
import { account, h } from "/static/common.js";

const line = document.getElementById("account-line");
const me = await account();
if (line && me.signed_in) {
  line.replaceChildren(
    "Signed in as ", h("a", { href: `/player/${encodeURIComponent(me.name)}`, "data-testid": "me-link", text: me.name }),
    " (tables you create or join seat you by this name). ",
    h("a", { href: "/account", text: "Account" }), " · ", h("a", { href: "/leaderboard", text: "Leaderboard" }),
  );
  const input = document.getElementById("name-input");
  if (input) {
    input.value = me.name;
    input.readOnly = true;
  }
}

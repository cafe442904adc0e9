// A rated pool's leaderboard (`variant/speed/rated`), a page at a time.
import { ratings, variants } from "./client.js";
import { h, replace } from "./dom.js";
import { leaderboardLink } from "./route.js";

const SPEEDS = ["untimed", "bullet", "blitz", "rapid", "classical"];
const PAGE_SIZE = 50;

export async function showLeaderboard(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const ids = (await variants.listVariants({})).variants.map((v) => v.id);
  const variant = params.get("variant") || ids[0] || "";
  const speed = params.get("speed") || "untimed";
  const page = params.get("page") ?? "";
  const pool = `${variant}/${speed}/rated`;
  const board = await ratings.getLeaderboard({ pool, pageSize: PAGE_SIZE, pageToken: page });

  const variantSelect = h("select", { name: "variant", "aria-label": "game" },
    ...ids.map((id) => h("option", { value: id, selected: id === variant }, id)));
  const speedSelect = h("select", { name: "speed", "aria-label": "speed" },
    ...SPEEDS.map((name) => h("option", { value: name, selected: name === speed }, name)));
  const go = () => { location.hash = leaderboardLink({ variant: variantSelect.value, speed: speedSelect.value }); };
  variantSelect.addEventListener("change", go);
  speedSelect.addEventListener("change", go);

  replace(
    root,
    h("h1", {}, "Leaderboard ", h("code", {}, pool)),
    h("form", { class: "filters" }, variantSelect, speedSelect),
    h("p", { class: "meta" }, `${board.totalSize} bots with a settled rating (provisional ones are left off)`),
    board.entries.length === 0
      ? h("p", { class: "empty" }, "Nobody on this leaderboard yet.")
      : h("div", { class: "scroll" }, h("table", { class: "matches leaderboard" },
          h("thead", {}, h("tr", {}, ...["#", "bot", "rating", "RD", "games"].map((t) => h("th", {}, t)))),
          h("tbody", {}, ...board.entries.map((e) => h("tr", { "data-bot-id": e.botId },
            h("td", {}, String(e.rank)),
            h("td", {}, e.botName || e.botId),
            h("td", {}, (e.rating?.rating ?? 0).toFixed(0)),
            h("td", {}, (e.rating?.deviation ?? 0).toFixed(0)),
            h("td", {}, String(e.rating?.games ?? 0))))))),
    h("nav", { class: "paging" },
      page ? h("a", { href: leaderboardLink({ variant, speed }) }, "← top") : null,
      board.nextPageToken ? h("a", { href: leaderboardLink({ variant, speed, page: board.nextPageToken }) }, "more →") : null),
  );
}

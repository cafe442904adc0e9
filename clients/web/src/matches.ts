// The matches list: live and finished matches, filtered by status and game, a page at a time.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { MatchStatus } from "./gen/pitchmate/v1/match_service_pb.js";
import type { Match } from "./gen/pitchmate/v1/match_service_pb.js";
import { matches, variants } from "./client.js";
import { h, replace } from "./dom.js";
import { describeResult } from "./describe.js";
import { statusName } from "./panel.js";
import { matchLink, matchesLink, replayLink } from "./route.js";

const PAGE_SIZE = 20;

const STATUSES: [string, MatchStatus][] = [
  ["all", MatchStatus.UNSPECIFIED],
  ["active", MatchStatus.ACTIVE],
  ["waiting", MatchStatus.WAITING],
  ["finished", MatchStatus.FINISHED],
  ["aborted", MatchStatus.ABORTED],
];

let variantIds: string[] | undefined;

function row(match: Match): HTMLElement {
  const over = match.status === MatchStatus.FINISHED || match.status === MatchStatus.ABORTED;
  const players = match.seats.map((s) => s.playerName || (s.occupied ? "?" : "open")).join(" vs ");
  const created = match.createTime ? timestampDate(match.createTime).toLocaleString() : "";
  return h(
    "tr",
    { "data-match-id": match.matchId, "data-variant": match.variantId, "data-status": statusName(match.status) },
    h("td", {}, h("a", { href: matchLink(match.matchId) }, match.matchId.slice(0, 8))),
    h("td", {}, match.variantId),
    h("td", {}, players),
    h("td", {}, statusName(match.status)),
    h("td", {}, over ? describeResult(match.result) : `event ${match.lastSeq}`),
    h("td", {}, over ? h("a", { href: replayLink(match.matchId, 0) }, "replay") : h("a", { href: matchLink(match.matchId) }, "watch")),
    h("td", { class: "created" }, created),
  );
}

/** Shows the list the route's parameters ask for in `root`. */
export async function showMatches(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const status = params.get("status") ?? "all";
  const variant = params.get("variant") ?? "";
  const page = params.get("page") ?? "";
  // The tokens of the pages before this one, so "previous" can go back.
  const before = (params.get("before") ?? "").split(",").filter((t) => t);
  variantIds ??= (await variants.listVariants({})).variants.map((v) => v.id);

  const statusValue = STATUSES.find(([name]) => name === status)?.[1] ?? MatchStatus.UNSPECIFIED;
  const listed = await matches.listMatches({
    pageSize: PAGE_SIZE,
    pageToken: page,
    status: statusValue,
    variantId: variant,
  });

  const go = (changes: Record<string, string>) => {
    location.hash = matchesLink({ status, variant, ...changes });
  };
  const statusSelect = h("select", { name: "status", "aria-label": "status" },
    ...STATUSES.map(([name]) => h("option", { value: name, selected: name === status }, name)));
  statusSelect.addEventListener("change", () => go({ status: statusSelect.value, page: "", before: "" }));
  const variantSelect = h("select", { name: "variant", "aria-label": "game" },
    h("option", { value: "" }, "every game"),
    ...variantIds.map((id) => h("option", { value: id, selected: id === variant }, id)));
  variantSelect.addEventListener("change", () => go({ variant: variantSelect.value, page: "", before: "" }));

  const refresh = h("button", { type: "button", class: "refresh" }, "refresh");
  refresh.addEventListener("click", () => void showMatches(root, params));

  const previous = before.length > 0 || page
    ? h("a", { href: matchesLink({ status, variant, page: before.at(-1) ?? "", before: before.slice(0, -1).join(",") }), class: "previous" }, "← newer")
    : null;
  const next = listed.nextPageToken
    ? h("a", { href: matchesLink({ status, variant, page: listed.nextPageToken, before: [...before, page].join(",") }), class: "next" }, "older →")
    : null;

  replace(
    root,
    h("h1", {}, "Matches"),
    h("form", { class: "filters" }, statusSelect, variantSelect, refresh),
    listed.matches.length === 0
      ? h("p", { class: "empty" }, "No matches.")
      : h("div", { class: "scroll" }, h("table", { class: "matches" },
          h("thead", {}, h("tr", {}, ...["match", "game", "players", "status", "result", "", "created"].map((t) => h("th", {}, t)))),
          h("tbody", {}, ...listed.matches.map(row)))),
    h("nav", { class: "paging" }, previous, next),
  );
}

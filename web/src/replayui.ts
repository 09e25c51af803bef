/**
 * The replay viewer's parts of the page (replay.ts has its logic): the lobby's form to open a
 * replay by room id or link, the Replay buttons of a listed room's finished games, and the
 * controls shown beside the board while a replay is (the board and the log are the game's).
 */
import type { App } from "./app";
import { h, kept as keptAsIs } from "./dom";
import type { RoomInfo } from "./gen/protocol/v1/messages_pb";
import {
  EVERY_CARD, EVERY_HAND, SPEEDS, finishedGames, parseReplayInput, replayGames, replayLink, splitGameId,
  type ReplayTarget,
} from "./replay";

function field<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** The lobby's "Replay a finished game" form (built once). `acting` is called as it is used
 * (its error is shown in `errorSlot`). */
export function replayForm(app: App, acting: () => void, errorSlot: HTMLElement): HTMLElement {
  return h("form", { class: "panel", "aria-labelledby": "replay-h", "data-testid": "replay-form",
    onsubmit: (ev: Event) => {
      ev.preventDefault();
      const target = parseReplayInput(field<HTMLInputElement>("replay-room-id")?.value ?? "");
      if (target === null) {
        field<HTMLInputElement>("replay-room-id")?.focus();
        return;
      }
      const code = field<HTMLInputElement>("replay-invite")?.value.trim() ?? "";
      if (code) target.code = code;
      const view = field<HTMLSelectElement>("replay-view")?.value ?? "public";
      if (view === "all") target.seat = EVERY_CARD;
      else if (view === "hands") target.seat = EVERY_HAND;
      else if (/^\d+$/.test(view)) target.seat = Number(view);
      acting();
      app.openReplay(target);
    } },
    h("h2", { id: "replay-h" }, "Replay a finished game"),
    h("p", { class: "hint" }, "A room id, or a link (", h("code", null, "#replay="), ", ",
      h("code", null, "#watch="), "…). Game 2 of a match is ", h("code", null, "ROOM_ID.2"), "."),
    h("label", { for: "replay-room-id" }, "Room id or link"),
    h("input", { id: "replay-room-id", autocomplete: "off", required: true }),
    h("label", { for: "replay-invite" }, "Invite or watch code (rooms watched by invitation)"),
    h("input", { id: "replay-invite", autocomplete: "off" }),
    h("label", { for: "replay-view" }, "As"),
    h("select", { id: "replay-view" },
      h("option", { value: "public" }, "The spectators' view (public information)"),
      [0, 1, 2, 3, 4, 5, 6, 7].map((s) => h("option", { value: s },
        `Seat ${s + 1}'s view (its player only)`)),
      h("option", { value: "hands" }, "Every hand (players, every-hand tier)"),
      h("option", { value: "all" }, "Every card (the game's players only)")),
    h("button", { type: "submit", "data-testid": "open-replay" }, "Open replay"),
    errorSlot);
}

/** The view selects' value for a target's seat ("public", "hands", "all" or the seat). */
function viewValue(seat: number | undefined): string {
  return seat === EVERY_CARD ? "all" : seat === EVERY_HAND ? "hands" : seat === undefined ? "public"
    : String(seat);
}

/** Fill the form in with a `#replay=` link's target. */
export function prefillReplay(target: ReplayTarget): void {
  const id = field<HTMLInputElement>("replay-room-id");
  if (id) id.value = target.roomId;
  const code = field<HTMLInputElement>("replay-invite");
  if (code) code.value = target.code;
  const view = field<HTMLSelectElement>("replay-view");
  if (view) view.value = viewValue(target.seat);
}

/** A listed room's Replay buttons: its finished game, or each finished game of its match. */
export function replayButtons(app: App, r: RoomInfo, acting: () => void): HTMLElement[] {
  const games = finishedGames(r);
  return games.map((id, i) => h("button", { type: "button", "data-testid": "replay-room",
    "data-game-id": id, "data-key": `replay-${id}`,
    onclick: () => { acting(); app.openReplay({ roomId: id, code: "" }); } },
  games.length > 1 || r.bestOf > 1 ? `Replay game ${i + 1}` : "Replay"));
}

/** The controls one types in or opens (built once: a re-render while the replay plays
 * mustn't take the typing, or an open list, away). */
let kept: { app: App; turn: HTMLInputElement; speed: HTMLSelectElement; as: HTMLSelectElement;
  asFor: string } | null = null;

function keptControls(app: App) {
  if (kept === null || kept.app !== app) {
    // (Kept as they are by the board's patching: dom.ts kept.)
    const speed = keptAsIs(h("select", { id: "replay-speed", "data-testid": "replay-speed",
      onchange: () => app.replay?.setSpeed(Number(speed.value)) },
    SPEEDS.map((s) => h("option", { value: s }, `${s} action${s === 1 ? "" : "s"}/s`))));
    const as = keptAsIs(h("select", { id: "replay-as", "data-testid": "replay-as", onchange: () => {
      const r = app.replay;
      if (r === null) return;
      const v = as.value;
      app.openReplay({ ...r.target, action: r.action, turn: undefined,
        seat: v === "all" ? EVERY_CARD : v === "hands" ? EVERY_HAND : v === "public" ? undefined : Number(v) });
    } }));
    kept = { app, speed, as, asFor: "",
      turn: keptAsIs(h("input", { id: "replay-turn", type: "number", min: 0, value: 0,
        "aria-label": "turn to go to", "data-testid": "replay-turn" })) };
  }
  return kept;
}

/** The replay's controls (beside the board, above the log). */
export function replayPanel(app: App): HTMLElement | null {
  const r = app.replay;
  if (r === null) return null;
  const busy = !r.ready;
  const button = (testid: string, label: string, title: string, act: () => void, disabled = false) =>
    h("button", { type: "button", "data-testid": testid, "data-key": testid, title,
      "aria-label": title, disabled: busy || disabled, onclick: act }, label);
  // Play and Pause act on the press: the panel is drawn anew at every step played, and a
  // click whose press and release fell on two drawings of the button was lost -- Pause
  // seemed not to work, the more so on a slow machine. A click with no press (the
  // keyboard's Enter or Space: detail 0) still acts.
  const pressed = (testid: string, label: string, title: string, act: () => void) =>
    h("button", { type: "button", "data-testid": testid, "data-key": testid, title,
      "aria-label": title, disabled: busy,
      onpointerdown: (ev: Event) => { if ((ev as PointerEvent).button === 0) act(); },
      onclick: (ev: Event) => { if ((ev as MouseEvent).detail === 0) act(); } }, label);
  const c = keptControls(app);
  const turnInput = c.turn;
  turnInput.max = String(r.turns);
  if (document.activeElement !== turnInput) turnInput.value = String(r.turn);
  turnInput.disabled = busy;
  c.speed.disabled = busy;
  if (document.activeElement !== c.speed) c.speed.value = String(r.speed);
  const { room, game } = splitGameId(r.target.roomId);
  const listed = app.rooms.find((x) => x.roomId === room);
  const games = replayGames(r.target, listed);
  const bestOf = listed?.bestOf ?? r.target.bestOf ?? 0;

  const view = viewValue(r.viewer === -1 ? undefined : r.viewer);
  const players = [...app.mirror.players.values()].sort((a, b) => a.seat - b.seat);
  // The views to choose from: the players' names are known once the game is shown.
  const asFor = `${r.target.roomId}|${view}|${players.map((p) => p.name).join(",")}`;
  if (c.asFor !== asFor) {
    c.asFor = asFor;
    c.as.replaceChildren(
      h("option", { value: "public" }, "the spectators (public)"),
      ...players.map((p) => h("option", { value: p.seat }, `${p.name}'s seat (theirs only)`)),
      h("option", { value: "hands" }, "every hand (players, every-hand tier)"),
      h("option", { value: "all" }, "every card (players only)"));
  }
  c.as.value = view;
  c.as.disabled = busy;
  const here: ReplayTarget = { ...r.target, action: r.action, turn: undefined };
  const link = replayLink(`${location.origin}${location.pathname}`, here);
  return h("section", { class: "panel replay", "data-testid": "replay", "aria-labelledby": "replay-panel-h" },
    h("h2", { id: "replay-panel-h" }, `Replay of ${app.room?.info.name || room}`,
      // Every game of a match says which, of how many when known (game 1 said nothing).
      bestOf > 1 ? `, game ${game} of ${bestOf}` : game > 1 || games.length > 1 ? `, game ${game}` : ""),
    h("p", { class: "replay-position", "data-testid": "replay-position", "aria-live": "polite",
      "data-action": r.action, "data-actions": r.actions, "data-turn": r.turn,
      "data-playing": r.playing ? "1" : "0", "data-loading": r.ready ? "0" : "1" }, r.position),
    h("input", { type: "range", min: 0, max: r.actions, value: r.action, disabled: busy,
      class: "replay-scrub", "aria-label": "action", "data-testid": "replay-scrub",
      onchange: (ev: Event) => r.seek(Number((ev.target as HTMLInputElement).value)) }),
    h("div", { class: "replay-buttons" },
      button("replay-start", "|◀", "To the start (Home)", () => r.seek(0), r.atStart),
      button("replay-back", "◀", "Back one action (←)", () => r.step(-1), r.atStart),
      r.playing ? pressed("replay-pause", "❚❚ Pause", "Pause", () => r.pause())
        : pressed("replay-play", "Play", "Play from here", () => r.play()),
      button("replay-forward", "▶", "Forward one action (→)", () => r.step(1), r.atEnd),
      button("replay-end", "▶|", "To the end (End)", () => r.seek(r.actions), r.atEnd)),
    h("form", { class: "replay-row", onsubmit: (ev: Event) => {
      ev.preventDefault();
      r.seekTurn(Number(turnInput.value));
    } },
    h("label", { for: "replay-speed" }, "Speed"), c.speed,
    h("label", { for: "replay-turn" }, "Turn"), turnInput,
    h("button", { type: "submit", "data-testid": "replay-go-turn", disabled: busy }, "Go")),
    h("div", { class: "replay-row" }, h("label", { for: "replay-as" }, "As"), c.as),
    games.length === 0 ? null : h("div", { class: "replay-games", "data-testid": "replay-games" }, "Games:",
      games.map((g) => h("button", { type: "button", "data-testid": "replay-game", "data-game-id": g.id,
        "data-key": `replay-game-${g.id}`, disabled: busy || g.id === r.target.roomId,
        "aria-current": g.id === r.target.roomId ? "true" : undefined,
        onclick: () => app.openReplay({ roomId: g.id, code: r.target.code }) }, g.label))),
    r.error ? h("p", { class: "error", role: "alert", "data-testid": "replay-error" }, r.error) : null,
    h("div", { class: "replay-row" },
      h("input", { readonly: true, value: link, "data-testid": "replay-link",
        "aria-label": "link to this point of the replay", title: "link to this point of the replay",
        onfocus: (ev: Event) => (ev.target as HTMLInputElement).select() }),
      h("button", { type: "button", "data-testid": "leave-replay", "data-key": "leave-replay",
        onclick: () => app.closeReplay() }, "Close")));
}

/** The replay's keys: ← and → step one action, Home and End go to the start and the end;
 * whether the key was one. */
export function replayKey(app: App, ev: KeyboardEvent): boolean {
  const r = app.replay;
  if (r === null || !r.ready) return false;
  switch (ev.key) {
    case "ArrowRight": if (!r.atEnd) r.step(1); break;
    case "ArrowLeft": if (!r.atStart) r.step(-1); break;
    case "Home": r.seek(0); break;
    case "End": r.seek(r.actions); break;
    default: return false;
  }
  ev.preventDefault();
  return true;
}

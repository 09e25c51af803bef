/**
 * The page: a top bar, the lobby (sign-in, deck, rooms) and the board of the joined game.
 * Forms are built once (typing is never interrupted); what changes is rendered again from
 * the App's state, once a frame after a change, and the board patched into the page
 * (dom.ts `patchChildren`). Hooks for the browser tests are `data-testid`
 * attributes, listed in web/README.md.
 */
import { type App, type RoomSettingsInput } from "./app";
import { h, kept, patchChildren, replaceChildren, slot, takesKeys, type Child } from "./dom";
import { DEMO_DECKS, readDeckFile } from "./deck";
import { takeInvite } from "./links";
import { takeReplayLink } from "./replay";
import { prefillReplay, replayButtons, replayForm, replayKey, replayPanel } from "./replayui";
import { zoneKey } from "./mirror";
import { saved } from "./storage";
import { stopText } from "./stops";
import { MatchPhase, Role, Spectate, DeckFormat, type RoomInfo } from "./gen/protocol/v1/messages_pb";
import { DecisionKind, type GameObject, ZoneKind, GamePhase } from "./gen/protocol/v1/game_pb";
import {
  clockText, decisionName, GRAVEYARD_ORDER_TEXT, hiddenTiersText, lostWords, manaSymbols, manaSymbolWords, matchText,
  logSentence, problemSentence, reasonWords, resultReason, sentence, objectName, optionObjects, optionSeats, resultWords, seatName, stepName, targetText, tierText,
  turnBeingPlayed,
} from "./describe";

export function mount(root: HTMLElement, app: App): void {
  const ui = new Ui(root, app);
  app.onChange = () => ui.schedule();
  ui.render();
  setInterval(() => ui.tickClocks(), 500);
  // The lobby's room list stays current while it is shown.
  setInterval(() => { if (app.room === null && !document.hidden) app.listRooms(); }, 10_000);
  document.addEventListener("keydown", (ev) => ui.key(ev));
  document.addEventListener("focusin", (ev) => ui.focused(ev.target));
  // A page hidden while a render waited for its frame (which a hidden page never paints).
  document.addEventListener("visibilitychange", () => { if (document.hidden) ui.renderScheduled(); });
  window.addEventListener("hashchange", () => {
    const replay = takeReplayLink();
    if (replay) {
      prefillReplay(replay);
      if (app.account !== null && app.room === null) app.openReplay(replay);
      else if (app.account === null) {
        app.replayWanted = replay;
        app.noteReplay();
        ui.render();
      }
      return;
    }
    const invite = takeInvite();
    if (!invite) return;
    app.openInvite(invite);
    ui.prefillInvite();
    ui.render();
  });
}


function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
}

class Ui {
  private readonly topbar = h("header", { class: "topbar" });
  private readonly messages = h("div", { class: "messages", role: "status" });
  private readonly signIn: HTMLElement;
  private readonly lobby: HTMLElement;
  private readonly roomsList = h("div", { class: "rooms" });
  private readonly lobbyStatus = h("div", { class: "lobby-status" });
  /** Said while the deck box is empty: taking a seat then deals a demo deck. */
  private readonly demoNote = h("p", { class: "hint demo-note", "data-testid": "demo-deck-note",
    role: "status" }, "The box is empty: taking a seat deals you a demo deck.");
  private readonly deckErrors = h("ul", { "data-testid": "deck-errors", class: "deck-errors" });
  private readonly accountBox = h("div", { class: "account" });
  private readonly game = h("main", { class: "game", hidden: true });
  /** Where the lobby shows an error: beside the form (or list) whose request it answers,
   * which may be far down the page (the top of the page is out of view there). */
  private readonly errorSlots = {
    deck: h("div", { class: "form-error" }), create: h("div", { class: "form-error" }),
    join: h("div", { class: "form-error" }), rooms: h("div", { class: "form-error" }),
    quick: h("div", { class: "form-error" }), register: h("div", { class: "form-error" }),
    computer: h("div", { class: "form-error" }),
    replay: h("div", { class: "form-error" }),
  };
  /** The lobby's part the player last acted in (its slot shows the answer's error). */
  private errorAt: keyof Ui["errorSlots"] | null = null;
  /** The error and deck problems shown last (new ones are scrolled into view). */
  private errorSeen = "";
  private problemsSeen: unknown = null;
  private noticeSeen = "";
  private scheduled = false;
  /** Graveyards and exiles the player opened (kept open across re-renders). */
  private readonly openPiles = new Set<string>();
  /** A destructive button waiting for its second click (its data-key). */
  private armed: { key: string } | null = null;
  /** The game log's list (kept: its lines are built again only when the log changed), and
   * the log's change count it shows (it scrolls down only when a line is added). */
  private readonly logList = kept(h("ol", { class: "log", "data-testid": "event-log",
    "aria-label": "game log" })) as HTMLOListElement;
  private logShown = -1;
  /** Where the log was scrolled as this render began, and whether a line was added then. */
  private logScroll = { top: 0, grew: false };
  /** Keyboard focus was on an option: keep it on the options across decisions. */
  private optionFocus = false;
  private inviteShown = 0;
  /** The lobby's join form and deck box: invited, the form follows the deck box (it was far
   * down the right-hand column, under the room list and the create form). */
  private joinForm: HTMLElement | null = null;
  private deckPanel: HTMLElement | null = null;
  private joinHome: { parent: ParentNode; next: Node | null } | null = null;
  /** What the last invite filled the join form in with. */
  private filledIn: { roomId: string; code: string; watch: boolean } | null = null;
  /** Between the games of a match: the deck list being edited (built once, so typing and
   * the caret survive re-renders) and the game it was filled in for. */
  private readonly sideboardText = kept(h("textarea", { id: "sideboard-text", rows: 10,
    spellcheck: "false", "data-testid": "sideboard-text",
    placeholder: "4 Shock\n…\n20 Mountain\n\nSideboard\n2 Heartfire Immolator",
    "aria-label": "your deck list for the next game" })) as HTMLTextAreaElement;
  private sideboardFor = 0;
  /** The room and game of a match last shown in play ("ROOM_ID 2"): the next one scrolls
   * the page to its top. */
  private gamePlaying = "";
  /** The account whose deck list the deck box was filled with ("": none signed in). */
  private deckFor = "";
  private readonly sideboardErrors = kept(h("ul", { "data-testid": "sideboard-errors",
    class: "deck-errors" }));

  constructor(private readonly root: HTMLElement, private readonly app: App) {
    this.signIn = this.buildSignIn();
    this.lobby = this.buildLobby();
    root.replaceChildren(this.topbar, this.messages, this.signIn, this.lobby, this.game);
    this.prefillInvite();
    if (app.replayWanted) {
      prefillReplay(app.replayWanted);
      app.noteReplay();
    }
  }

  /** Pre-fill the join form from the invite this page was opened with. */
  prefillInvite(): void {
    const inv = this.app.invite;
    if (!inv) return;
    byId<HTMLInputElement>("join-room-id").value = inv.roomId;
    byId<HTMLInputElement>("join-invite").value = inv.code;
    byId<HTMLSelectElement>("join-tier").value = String(inv.tier ?? 0);
    this.filledIn = { roomId: inv.roomId, code: inv.code, watch: inv.role === "watch" };
    this.sayJoinRole();
    this.app.noteInvite();
  }

  /** Renders the page once for every change made before the browser next paints it: a
   * game's messages come in bursts (an action's delta, the next decision, the clocks), and
   * each rebuilt the whole board, laid out again -- two or three times a click, most of a
   * game's CPU in the browser. A hidden page (another tab) paints no frames: it renders at
   * once, so its title still tells the player their turn came. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (document.visibilityState === "visible") requestAnimationFrame(() => this.renderScheduled());
    else queueMicrotask(() => this.renderScheduled());
  }

  /** The scheduled render, unless it was made meanwhile (a page hidden before its frame). */
  renderScheduled(): void {
    if (!this.scheduled) return;
    this.scheduled = false;
    this.render();
  }

  render(): void {
    const app = this.app;
    if (app.inviteChanged !== this.inviteShown) {
      this.inviteShown = app.inviteChanged;
      const inv = app.invite;
      const roomId = byId<HTMLInputElement>("join-room-id");
      const code = byId<HTMLInputElement>("join-invite");
      if (inv) {
        this.filledIn = { roomId: inv.roomId, code: inv.code, watch: inv.role === "watch" };
        roomId.value = inv.roomId;
        code.value = inv.code;
        if (inv.role === "watch") byId<HTMLSelectElement>("join-tier").value = String(inv.tier ?? 0);
      } else if (this.filledIn !== null && roomId.value === this.filledIn.roomId
          && code.value === this.filledIn.code) {
        // (The invite is gone -- the room created was left or lost: what it filled in goes.)
        roomId.value = "";
        code.value = "";
        this.filledIn = null;
      }
      this.sayJoinRole();
    }
    const signedIn = app.account !== null && app.status !== "signed-out";
    const inRoom = app.room !== null;
    const placed = signedIn && !inRoom ? this.errorPlace() : null;
    this.renderTopbar();
    this.renderMessages(placed === null);
    this.signIn.hidden = signedIn;
    this.lobby.hidden = !signedIn || inRoom;
    this.game.hidden = !inRoom;
    this.fillDeckBox(signedIn ? app.account?.accountId ?? "" : "");
    if (signedIn && !inRoom) {
      this.placeJoinForm();
      this.renderLobby(placed);
      this.sayDemoDeck();
      this.showNewError(placed);
    }
    if (inRoom) this.renderGame();
    else this.game.replaceChildren();
    // A keyboard player answering options keeps the focus on them from decision to decision.
    const active = document.activeElement;
    if (this.optionFocus && (active === null || active === document.body)) {
      this.game.querySelector<HTMLElement>("button[data-testid=option]:not([disabled])")?.focus();
    }
  }

  /** The deck box holds the deck list the account signed in last played with (this
   * browser's), and nothing of an account signed out: the next account to sign in here saw
   * the last one's list (a sideboard plan), and its name in the guest form. */
  private fillDeckBox(account: string): void {
    if (account === this.deckFor) return;
    const box = document.getElementById("deck-text") as HTMLTextAreaElement | null;
    if (box === null) return;
    if (account !== "") box.value = this.app.keptDeck || (this.deckFor === "" ? box.value : "");
    else if (this.deckFor !== "") {
      box.value = "";
      const file = document.getElementById("deck-file") as HTMLInputElement | null;
      if (file) file.value = "";
      const name = document.getElementById("display-name") as HTMLInputElement | null;
      if (name) name.value = saved.displayName;
    }
    this.deckFor = account;
  }

  /** With the deck box empty, the buttons that take a seat say they deal a demo deck ("Create
   * room with a demo deck"), and a line under the box says so: an empty box dealt one
   * silently (a new player's review). Their words without it are in `data-plain`. */
  private sayDemoDeck(): void {
    const empty = deckText().trim() === "";
    this.demoNote.hidden = !empty;
    const plays = (document.getElementById("room-play") as HTMLInputElement | null)?.checked ?? true;
    for (const button of this.lobby.querySelectorAll<HTMLElement>("button[data-plain]")) {
      const demo = empty && (button.dataset["testid"] !== "create-room" || plays);
      const text = `${button.dataset["plain"] ?? ""}${demo ? " with a demo deck" : ""}`;
      if (button.textContent !== text) button.textContent = text;
    }
  }

  /** Invited by a link (not the room this page created): the join form right under the
   * deck box, where the invited player looks; else in its place in the right-hand column. */
  private placeJoinForm(): void {
    const form = this.joinForm, deck = this.deckPanel;
    if (form === null || deck === null) return;
    const inv = this.app.invite;
    const invited = inv !== null && this.app.created?.room.roomId !== inv.roomId;
    if (this.joinHome === null && form.parentNode) this.joinHome = { parent: form.parentNode, next: form.nextSibling };
    if (invited && deck.nextSibling !== form) deck.after(form);
    else if (!invited && this.joinHome !== null && form.parentNode !== this.joinHome.parent) {
      this.joinHome.parent.insertBefore(form, this.joinHome.next);
    }
  }

  /** Where the keyboard focus went (options or elsewhere). */
  focused(target: EventTarget | null): void {
    if (target instanceof HTMLElement && target !== document.body) {
      this.optionFocus = target.dataset.testid === "option";
    }
  }

  // ---- top bar and messages
  private renderTopbar(): void {
    const app = this.app;
    // Not signed in yet is no fault of the server's: said in a neutral colour, until a
    // sign-in finds the server unreachable.
    const words = { "signed-out": app.unreachable ? "offline" : "signed-out",
      connecting: "connecting", connected: "connected", reconnecting: "reconnecting",
      offline: "offline", replaced: "offline" } as const;
    const state = words[app.status];
    replaceChildren(this.topbar,
      h("h1", null, "Manawire"),
      h("span", { class: `conn conn-${state}`, "data-testid": "connection", "data-state": state,
        title: "connection to the server" }, state === "signed-out" ? "not signed in" : state),
      app.status === "offline" || app.status === "replaced"
        ? h("button", { type: "button", onclick: () => app.reconnect() }, "Reconnect") : null,
      app.account ? h("span", { class: "who" }, "Signed in as ",
        h("strong", { "data-testid": "account-name" }, app.account.name),
        app.account.registered ? "" : " (guest)") : null,
      app.account && app.room === null ? h("button", { type: "button", "data-testid": "sign-out", "data-key": "sign-out",
        onclick: () => app.signOut() }, "Sign out") : null);
  }

  /** The lobby's slot for the error shown now: a refused deck's beside its problems, any
   * other beside what the player did last (null: at the top of the page). */
  private errorPlace(): keyof Ui["errorSlots"] | null {
    const app = this.app;
    if (app.deckProblems.length > 0 && (app.error === "" || app.error === app.deckRefusal)) return "deck";
    return app.error ? this.errorAt : null;
  }

  /** A new error (or deck problems) in the lobby is scrolled into view: the player may be
   * far down the page, where the form they used is. */
  private showNewError(placed: keyof Ui["errorSlots"] | null): void {
    const app = this.app;
    const newError = app.error !== "" && app.error !== this.errorSeen;
    const newProblems = app.deckProblems.length > 0 && app.deckProblems !== this.problemsSeen;
    const newNotice = app.notice !== "" && app.notice !== this.noticeSeen;
    this.errorSeen = app.error;
    this.problemsSeen = app.deckProblems;
    this.noticeSeen = app.notice;
    // ("Registered as Ann": said at the top, the form far down the page being gone.)
    if (!newError && !newProblems) {
      if (newNotice) this.messages.scrollIntoView({ block: "nearest" });
      return;
    }
    const target = placed === "deck" ? (app.error ? this.errorSlots.deck : this.deckErrors)
      : placed !== null ? this.errorSlots[placed] : this.messages;
    target?.scrollIntoView({ block: "nearest" });
  }

  /** The player acts in a part of the lobby: its answer's error is shown there. */
  private from(place: keyof Ui["errorSlots"]): void {
    this.errorAt = place;
    this.errorSeen = ""; // the same refusal again is scrolled to again
  }

  private renderMessages(showError: boolean): void {
    const app = this.app;
    // A lost connection said in words, not only by the badge's colour: what is kept, and
    // what to do once the client stops trying by itself.
    const room = app.room;
    const kept = room === null || !app.mirror.ready ? ""
      : room.role === Role.SPECTATOR ? " You go on watching where you were."
        : " Your seat is kept: you resume where you were.";
    const lost = app.status === "reconnecting"
      ? h("p", { class: "notice", "data-testid": "connection-lost" },
        `The connection to the server was lost: reconnecting…${kept}`)
      : app.status === "offline"
        ? h("p", { class: "error", "data-testid": "connection-lost", role: "alert" },
          "The server can't be reached. Press Reconnect (at the top) to try again.")
        : null;
    replaceChildren(this.messages, lost,
      app.error && showError ? h("p", { class: "error", "data-testid": "error", role: "alert" },
        app.error) : null,
      app.notice ? h("p", { class: "notice" }, app.notice) : null,
      // A duplicated tab beside the one holding the seat: taking it over is asked, not done.
      app.copiedTab && app.status === "connected" && app.room === null && app.replay === null
        ? h("button", { type: "button", "data-testid": "play-here", "data-key": "play-here",
          onclick: () => app.takeSeatHere() }, "Play here") : null);
  }

  // ---- sign-in (built once)
  private buildSignIn(): HTMLElement {
    const app = this.app;
    const guest = h("form", { class: "panel", "aria-labelledby": "guest-h",
      onsubmit: (ev: Event) => {
        ev.preventDefault();
        const name = byId<HTMLInputElement>("display-name").value.trim() || "Player";
        app.signInGuest(name);
      } },
      h("h2", { id: "guest-h" }, "Play as a guest"),
      h("label", { for: "display-name" }, "Your name"),
      h("input", { id: "display-name", maxlength: 32, autocomplete: "nickname",
        value: "", placeholder: "Player" }),
      h("button", { type: "submit", "data-testid": "sign-in-guest" }, "Play as guest"));
    const missing = h("p", { class: "error", "data-testid": "sign-in-missing", role: "alert",
      hidden: true });
    const login = h("form", { class: "panel", "aria-labelledby": "login-h", novalidate: true,
      onsubmit: (ev: Event) => {
        ev.preventDefault();
        const name = byId<HTMLInputElement>("login-name").value.trim();
        const password = byId<HTMLInputElement>("login-password").value;
        // Said in words (a browser's own bubble for a required field showed nothing here).
        const lacking = [name ? "" : "your account name", password ? "" : "your password"]
          .filter(Boolean);
        missing.hidden = lacking.length === 0;
        missing.textContent = lacking.length
          ? `Type ${lacking.join(" and ")} to sign in (or play as a guest, beside).` : "";
        if (lacking.length) {
          byId<HTMLInputElement>(name ? "login-password" : "login-name").focus();
          return;
        }
        app.signIn(name, password);
        byId<HTMLInputElement>("login-password").value = "";
      } },
      h("h2", { id: "login-h" }, "Sign in"),
      h("label", { for: "login-name" }, "Account name"),
      h("input", { id: "login-name", autocomplete: "username", required: true }),
      h("label", { for: "login-password" }, "Password"),
      h("input", { id: "login-password", type: "password", autocomplete: "current-password",
        required: true }),
      h("button", { type: "submit", "data-testid": "sign-in" }, "Sign in"), missing);
    const section = h("section", { class: "sign-in" }, guest, login);
    queueMicrotask(() => {
      const input = document.getElementById("display-name") as HTMLInputElement | null;
      if (input && !input.value) input.value = saved.displayName;
    });
    return section;
  }

  // ---- lobby (forms built once, lists rendered)
  private buildLobby(): HTMLElement {
    const app = this.app;
    const deckBox = h("textarea", { id: "deck-text", rows: 8, spellcheck: "false",
      placeholder: "4 Shock\n4 Llanowar Visionary\n...\n12 Mountain",
      oninput: () => this.sayDemoDeck() }) as HTMLTextAreaElement;
    // The deck list last played with (this browser's, the account's): back in the box after
    // a reload, once the account is known ({@link fillDeckBox}).
    const deck = h("section", { class: "panel deck", "aria-labelledby": "deck-h" },
      h("h2", { id: "deck-h" }, "Your deck"),
      h("p", { class: "hint" }, "Paste a deck list (plain text, MTG Arena, MTGO .dek, ",
        "Cockatrice .cod or Forge .dck) or upload the file."),
      // (Folded: listed in full, the names pushed the join form of an invited player's
      // 1280x800 screen below the fold.)
      h("details", { class: "hint demo-decks", "data-testid": "demo-decks" },
        h("summary", null, "Or type the name of a demo deck"),
        h("p", null, `${DEMO_DECKS.join(", ")}.`)),
      h("label", { for: "deck-text" }, "Deck list"),
      deckBox,
      this.demoNote,
      h("label", { for: "deck-file" }, "Or upload a deck file"),
      h("input", { id: "deck-file", type: "file",
        accept: ".txt,.dek,.cod,.dck,text/plain,application/xml",
        onchange: async (ev: Event) => {
          const input = ev.target as HTMLInputElement;
          const file = input.files?.[0];
          if (!file) return;
          try {
            byId<HTMLTextAreaElement>("deck-text").value = await readDeckFile(file);
            this.sayDemoDeck();
            app.deckFileRead(null);
          } catch (err) {
            // (The file box showed the file's name while the box's text was what was used.)
            input.value = "";
            app.deckFileRead((err as Error).message);
          }
        } }),
      this.errorSlots.deck,
      this.deckErrors);

    const create = h("form", { class: "panel", "aria-labelledby": "create-h",
      onsubmit: (ev: Event) => {
        ev.preventDefault();
        this.from("create");
        app.createRoom(this.roomSettings(), deckText());
      } },
      h("h2", { id: "create-h" }, "Create a room"),
      h("label", { for: "room-name" }, "Name"),
      h("input", { id: "room-name", maxlength: 64, value: "" }),
      h("div", { class: "row" },
        h("span", null, h("label", { for: "room-seats" }, "Players"),
          h("select", { id: "room-seats" },
            [2, 3, 4, 5, 6, 7, 8].map((n) => h("option", { value: n }, String(n))))),
        h("span", null, h("label", { for: "room-clock" }, "Clock (minutes each)"),
          h("input", { id: "room-clock", type: "number", min: 1, max: 1440, value: 30 })),
        h("span", null, h("label", { for: "room-best-of" }, "Match"),
          h("select", { id: "room-best-of", "data-testid": "room-best-of" },
            h("option", { value: "1" }, "Single game"),
            h("option", { value: "3" }, "Best of 3 (two players)"),
            h("option", { value: "5" }, "Best of 5 (two players)")))),
      h("div", { class: "row" },
        h("span", null, h("label", { for: "room-format" }, "Deck format"),
          h("select", { id: "room-format" },
            h("option", { value: "constructed" }, "Constructed (60+ cards)"),
            h("option", { value: "limited" }, "Limited (40+ cards)"))),
        h("span", null, h("label", { for: "room-spectate" }, "Spectators"),
          h("select", { id: "room-spectate", "aria-describedby": "room-spectate-hint" },
            h("option", { value: "" }, "Default"),
            h("option", { value: "allowed" }, "Anyone may watch"),
            h("option", { value: "invite" }, "Invite link only"),
            h("option", { value: "none" }, "Nobody")))),
      // (The default's words in the list were cut off: said here in full.)
      h("p", { class: "hint", id: "room-spectate-hint" }, "Spectators by default: anyone may ",
        "watch a public room, only those with the invite link a private one."),
      h("label", { class: "check" }, h("input", { id: "room-private", type: "checkbox" }),
        " Private (not listed; players need the invite link)"),
      h("label", { class: "check" }, h("input", { id: "room-play", type: "checkbox",
        checked: true, onchange: () => this.sayDemoDeck() }), " Take a seat myself (uncheck to host a game for others, "
        + "e.g. to broadcast it)"),
      h("details", { class: "tier-settings" },
        h("summary", null, "Delayed broadcast (for casters and streams)"),
        h("p", { class: "hint" }, "Offer watchers a delayed view besides the live public one: "
          + "every hand (nothing is shown before the delay has passed), or the public view."),
        h("div", { class: "row" },
          h("span", null, h("label", { for: "room-tier" }, "Delayed view"),
            h("select", { id: "room-tier" },
              h("option", { value: "" }, "None"),
              h("option", { value: "omniscient" }, "Every hand"),
              h("option", { value: "public" }, "Public view"))),
          h("span", null, h("label", { for: "room-tier-delay" }, "Delay (seconds)"),
            h("input", { id: "room-tier-delay", type: "number", min: 1, max: 3600, value: 120 }))),
        h("label", { for: "room-tier-accounts" }, "Who may watch it: account names, comma-separated"),
        h("input", { id: "room-tier-accounts", autocomplete: "off", placeholder: "Caster#1234, Stream" }),
        h("label", { class: "check" }, h("input", { id: "room-tier-invite", type: "checkbox",
          checked: true }), " and anyone with the room's watch link (or invite link)")),
      h("button", { type: "submit", "data-testid": "create-room", "data-plain": "Create room" },
        "Create room"),
      this.errorSlots.create);

    const joinForm = h("form", { class: "panel", "aria-labelledby": "join-h", "data-testid": "join-form",
      onsubmit: (ev: Event) => {
        ev.preventDefault();
        this.from("join");
        app.join(byId<HTMLInputElement>("join-room-id").value, Role.PLAYER, deckText(),
          byId<HTMLInputElement>("join-invite").value);
      } },
      h("h2", { id: "join-h" }, "Join by room id"),
      h("label", { for: "join-room-id" }, "Room id"),
      h("input", { id: "join-room-id", required: true, autocomplete: "off",
        oninput: () => { this.labelJoinTiers(); this.sayJoinRole(); } }),
      h("label", { for: "join-invite" }, "Invite or watch code (private rooms)"),
      h("input", { id: "join-invite", autocomplete: "off", oninput: () => this.sayJoinRole() }),
      h("p", { class: "hint", id: "join-watch-only", "data-testid": "join-watch-only", hidden: true },
        "This is a watch link: it lets you watch, not play. For a seat, ask the host for a seat link."),
      h("label", { for: "join-tier" }, "Watch which view"),
      h("select", { id: "join-tier" },
        h("option", { value: "0" }, "Live (public information)"),
        [1, 2, 3, 4].map((n) => h("option", { value: n }, `Delayed view ${n} (if offered)`))),
      h("div", { class: "row" },
        h("button", { type: "submit", "data-testid": "join-room", "data-plain": "Join as player" },
          "Join as player"),
        h("button", { type: "button", "data-testid": "watch-room", onclick: () => {
          this.from("join");
          app.join(byId<HTMLInputElement>("join-room-id").value, Role.SPECTATOR, "",
            byId<HTMLInputElement>("join-invite").value,
            Number(byId<HTMLSelectElement>("join-tier").value));
        } }, "Watch")),
      this.errorSlots.join);

    // A game against a computer player the server runs: no second person needed.
    const computer = h("form", { class: "panel", "aria-labelledby": "computer-h",
      "data-testid": "computer-form", onsubmit: (ev: Event) => {
        ev.preventDefault();
        this.from("computer");
        app.playComputer(deckText(), Number(byId<HTMLSelectElement>("computer-best-of").value) || 1,
          byId<HTMLSelectElement>("room-format").value === "limited" ? "limited" : "constructed");
      } },
      h("h2", { id: "computer-h" }, "Play against the computer"),
      h("p", { class: "hint" }, "A private game against a computer player, with your deck (the ",
        "“Deck format” of “Create a room”); it starts at once."),
      h("div", { class: "row" },
        h("span", null, h("label", { for: "computer-best-of" }, "Match"),
          h("select", { id: "computer-best-of" },
            h("option", { value: "1" }, "Single game"),
            h("option", { value: "3" }, "Best of 3"),
            h("option", { value: "5" }, "Best of 5"))),
        h("button", { type: "submit", "data-testid": "play-computer",
          "data-plain": "Play against the computer" }, "Play against the computer")),
      this.errorSlots.computer);

    const quick = h("section", { class: "panel", "aria-labelledby": "quick-h" },
      h("h2", { id: "quick-h" }, "Quick match"),
      h("p", { class: "hint" }, "Meet the next players waiting with the same format and number ",
        "of players (“Deck format” and “Players” in “Create a room”), with your deck."),
      this.lobbyStatus, this.errorSlots.quick);

    const rooms = h("section", { class: "panel rooms-panel", "aria-labelledby": "rooms-h" },
      h("div", { class: "row" }, h("h2", { id: "rooms-h" }, "Open rooms"),
        h("button", { type: "button", "data-testid": "refresh-rooms",
          onclick: () => app.listRooms() }, "Refresh")),
      this.errorSlots.rooms,
      this.roomsList);

    // (Checked here, said in the form: the browser's own bubble for "minlength" showed
    // nothing in headless Chromium, and is easy to miss anywhere.)
    const register = h("form", { id: "register", class: "panel", "aria-labelledby": "register-h",
      novalidate: true, onsubmit: (ev: Event) => {
        ev.preventDefault();
        this.from("register");
        const name = byId<HTMLInputElement>("register-name").value.trim();
        const password = byId<HTMLInputElement>("register-password").value;
        const problem = name.length < 3 ? "The account name needs 3 characters or more."
          : password.length < 8 ? "The password needs 8 characters or more." : "";
        if (problem) {
          app.error = problem;
          this.render();
          byId<HTMLInputElement>(name.length < 3 ? "register-name" : "register-password").focus();
          return;
        }
        app.register(byId<HTMLInputElement>("register-name").value.trim(),
          byId<HTMLInputElement>("register-password").value);
        byId<HTMLInputElement>("register-password").value = "";
      } },
      h("h2", { id: "register-h" }, "Keep this account"),
      h("p", { class: "hint" }, "Give your guest account a name and a password to sign in ",
        "from anywhere."),
      h("label", { for: "register-name" }, "Account name (3-24 letters, digits, spaces, _ - .)"),
      h("input", { id: "register-name", autocomplete: "username", minlength: 3, maxlength: 24,
        required: true }),
      h("label", { for: "register-password" }, "Password (8 characters or more)"),
      h("input", { id: "register-password", type: "password", autocomplete: "new-password",
        minlength: 8, required: true }),
      h("button", { type: "submit" }, "Register"),
      this.errorSlots.register);

    this.joinForm = joinForm;
    this.deckPanel = deck;
    return h("div", { class: "lobby" },
      h("div", { class: "col" }, deck, computer, quick, this.accountBox),
      h("div", { class: "col" }, rooms, create, joinForm,
        replayForm(app, () => this.from("replay"), this.errorSlots.replay), register));
  }

  private roomSettings(): RoomSettingsInput {
    const spectate = byId<HTMLSelectElement>("room-spectate").value;
    return {
      name: byId<HTMLInputElement>("room-name").value.trim()
        || `${this.app.account?.name ?? "someone"}'s room`,
      seats: Number(byId<HTMLSelectElement>("room-seats").value),
      clockMinutes: Math.max(1, Number(byId<HTMLInputElement>("room-clock").value) || 30),
      private: byId<HTMLInputElement>("room-private").checked,
      spectate: (["allowed", "invite", "none"].includes(spectate) ? spectate : "") as RoomSettingsInput["spectate"],
      format: byId<HTMLSelectElement>("room-format").value === "limited" ? "limited" : "constructed",
      tier: this.tierSettings(),
      bestOf: Number(byId<HTMLSelectElement>("room-best-of").value) || 1,
      play: byId<HTMLInputElement>("room-play").checked,
    };
  }

  private tierSettings(): RoomSettingsInput["tier"] {
    const kind = byId<HTMLSelectElement>("room-tier").value;
    if (kind !== "omniscient" && kind !== "public") return null;
    return {
      kind,
      delaySeconds: Math.min(3600, Math.max(1, Number(byId<HTMLInputElement>("room-tier-delay").value) || 120)),
      accounts: byId<HTMLInputElement>("room-tier-accounts").value.split(",")
        .map((a) => a.trim()).filter(Boolean),
      invite: byId<HTMLInputElement>("room-tier-invite").checked,
    };
  }

  /** The join form's tier choices say what each is when the room typed in is known (a
   * listed room, or the one just created): "Delayed: the public view, 20 s behind". */
  /** A watch link's code (the room's audience code) takes no seat: while the join form holds
   * the watch link it was filled in with, it offers only “Watch”, and says why. */
  private sayJoinRole(): void {
    const f = this.filledIn;
    const watchOnly = f !== null && f.watch && f.code !== ""
      && byId<HTMLInputElement>("join-room-id").value === f.roomId
      && byId<HTMLInputElement>("join-invite").value === f.code;
    const seat = this.lobby.querySelector<HTMLButtonElement>("[data-testid=join-room]");
    if (seat) seat.hidden = watchOnly;
    byId<HTMLElement>("join-watch-only").hidden = !watchOnly;
  }

  private labelJoinTiers(): void {
    const app = this.app;
    const id = byId<HTMLInputElement>("join-room-id").value.trim();
    const room = app.rooms.find((r) => r.roomId === id)
      ?? (app.created?.room.roomId === id ? app.created.room : undefined);
    const select = byId<HTMLSelectElement>("join-tier");
    const options = select.options;
    for (let n = 1; n < options.length; n++) {
      const tier = room?.tiers[n - 1];
      const option = options[n];
      if (option === undefined) continue;
      option.textContent = tier ? `Delayed: ${tierText(tier, room?.players ?? [])}`
        : `Delayed view ${n} (if offered)`;
      // A room known to have no such tier doesn't list it (it read as offered).
      const absent = room !== undefined && tier === undefined;
      option.hidden = absent;
      option.disabled = absent;
      if (absent && option.selected) select.value = "0";
    }
  }

  private renderLobby(placed: keyof Ui["errorSlots"] | null): void {
    const app = this.app;
    for (const [key, slot] of Object.entries(this.errorSlots)) {
      replaceChildren(slot, key === placed && app.error
        ? h("p", { class: "error", "data-testid": "error", role: "alert" }, app.error) : null);
    }
    this.labelJoinTiers();
    byId("register").hidden = app.account?.registered ?? false;
    // The lines of the deck that was sent (the text area may have changed since).
    const deckLines = app.lastDeck.split(/\r\n|\r|\n/);
    replaceChildren(this.deckErrors, app.deckProblems.map((p) =>
      h("li", { "data-line": p.line },
        // (One naming no line is a sentence of its own: after a bold "Deck" it read "Deck at
        // most 4 copies of ...".)
        p.line ? [h("strong", null, `Line ${p.line}`),
          deckLines[p.line - 1] !== undefined ? h("code", null, deckLines[p.line - 1] ?? "") : null,
          " ", p.message] : problemSentence(p.message))));
    // Finished rooms (kept listed for their replays) apart: listed among the open ones, a
    // new player took them for games to join.
    const live = app.rooms.filter((r) => !r.finished);
    const finished = app.rooms.filter((r) => r.finished);
    replaceChildren(this.roomsList, live.length === 0
      ? h("p", { class: "hint", "data-testid": "no-open-rooms" }, "No open rooms. Create one, or use quick match.")
      : h("ul", { "data-testid": "open-rooms" }, live.map((r) => roomRow(app, r, () => this.from("rooms")))),
    finished.length === 0 ? null : h("div", null, h("h3", null, "Finished games (replays)"),
      h("ul", { "data-testid": "finished-rooms" }, finished.map((r) => roomRow(app, r, () => this.from("rooms"))))));
    replaceChildren(this.lobbyStatus, app.queue
      ? h("div", null, h("p", { "data-testid": "queue-status" },
          `Waiting for players (${app.queue.waiting} of ${app.queue.seats} in the queue)…`),
        h("button", { type: "button", "data-testid": "cancel-quick-match", "data-key": "cancel-qm",
          onclick: () => { this.from("quick"); app.cancelQuickMatch(); } }, "Cancel"))
      : h("button", { type: "button", "data-testid": "quick-match", "data-key": "qm",
          "data-plain": "Find a game",
          onclick: () => {
            this.from("quick");
            app.quickMatch(
              byId<HTMLSelectElement>("room-format").value === "limited" ? "limited" : "constructed",
              Number(byId<HTMLSelectElement>("room-seats").value), deckText());
          } }, "Find a game"));
    replaceChildren(this.accountBox, app.created ? h("section", { class: "panel" },
      h("h2", null, "Your room's invite link"),
      h("p", { class: "hint" }, "Send it to the players (and, if allowed, spectators) you invite."),
      app.createdLinks().map(({ label, link }) => h("div", null, h("p", { class: "hint" }, label),
        inviteBox(link)))) : null);
  }

  // ---- the game
  private renderGame(): void {
    const app = this.app;
    const room = app.room;
    if (!room) return;
    const m = app.mirror;
    if (!m.ready && app.replay) {
      patchChildren(this.game, h("section", { class: "panel waiting", "data-testid": "board",
        "data-seat": room.seat, "data-state-id": "0" }, h("p", null, "Opening the replay…"),
      replayPanel(app)));
      return;
    }
    if (!m.ready) {
      patchChildren(this.game, h("section", { class: "panel waiting", "data-testid": "board",
        "data-seat": room.seat, "data-state-id": "0" },
        h("h2", null, room.info.name || "Room"),
        h("p", null, room.role === Role.SPECTATOR ? "Watching. The game hasn't started yet."
          : `Waiting for players: the game starts when all ${room.info.seats} seats are taken.`),
        room.info.bestOf > 1 ? h("p", { "data-testid": "best-of" }, matchText(room.info.bestOf)) : null,
        h("p", { "data-testid": "seated" }, `Seated (${room.info.players.length} of `
          + `${room.info.seats}): ${room.info.players.join(", ") || "nobody yet"}`),
        app.deckWords ? h("p", { "data-testid": "your-deck" }, `You play ${app.deckWords}.`) : null,
        app.roomInviteLinks().length
          ? h("div", null, h("p", null, "Invite links:"), app.roomInviteLinks().map(({ label, link }) =>
            h("div", null, h("p", { class: "hint" }, label), inviteBox(link)))) : null,
        h("p", { class: "hint" }, `Room id: ${room.info.roomId}`),
        h("button", { type: "button", "data-testid": "leave-room", "data-key": "leave",
          onclick: () => app.leaveRoom() }, "Leave room")));
      return;
    }
    const seats = [...m.players.keys()].sort((a, b) => a - b);
    const viewer = room.seat;
    // The viewer's own seat last (at the bottom); the others in seat order from the viewer.
    // A spectator's bottom is the first seat: the stack sits between the players, as the
    // players see it (it was below them all).
    const bottom = viewer >= 0 ? viewer : (seats[0] ?? -1);
    const order = bottom >= 0
      ? [...seats.filter((s) => s > bottom), ...seats.filter((s) => s < bottom), bottom]
      : seats;
    const header = m.header;
    const result = header.result;
    const optionsScroll = this.game.querySelector(".decision .options.rest")?.scrollTop ?? 0;
    const editing = document.activeElement === this.sideboardText;
    const caret = [this.sideboardText.selectionStart, this.sideboardText.selectionEnd] as const;
    const match = app.match;
    const matchGoesOn = match !== null && match.phase !== MatchPhase.OVER;
    // Each player's result but the winners' (named just above: "You won." then a bullet
    // "You won" said it twice, a new player's review).
    const results = result ? app.playerResults().filter((r) => r.outcome !== "won") : [];
    patchChildren(this.game,
      h("div", { class: "board", "data-testid": "board", "data-seat": viewer,
        "data-state-id": String(m.stateId) },
        h("div", { class: "table" },
          this.turnBar(),
          // With three players or more the others' sides sit side by side, their cards
          // compact (the text on hover), so the viewer's own side stays in view.
          h("div", { class: `others ${seats.length > 2 ? "many" : ""}`, "data-testid": "others" },
            order.filter((s) => s !== bottom).map((s) => this.playerArea(s))),
          this.stackArea(),
          bottom >= 0 ? this.playerArea(bottom) : null),
        h("aside", { class: "side" },
          replayPanel(app),
          result ? h("section", { class: "panel game-over", "data-testid": "game-over", role: "status" },
            h("h2", null, "Game over"),
            // (Capitalized, "You won.", names as written: lines said "you won.")
            h("p", null, result.winners.length === 0 ? "The game is a draw."
              : logSentence(`${result.winners.map((s) => seatName(app, s)).join(", ")} won.`, app.playerNames())),
            // Each player's result (of three, the first out was named nowhere).
            results.length === 0 ? null : h("ul", { class: "results", "data-testid": "results" }, results.map((r) =>
              h("li", { "data-seat": r.seat, "data-outcome": r.outcome },
                logSentence(resultWords(app, r), app.playerNames())))),
            // (The last loss's reason, in the viewer's words, unless said above.)
            result.reason && (result.winners.length === 0 || !results.some((r) => r.why))
              ? h("p", { class: "hint", "data-testid": "result-reason" },
                sentence(resultReason(app, result.winners, result.reason))) : null,
            match ? h("p", { "data-testid": "match-result" }, app.matchLine) : null,
            app.rematchWords ? h("p", { "data-testid": "rematch-words" }, app.rematchWords) : null,
            // The panel's buttons in one row with gaps, wrapping whole (each on one line: in
            // the narrow side panel "Rematch" broke in two, and "Back to the lobby" touched
            // "Replay").
            h("div", { class: "actions", "data-testid": "game-over-actions" },
              this.rematchPart(),
              matchGoesOn ? null
                : h("button", { type: "button", "data-key": "back", onclick: () => app.leaveRoom() },
                  "Back to the lobby"),
              // Each finished game's replay (a private room's is found nowhere else), in a new
              // tab: this one stays in the room, for the rematch.
              app.finishedGameIds.map((id, i, all) => h("button", { type: "button",
                "data-testid": "replay-finished", "data-game-id": id, "data-key": `replay-finished-${id}`,
                title: "Opens the replay in a new tab: you stay here, for a rematch",
                onclick: () => {
                  const link = app.finishedReplayLink(id);
                  if (link) window.open(link, "_blank", "noopener"); // ("": no longer this room's)
                } },
              all.length > 1 ? `Replay game ${i + 1}` : "Replay")))) : null,
          this.lostPanel(),
          app.presenceNotes().map((note) => h("p", { class: "notice", role: "status",
            "data-testid": "presence-note" }, note)),
          this.sideboardPanel(),
          this.passingPanel(),
          this.decisionPanel(),
          this.eventLog(),
          app.replay ? null : this.roomControls())));
    this.placeLog();
    const options = this.game.querySelector(".decision .options.rest");
    if (options && optionsScroll > 0) options.scrollTop = optionsScroll; // (a write lays the page out)
    // A match's next game begins at the top of the page: the sideboarding left it scrolled
    // down (its panel, far down the side), the score bar out of view.
    const playing = match !== null && match.phase === MatchPhase.PLAYING
      ? `${room.info.roomId} ${match.gameNumber}` : "";
    if (playing && playing !== this.gamePlaying) {
      if (this.gamePlaying.startsWith(`${room.info.roomId} `)) window.scrollTo({ top: 0 });
      this.gamePlaying = playing;
    }
    if (editing && this.sideboardText.isConnected) {
      this.sideboardText.focus();
      this.sideboardText.setSelectionRange(caret[0], caret[1]);
    }
  }

  /** The game-over panel's rematch buttons (protocol/README.md, "Rematch"; who offers is
   * said above them): a player's "Rematch" ("Take back" once offered); a spectator's way to
   * the rematch's room. */
  private rematchPart(): Child[] {
    const app = this.app;
    const watch = app.rematchWatchLink;
    // (The button and the link in the row of the panel's buttons, first.)
    return [
      app.canRematch
        ? h("button", { type: "button", "data-testid": "rematch", "data-key": "rematch",
          "data-offered": app.rematchOffered ? "true" : "false", disabled: app.rematchSent,
          onclick: () => app.offerRematch() }, app.rematchOffered ? "Take back" : "Rematch")
        : null,
      // (A link drawn as the panel's buttons: it read as plain text beside them, np8.)
      watch ? h("a", { href: watch, "data-testid": "watch-rematch", "data-key": "watch-rematch",
        role: "button", class: "button-link",
        onclick: (ev: Event) => { ev.preventDefault(); app.watchRematch(); } }, "Watch the rematch") : null];
  }

  /** For a player who lost a game that goes on without them (three players or more, rule
   * 800.4a): that they lost, why, and what is left to do. */
  private lostPanel(): HTMLElement | null {
    const app = this.app;
    if (!app.viewerLost || app.mirror.gameOver) return null;
    const why = reasonWords(app, app.lossReason(app.viewer));
    return h("section", { class: "panel lost-panel", "data-testid": "you-lost", role: "status" },
      h("h2", null, "You lost the game"),
      why ? h("p", { "data-testid": "you-lost-why" }, `${sentence(why)}.`) : null,
      // (rule 800.4a)
      h("p", { class: "hint" }, "The game goes on without you: watch it to its end, ",
        "or leave the room."));
  }

  /** Between the games of a match (rules 100.4, 103.2a): keep the deck, or submit a list
   * made of the registered cards; whom the match waits for otherwise. */
  private sideboardPanel(): HTMLElement | null {
    const app = this.app;
    const m = app.match;
    if (m === null || m.phase !== MatchPhase.SIDEBOARDING) return null;
    const left = h("span", { "data-sideboard-left": "" }, formatClock(app.sideboardLeft(Date.now())));
    if (!app.mustSideboard) {
      const wait = app.sideboardWait();
      return h("section", { class: "panel sideboard", "data-testid": "sideboard-wait" },
        h("h2", null, `Game ${m.gameNumber} of ${m.bestOf}`),
        h("p", null, wait.text, wait.clock ? [" (", left, " left)."] : "."));
    }
    const draft = app.sideboardDraft();
    if (this.sideboardFor !== m.gameNumber) {
      this.sideboardFor = m.gameNumber;
      if (draft.text || !this.sideboardText.value) this.sideboardText.value = draft.text;
    }
    const deckLines = this.sideboardText.value.split(/\r\n|\r|\n/);
    replaceChildren(this.sideboardErrors, app.deckProblems.map((p) =>
      h("li", { "data-line": p.line },
        // (One naming no line is a sentence of its own: after a bold "Deck" it read "Deck at
        // most 4 copies of ...".)
        p.line ? [h("strong", null, `Line ${p.line}`),
          deckLines[p.line - 1] !== undefined ? h("code", null, deckLines[p.line - 1] ?? "") : null,
          " ", p.message] : problemSentence(p.message))));
    return h("section", { class: "panel sideboard", "data-testid": "sideboard",
      "aria-labelledby": "sideboard-h" },
      h("h2", { id: "sideboard-h" }, `Your deck for game ${m.gameNumber}`),
      h("p", { class: "hint" }, "Between games you may exchange cards between your main deck and ",
        "sideboard: the list must hold exactly the cards you registered. ", // (rule 100.4)
        "Whoever doesn't answer in time keeps their deck: ", left, " left."),
      h("button", { type: "button", "data-testid": "keep-deck", "data-key": "keep-deck",
        disabled: app.deckSent, onclick: () => app.keepDeck() }, "Keep deck"),
      h("label", { for: "sideboard-text" }, "Or change your deck: main deck, then “Sideboard”"),
      draft.hint && !this.sideboardText.value.trim()
        ? h("p", { class: "hint", "data-testid": "sideboard-hint" }, draft.hint) : null,
      this.sideboardText,
      h("button", { type: "button", "data-testid": "submit-deck", "data-key": "submit-deck",
        disabled: app.deckSent, onclick: () => app.submitDeck(this.sideboardText.value) },
      "Submit deck"),
      app.deckSent ? h("p", { class: "hint" }, "Sent…") : null,
      this.sideboardErrors);
  }

  private turnBar(): HTMLElement {
    const app = this.app;
    const hd = app.mirror.header;
    const pending = hd.pending;
    let phase: string;
    if (hd.phase === GamePhase.CHOOSE_STARTING_PLAYER) phase = "Choosing who plays first";
    else if (hd.phase === GamePhase.MULLIGANS) phase = "Mulligans";
    else phase = `Turn ${hd.turn}: ${app.player(hd.activeSeat)}'s turn, ${stepName(hd.step)}`;
    const match = app.match;
    const who = pending
      ? (pending.seat === app.viewer ? `Your decision: ${decisionName(pending.kind)}`
        : `Waiting for ${app.player(pending.seat)} (${decisionName(pending.kind)})`)
      : hd.result ? "The game is over" : "";
    return h("div", { class: "turnbar", "data-testid": "turnbar", "data-turn": hd.turn,
      "data-active-seat": hd.activeSeat, "data-step": hd.phase === GamePhase.PLAYING ? stepName(hd.step) : "" },
      match ? h("span", { class: "match", "data-testid": "match-score" }, app.matchLine) : null,
      h("span", { class: "phase" }, phase,
        // The room's id, discreetly (a rematch's new room was told only by a log line, np8).
        app.room ? h("span", { class: "room-id", "data-testid": "room-id",
          title: `Room “${app.room.info.name}”, id ${app.room.info.roomId}` },
        `room ${app.room.info.roomId}`) : null),
      h("span", { class: `prompt ${pending?.seat === app.viewer ? "mine" : ""}`,
        "data-testid": "prompt", "aria-live": "polite" }, who));
  }

  private playerArea(seat: number): HTMLElement {
    const app = this.app;
    const m = app.mirror;
    const p = m.players.get(seat);
    if (!p) return h("div");
    const mine = seat === app.viewer;
    const clock = app.clockNow(seat, Date.now());
    const connected = app.presence.get(seat);
    const seatOptions = app.options.map((o, i) => ({ o, i }))
      .filter(({ o }) => optionSeats(o).includes(seat));
    const battlefield = m.zone(ZoneKind.BATTLEFIELD).filter((o) => o.controller === seat);
    const lands = battlefield.filter((o) => o.cardTypes.includes("Land"));
    const others = battlefield.filter((o) => !o.cardTypes.includes("Land"));
    const hand = m.zone(ZoneKind.HAND, seat);
    const grave = m.zone(ZoneKind.GRAVEYARD, seat);
    const exile = m.zone(ZoneKind.EXILE).filter((o) => o.owner === seat);
    const command = m.zone(ZoneKind.COMMAND).filter((o) => o.controller === seat);
    // Cards of hidden zones this viewer may see for now (revealed, looked at: 701.20): in
    // a zone whose contents the view doesn't list (a delayed every-hand tier lists hands).
    const revealed = [...m.objects.values()].filter((o) => o.owner === seat && o.zone
      && (o.zone.kind === ZoneKind.LIBRARY || o.zone.kind === ZoneKind.HAND)
      && !m.zones.has(zoneKey(o.zone.kind, o.zone.owner)));
    // Whose turn, once one is played (not while the next game's first player is chosen).
    const active = turnBeingPlayed(m.header) && m.header.activeSeat === seat;
    const deciding = m.header.pending?.seat === seat;
    const selected = app.selected?.kind === "player" && app.selected.seat === seat;
    const infoAttrs = {
      class: `player-info ${deciding ? "deciding" : ""} ${selected ? "selected" : ""}`,
      "aria-label": `${p.name}${mine ? " (you)" : ""}: ${p.life} life`,
    };
    const info: Child[] = [
      h("span", { class: "pname" }, p.name, mine ? " (you)" : "",
        active ? h("span", { title: "this player's turn", "aria-label": ", this player's turn" }, " ★") : null),
      // Told by the room (RoomInfo.computers), not by the name: a person may be "Computer".
      app.isComputer(seat) ? h("span", { class: "badge computer", "data-testid": "computer",
        title: "a computer player the server runs" }, "computer") : null,
      h("span", { class: "life", "data-testid": "life", title: "life", "aria-label": `${p.life} life` },
        h("span", { "aria-hidden": "true" }, "♥ "), String(p.life)),
      p.poison ? h("span", { class: "poison", title: "poison counters",
        "aria-label": `${p.poison} poison counters` }, `☠ ${p.poison}`) : null,
      h("span", { title: "cards in library" }, `Library ${p.libraryCount}`),
      h("span", { title: "cards in hand" }, `Hand ${p.handCount}`),
      manaPoolText(p.manaPool) ? h("span", { class: "pool", title: "mana pool" },
        "Pool ", manaCost(manaPoolText(p.manaPool))) : null,
      clock !== null ? h("span", { class: `clock ${app.clocks.get(seat)?.running ? "running" : ""}`,
        "data-clock-seat": seat, title: "time left on this player's clock",
        role: "timer" }, formatClock(clock)) : null,
      connected === false ? h("span", { class: "away", title: "disconnected" }, "disconnected") : null,
      // Why they lost (not "has left the game": that read as a quitter). A player who lost
      // in a game that goes on has left it (800.4a); as a game ends nothing leaves, and its
      // last board stays on the screen.
      p.hasLost ? h("span", { class: "lost", "data-testid": "lost",
        title: app.mirror.gameOver ? "" : "Out of the game: its cards left it, and it goes on "
          + "without this player." }, // (rule 800.4a)
      lostWords(seatName(app, seat), app.playerResults().find((r) => r.seat === seat)?.why ?? "")) : null,
    ];
    return h("section", { class: `player ${mine ? "me" : ""}`, "data-testid": "player",
      "data-seat": seat, "aria-label": `${p.name}'s side` },
      seatOptions.length > 0
        ? h("button", { type: "button", ...infoAttrs, "data-key": `player-${seat}`,
            onclick: () => this.clickPlayer(seat) }, info)
        : h("div", infoAttrs, info),
      h("div", { class: "zone battlefield", "data-zone": "battlefield", "data-owner": seat },
        h("div", { class: "cards" }, others.map((o) => this.card(o))),
        h("div", { class: "cards lands" }, lands.map((o) => this.card(o)))),
      command.length ? this.zoneRow("command", seat, "Command zone", command) : null,
      revealed.length ? this.zoneRow("revealed", seat, "Revealed", revealed) : null,
      mine || hand.length ? this.zoneRow("hand", seat, "Hand", hand) : null,
      h("div", { class: "piles" },
        this.pile("graveyard", seat, "Graveyard", grave),
        this.pile("exile", seat, "Exile", exile)));
  }

  private zoneRow(zone: string, seat: number, title: string, objects: GameObject[]): HTMLElement {
    return h("div", { class: `zone ${zone}`, "data-zone": zone, "data-owner": seat },
      h("h3", null, `${title} (${objects.length})`),
      h("div", { class: "cards" }, objects.map((o) => this.card(o))));
  }

  private pile(zone: string, seat: number, title: string, objects: GameObject[]): HTMLElement {
    const actionable = objects.some((o) => this.optionsFor(o.id).length > 0);
    const key = `${zone}-${seat}`;
    return h("details", { class: `zone pile ${zone}`, "data-zone": zone, "data-owner": seat,
      open: actionable || this.openPiles.has(key),
      ontoggle: (ev: Event) => {
        if ((ev.currentTarget as HTMLDetailsElement).open) this.openPiles.add(key);
        else if (!actionable) this.openPiles.delete(key);
      } },
      h("summary", null, `${title} (${objects.length})`),
      h("div", { class: "cards" }, [...objects].reverse().map((o) => this.card(o))));
  }

  private stackArea(): HTMLElement {
    const m = this.app.mirror;
    const stack = m.zone(ZoneKind.STACK);
    const triggers = m.header.triggers;
    return h("section", { class: "zone stack", "data-zone": "stack", "data-owner": -1,
      "aria-label": "the stack" },
      h("h3", null, stack.length ? `Stack (${stack.length}, top first)` : "Stack (empty)"),
      h("div", { class: "cards" }, [...stack].reverse().map((o) => this.card(o))),
      triggers.length ? h("div", { class: "triggers" }, h("h3", null, "Waiting triggers"),
        h("ul", null, triggers.map((t) => h("li", null, `${t.sourceName}: `, optionSymbols(t.text),
          ` (${this.app.player(t.controller)})`)))) : null);
  }

  private optionsFor(id: string): number[] {
    return this.app.options.map((o, i) => ({ o, i }))
      .filter(({ o }) => optionObjects(o).includes(id)).map(({ i }) => i);
  }

  private card(o: GameObject): HTMLElement {
    const app = this.app;
    const indices = this.optionsFor(o.id);
    const selected = app.selected?.kind === "object" && app.selected.id === o.id;
    const attached = o.attachedTo ? app.object(o.attachedTo) : undefined;
    // Which attacker is blocked: of three alike attackers, the one a second blocker joins.
    const blockers = o.attacking !== undefined
      ? [...app.mirror.objects.values()].filter((b) => b.blocking.includes(o.id)) : [];
    const classes = ["card", o.tapped ? "tapped" : "", indices.length ? "actionable" : "",
      selected ? "selected" : "", o.attacking !== undefined || o.attackingPlaneswalker ? "attacking" : "",
      o.blocking.length ? "blocking" : "", o.faceDown ? "face-down" : "",
      o.isAbility ? "ability" : "", colorClass(o)].filter(Boolean).join(" ");
    const badges: Child[] = [
      o.tapped ? h("span", { class: "badge" }, "tapped") : null,
      // Rule 502.3: an effect (Frost Breath) keeps it tapped through its controller's next
      // untap step -- public, as the effect was.
      o.doesntUntap ? h("span", { class: "badge", "data-testid": "doesnt-untap",
        title: "It doesn't untap during its controller's next untap step." }, "doesn't untap next turn") : null,
      // Summoning sickness (302.6) keeps a creature from attacking and {T} abilities in its
      // controller's turn only -- never from blocking: shown then (on blockers and an
      // opponent's creatures in your turn it read as "can't block"), and not with haste.
      o.summoningSick && o.cardTypes.includes("Creature") && o.controller === app.mirror.header.activeSeat
        && !o.keywords.some((k) => k.toLowerCase() === "haste")
        ? h("span", { class: "badge", "data-testid": "sick" }, "summoning sick") : null,
      o.isToken ? h("span", { class: "badge" }, "token") : null,
      o.attacking !== undefined ? h("span", { class: "badge attack" },
        `attacking ${o.attackingPlaneswalker ? objectName(app, o.attackingPlaneswalker) : seatName(app, o.attacking)}`) : null,
      blockers.length ? h("span", { class: "badge block" },
        `blocked by ${blockers.map((b) => objectName(app, b.id)).join(", ")}`) : null,
      o.blocking.length ? h("span", { class: "badge block" },
        `blocking ${o.blocking.map((id) => objectName(app, id)).join(", ")}`) : null,
      o.damage ? h("span", { class: "badge damage" }, `${o.damage} damage`) : null,
      o.counters.map((c) => h("span", { class: "badge counter" }, `${c.count} × ${c.kind}`)),
      o.xValue !== undefined ? h("span", { class: "badge" }, `X=${o.xValue}`) : null,
      o.libraryPosition !== undefined ? h("span", { class: "badge" },
        o.libraryPosition === 0 ? "top of library" : `library, ${o.libraryPosition + 1} from the top`) : null,
      attached ? h("span", { class: "badge" }, `attached to ${attached.name || "a card"}`) : null,
      o.stickers.map((s) => h("span", { class: "badge" }, `sticker: ${s.text}`)),
      // Rule 614.12a: the card name chosen as it entered (Runed Halo), public information.
      o.chosenName ? h("span", { class: "badge" }, `named: ${o.chosenName}`) : null,
    ];
    // (A Treasure token, say, has no power or toughness to show: only a creature's, 208.3.)
    const pt = o.power !== undefined && o.toughness !== undefined
      && o.cardTypes.includes("Creature") ? `${o.power}/${o.toughness}` : "";
    const typeLine = [[...o.supertypes, ...o.cardTypes].join(" "), o.subtypes.join(" ")]
      .filter(Boolean).join(" — ");
    const body: Child[] = o.faceDown && !o.name
      ? [h("div", { class: "card-name" }, "Face-down card")]
      : [
        h("div", { class: "card-head" }, h("span", { class: "card-name" }, o.name || "a card"),
          o.manaCost ? manaCost(o.manaCost) : null),
        o.isAbility ? h("div", { class: "card-type" }, "Ability")
          : typeLine ? h("div", { class: "card-type" }, typeLine) : null,
        // (An ability's {T} drawn as the tap symbol, as in the rules text: it read "{T}".)
        o.isAbility ? h("div", { class: "card-text" }, rulesText(o.abilityText))
          : o.rulesText ? h("div", { class: "card-text" }, rulesText(o.rulesText)) : null,
        // Keywords it has now that its text doesn't show (granted by effects, layer 6).
        !o.isAbility && extraKeywords(o).length
          ? h("div", { class: "card-keywords" }, extraKeywords(o).join(", ")) : null,
        o.targets.length ? h("div", { class: "card-targets" }, "Targets: ",
          o.targets.map((t) => targetText(app, t, true)).join(", ")) : null,
        h("div", { class: "card-foot" }, h("span", { class: "badges" }, badges),
          pt ? h("span", { class: "pt", title: "power/toughness" }, pt) : null),
      ];
    // A spell in the viewer's hand that can't be cast now: why, asked on hover or click
    // (ExplainCard) -- it was just not highlighted, and its rules text said nothing of why.
    const askable = indices.length === 0 && o.zone?.kind === ZoneKind.HAND
      && o.zone.owner === app.viewer && app.viewer >= 0 && !o.cardTypes.includes("Land");
    const why = askable ? app.whyNot(o.id) : undefined;
    // (Above the card's foot -- badges, power/toughness -- under its rules text.)
    if (why) body.splice(Math.max(body.length - 1, 0), 0, h("div", { class: "card-why", "data-testid": "why" }, why));
    const label = `${o.faceDown && !o.name ? "face-down card" : o.name}${o.tapped ? ", tapped" : ""}`
      + (indices.length ? `: ${indices.length} option${indices.length > 1 ? "s" : ""}` : "")
      + (why ? `: ${why}` : "");
    const text = o.rulesText || o.abilityText || o.name;
    const attrs = { class: classes, "data-testid": "card", "data-id": o.id, "data-name": o.name,
      "data-key": `card-${o.id}`, title: why ? `${why}\n\n${text}` : text, "aria-label": label };
    const ask = askable ? { onmouseenter: () => app.explainCard(o.id),
      onclick: () => app.explainCard(o.id) } : {};
    return indices.length
      ? h("button", { type: "button", ...attrs, onclick: () => this.clickCard(o.id) }, body)
      : h("div", { ...attrs, ...ask }, body);
  }

  private clickCard(id: string): void {
    this.app.clickObject(id);
  }

  private clickPlayer(seat: number): void {
    const indices = this.app.options.map((o, i) => ({ o, i }))
      .filter(({ o }) => optionSeats(o).includes(seat)).map(({ i }) => i);
    if (indices.length === 1 && indices[0] !== undefined) this.app.act(indices[0]);
    else this.app.select({ kind: "player", seat });
  }

  /** While priority is passed until end of turn: that it is, and a button to stop. */
  private passingPanel(): HTMLElement | null {
    const app = this.app;
    const p = app.passing;
    if (p === null) return null;
    return h("section", { class: "panel passing", "data-testid": "passing", role: "status" },
      h("p", null, `Passing priority until the end of turn ${p.turn}, or until something new is `
        + "on the stack (other decisions still ask you)."),
      h("button", { type: "button", "data-testid": "stop-passing", "data-key": "stop-passing",
        onclick: () => app.stopPassing() }, "Stop passing"));
  }

  private decisionPanel(): HTMLElement | null {
    const app = this.app;
    const d = app.decision;
    if (!d) return null;
    const sent = app.sentPrompt === d.promptId;
    // (Passed for the player by the stops setting: no panel flashing "Sent…" at each step.)
    if (sent && app.autoPassedPrompt === d.promptId) return null;
    const sel = app.selected;
    // Alike options once (four Forests in the hand: one "Play Forest"), the selection's
    // first; each shows the key that picks it (the Nth shown, or choosing X, X's value).
    const shown = app.shownOptions;
    const choosingX = d.kind === DecisionKind.CHOOSE_X;
    const optionButton = (s: (typeof shown)[number]) => {
      const o = d.options[s.index];
      const ids = [...new Set(s.indices.flatMap((i) => (d.options[i] ? optionObjects(d.options[i]) : [])))];
      // Pointing at an option (mouse or keyboard focus) marks the cards it names.
      const hint = (on: boolean) => () => markCards(ids, on);
      return h("button", { type: "button", class: `option ${s.related ? "related" : ""}`,
        "data-testid": "option", "data-index": s.index, "data-kind": o?.kind.case ?? "unknown",
        "data-key": `opt-${s.index}`, disabled: sent,
        title: o?.kind.case === "cancelCast" ? "Key: C (or Esc)" : undefined,
        onclick: () => app.act(s.index), onmouseenter: hint(true), onmouseleave: hint(false),
        onfocus: hint(true), onblur: hint(false) },
        s.key !== null ? h("kbd", { "aria-hidden": "true" }, String(s.key))
          : o?.kind.case === "cancelCast" ? h("kbd", { "aria-hidden": "true" }, "C") : null,
        // One flex item: text and mana symbols as separate items made narrow columns.
        h("span", { class: "option-label" }, optionSymbols(s.label)));
    };
    const button = (s: (typeof shown)[number]) => h("li", null, optionButton(s));
    // Cancel apart from the numbered list, unnumbered (keys C and Escape), as the terminal's `c`.
    const isCancel = (s: (typeof shown)[number] | undefined) =>
      d.options[s?.index ?? -1]?.kind.case === "cancelCast";
    const buttons = shown.map(button);
    const first = buttons.filter((_, n) => shown[n]?.related && !isCancel(shown[n]));
    const rest = buttons.filter((_, n) => !shown[n]?.related && !isCancel(shown[n]));
    const cancel = shown.find(isCancel);
    const selName = sel === null ? "" : sel.kind === "object" ? objectName(app, sel.id) : app.player(sel.seat);
    // Declaring blockers: what the next click does with the creature selected.
    const role = sel?.kind === "object" ? app.blockRole(sel.id) : "";
    const pairHint = role === "blocker" ? "Click the attacking creature it blocks, or:"
      : role === "attacker" ? "Click the creature of yours that blocks it, or:" : "";
    // Priority: pass it until the turn ends (the terminal's pp), as Arena's "pass turn".
    const passTurn = d.kind === DecisionKind.PRIORITY && app.room?.role === Role.PLAYER
      && d.options.some((o) => o.kind.case === "passPriority");
    const ordering = d.kind === DecisionKind.ORDER_GRAVEYARD;
    return h("section", { class: "panel decision", "data-testid": "decision",
      "data-prompt-id": String(d.promptId), "aria-labelledby": "decision-h" },
      h("h2", { id: "decision-h" }, "Your decision"),
      h("p", { class: "decision-prompt" }, d.prompt || decisionName(d.kind)),
      // Why the order is asked, and that it seldom matters (404.3), as the terminal says.
      ordering ? h("p", { class: "hint", "data-testid": "graveyard-order-why" }, GRAVEYARD_ORDER_TEXT) : null,
      // (Each in a box with the options list's scrollbar gutter: as wide as the options.)
      ordering ? h("div", { class: "options-wide" }, h("button", { type: "button", class: "option",
        "data-testid": "any-order", "data-key": "any-order", disabled: sent, title: "Key: A",
        onclick: () => app.answerAnyOrder() },
      h("kbd", { "aria-hidden": "true" }, "A"), "Any order (as listed)")) : null,
      app.passingNote ? h("p", { class: "notice", "data-testid": "passing-note" }, app.passingNote) : null,
      sent ? h("p", { class: "hint" }, "Sent…") : null,
      // Nothing to do but pass (117.3): passed after a human-like wait (app.ts autoPass).
      !sent && app.passingSoon === d.promptId ? h("p", { class: "hint", "data-testid": "passing-soon" },
        "Nothing to do but pass: passing for you in a moment.") : null,
      app.decisionNote ? h("p", { class: "error", role: "alert", "data-testid": "decision-note" },
        app.decisionNote) : null,
      first.length ? h("div", null, h("h3", null, `For ${selName}:`),
        pairHint ? h("p", { class: "hint", "data-testid": "pair-hint" }, pairHint) : null,
        optionList(first, "first")) : null,
      optionList(rest, "rest"),
      cancel ? h("div", { class: "options-wide cancel-cast" }, optionButton(cancel)) : null,
      passTurn ? h("div", { class: "options-wide" }, h("button", { type: "button", class: "pass-turn",
        "data-testid": "pass-turn", "data-key": "pass-turn", disabled: sent, title: "Key: T",
        onclick: () => app.passTurn() }, h("kbd", { "aria-hidden": "true" }, "T"),
      "Pass until end of turn")) : null,
      h("p", { class: "hint" }, "Click a highlighted card or player, or an option. Keys: ",
        choosingX ? "0-9 pick X's value, " : "1-9 pick an option, ", "P passes priority",
        passTurn ? ", T passes until the turn ends (or something new is on the stack)" : "",
        ordering ? ", A takes any order" : "",
        app.cancellable ? (sel !== null ? ", C cancels the cast (Cancel; Esc clears the selection, then cancels it)."
          : ", C or Esc cancels the cast (Cancel).") : "."));
  }

  private eventLog(): HTMLElement {
    const app = this.app;
    const list = this.logList;
    // The whole game's log (up to LOG_LINES, numbered as in the game: `start` after lines
    // dropped), built again only when it changed. A new line scrolls it down, unless the
    // player scrolled up to read back (the start of a long game).
    const top = list.isConnected ? list.scrollTop : 0;
    const atEnd = !list.isConnected || list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    const grew = app.logChanges !== this.logShown && atEnd;
    if (app.logChanges !== this.logShown) {
      this.logShown = app.logChanges;
      list.start = app.logDropped + 1;
      // Room for the numbers' digits ("2140.").
      list.style.paddingLeft = `${Math.max(2, String(app.logDropped + app.log.length).length) + 2}ch`;
      list.replaceChildren(...app.log.map((line) => h("li", null, line)));
    }
    // The panel's heading and list are put in by placeLog once the board is patched: the
    // list stays in the page from render to render (taken out and put back, it lost its
    // scrolling and was laid out again, every render).
    this.logScroll = { top, grew };
    return slot(h("section", { class: "panel log-panel" }));
  }

  /** Puts the log's heading and list in its panel (see eventLog) and scrolls the list: down
   * to a new line, or back to where it was if it was put back. */
  private placeLog(): void {
    const list = this.logList;
    const panel = this.game.querySelector(".log-panel");
    if (panel === null) return;
    const { top, grew } = this.logScroll;
    if (list.parentNode !== panel) {
      panel.replaceChildren(h("h2", null, "Game log"), list);
      if (!grew && top > 0) list.scrollTop = top;
    }
    if (grew) list.scrollTop = list.scrollHeight;
  }

  private roomControls(): HTMLElement {
    const app = this.app;
    const room = app.room;
    // (A player who lost has nothing to concede: the game goes on without them.)
    const playing = app.canConcede;
    const inMatch = room?.role === Role.PLAYER && app.match !== null
      && app.match.phase !== MatchPhase.OVER;
    if (!playing && !inMatch) this.armed = null; // (a question left armed asks nothing later)
    const hidden = room?.role === Role.PLAYER ? hiddenTiersText(room.info.tiers, room.info.players) : "";
    return h("section", { class: "panel controls" },
      h("p", { class: "hint" }, `Room “${room?.info.name ?? ""}”`,
        room?.role === Role.SPECTATOR ? ` — watching ${watchingText(room.info, room.tier)}` : ""),
      app.deckWords ? h("p", { class: "hint", "data-testid": "your-deck" },
        `You play ${app.deckWords}.`) : null,
      hidden ? h("p", { class: "notice", "data-testid": "hidden-tiers" }, hidden) : null,
      room?.role === Role.PLAYER ? this.stopsControl() : null,
      this.inviteDetails(),
      playing ? this.confirmButton("concede", "Concede", app.concedeQuestion, () => app.concede(),
        { class: "danger" }) : null,
      inMatch ? this.confirmButton("leave", "Leave (concedes the match)",
        "Leaving concedes the match: leave?", () => app.leaveRoom(), { "data-testid": "leave-room" })
      : playing ? this.confirmButton("leave", "Leave (concedes)", "Leaving concedes: leave?",
        () => app.leaveRoom(), { "data-testid": "leave-room" })
        : h("button", { type: "button", "data-testid": "leave-room", "data-key": "leave",
          onclick: () => app.leaveRoom() }, "Leave room"));
  }

  /** The invite links of a room this tab created, during its game (folded: a friend who
   * comes late may still watch, or play the match's next game). */
  private inviteDetails(): HTMLElement | null {
    const links = this.app.roomInviteLinks();
    if (links.length === 0) return null;
    return h("details", { class: "room-invite", "data-testid": "room-invite" },
      h("summary", null, "Invite links"),
      links.map(({ label, link }) => h("div", null, h("p", { class: "hint" }, label), inviteBox(link))));
  }

  /** The lasting setting of when the client stops for priority (stops.ts), and what it does. */
  private stopsControl(): HTMLElement {
    const app = this.app;
    return h("div", { class: "stops", "data-testid": "stops", "data-stops": app.stops },
      h("label", null, h("input", { type: "checkbox", "data-testid": "stop-every-step",
        "data-key": "stop-every-step", checked: app.stops === "all",
        onchange: (ev: Event) => app.setStops((ev.target as HTMLInputElement).checked ? "all" : "auto") }),
      " Stop at every step (full control)"),
      h("p", { class: "hint", "data-testid": "stops-text" }, stopText(app.stops)));
  }

  /** A destructive button that asks once more (its label becomes the question, with a
   * "No" beside it; no modal dialog). The question stays until answered -- it went away after
   * 4 s, before a new player had read it (a new player's review) -- and survives re-renders. */
  private confirmButton(key: string, label: string, question: string, act: () => void,
                        attrs: Record<string, string>): HTMLElement {
    const armed = this.armed?.key === key;
    const button = h("button", { type: "button", "data-key": key, ...attrs,
      onclick: () => {
        if (this.armed?.key === key) {
          this.armed = null;
          act();
          return;
        }
        this.armed = { key };
        this.render();
      } }, armed ? question : label);
    if (!armed) return button;
    return h("span", { class: "confirm" }, button, " ",
      h("button", { type: "button", "data-key": `${key}-no`, "data-testid": "confirm-no",
        onclick: () => { this.armed = null; this.render(); } }, "No"));
  }

  // ---- clocks and keys
  tickClocks(): void {
    const now = Date.now();
    for (const el of document.querySelectorAll<HTMLElement>("[data-clock-seat]")) {
      const ms = this.app.clockNow(Number(el.dataset.clockSeat), now);
      if (ms !== null) setText(el, formatClock(ms));
    }
    for (const el of document.querySelectorAll<HTMLElement>("[data-sideboard-left]")) {
      setText(el, formatClock(this.app.sideboardLeft(now)));
    }
  }

  key(ev: KeyboardEvent): void {
    // (Typed into a text box, not a shortcut; a ticked checkbox keeps its focus, and the
    // shortcuts must still work.)
    if (takesKeys(ev.target as (HTMLElement & { type?: string }) | null)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (replayKey(this.app, ev)) return;
    if (ev.repeat) return;
    const opts = this.app.options;
    if (opts.length === 0) return;
    if (ev.key === "p" || ev.key === "P" || ev.key === "F2") {
      const i = opts.findIndex((o) => o.kind.case === "passPriority");
      if (i >= 0) { ev.preventDefault(); this.app.act(i); }
    } else if (ev.key === "t" || ev.key === "T") {
      if (opts.some((o) => o.kind.case === "passPriority")) { ev.preventDefault(); this.app.passTurn(); }
    } else if ((ev.key === "a" || ev.key === "A") && this.app.decision?.kind === DecisionKind.ORDER_GRAVEYARD) {
      ev.preventDefault();
      this.app.answerAnyOrder();
    } else if (/^[0-9]$/.test(ev.key)) {
      // The option shown with that key: the Nth (alike ones once, the selection's first),
      // or choosing X, X = N.
      if (this.app.actKey(Number(ev.key))) ev.preventDefault();
    } else if (ev.key === "c" || ev.key === "C") {
      // Takes the cast back (the Cancel option, never numbered), as the terminal's `c`.
      if (this.app.cancelCast()) ev.preventDefault();
    } else if (ev.key === "Escape") {
      // Clears the selection, or with none, cancels the cast (the Cancel option).
      if (this.app.escape()) ev.preventDefault();
    }
  }
}

/** A listed room; `acting` is called as the player joins or watches it. */
function roomRow(app: App, r: RoomInfo, acting: () => void): HTMLElement {
  const format = r.format === DeckFormat.LIMITED ? "limited" : "constructed";
  const watchable = r.spectate === Spectate.ALLOWED || r.spectate === Spectate.UNSPECIFIED;
  const state = r.finished ? "finished" : r.started ? "playing" : `${r.players.length}/${r.seats} seated`;
  return h("li", { class: "room-row", "data-testid": "room-row", "data-room-id": r.roomId },
    h("span", { class: "room-name" }, r.name || "(unnamed)"),
    h("span", { class: "hint" }, ` ${state}, ${format}, ${clockText(r.clockSeconds)}`,
      r.bestOf > 1 ? `, best of ${r.bestOf}` : "",
      r.bestOf > 1 && r.started ? ` (game ${r.gameNumber}, ${r.wins.join("–")})` : "",
      r.players.length ? ` — ${r.players.join(", ")}` : "",
      r.spectators ? ` — ${r.spectators} watching` : ""),
    !r.started && r.players.length < r.seats
      ? h("button", { type: "button", "data-testid": "join-player", "data-key": `join-${r.roomId}`,
          "data-plain": "Join",
          onclick: () => { acting(); app.join(r.roomId, Role.PLAYER, deckText(), ""); } }, "Join") : null,
    watchable && !r.finished
      ? h("button", { type: "button", "data-testid": "join-spectator", "data-key": `watch-${r.roomId}`,
          onclick: () => { acting(); app.join(r.roomId, Role.SPECTATOR, "", ""); } }, "Watch") : null,
    replayButtons(app, r, acting),
    // Delayed tiers: one this viewer may watch (an account it names, or the code this client
    // has); one allowed by the invite code says so and fills the join form, to type the
    // code in; one for named accounts only has no button.
    r.finished ? null : r.tiers.map((t, i) => {
      const access = app.tierAccess(r, i + 1);
      if (access === "accounts") return null;
      const attrs = { type: "button", "data-testid": "join-tier", "data-tier": i + 1,
        "data-key": `tier-${r.roomId}-${i + 1}`, "data-needs": access === "invite" ? "invite" : null };
      if (access === "invite") {
        return h("button", { ...attrs, onclick: () => {
          byId<HTMLInputElement>("join-room-id").value = r.roomId;
          byId<HTMLInputElement>("join-room-id").dispatchEvent(new Event("input"));
          byId<HTMLSelectElement>("join-tier").value = String(i + 1);
          byId<HTMLInputElement>("join-invite").focus();
        } }, `Watch ${tierText(t, r.players)} (with the room's invite code)`);
      }
      return h("button", { ...attrs, onclick: () => {
        acting(); app.join(r.roomId, Role.SPECTATOR, "", access.code, i + 1); } },
      `Watch ${tierText(t, r.players)}`);
    }));
}

function watchingText(info: RoomInfo, tier: number): string {
  const t = tier > 0 ? info.tiers[tier - 1] : undefined;
  return t ? tierText(t, info.players) : "live (public information)";
}

function inviteBox(link: string): HTMLElement {
  const input = kept(h("input", { "data-testid": "invite-link", readonly: true, value: link,
    "aria-label": "invite link", onfocus: (ev: Event) => (ev.target as HTMLInputElement).select() }));
  return h("div", { class: "invite" }, input,
    h("button", { type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(link); } catch { input.select(); }
    } }, "Copy"));
}

/** Sets an element's text only if it changed: a clock ticks twice a second and shows whole
 * seconds, and each write had the browser lay out and paint the page again. */
function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

function deckText(): string {
  const el = document.getElementById("deck-text") as HTMLTextAreaElement | null;
  return el?.value ?? "";
}


/** A decision's list of options and, while some of them are out of its view below (it
 * scrolls: a long list stays on the screen), a button saying how many, which scrolls to
 * them: a player saw nine options and took them for all. */
function optionList(items: HTMLElement[], kind: "first" | "rest"): Child[] {
  // (Both kept as they are: the listeners below hold them.)
  const list = kept(h("ol", { class: `options ${kind}` }, items));
  const more = kept(h("button", { type: "button", class: "more-options", "data-testid": "more-options",
    tabindex: -1, hidden: true,
    onclick: () => list.scrollBy({ top: Math.max(40, list.clientHeight - 40) }) }));
  const update = () => {
    const bottom = list.getBoundingClientRect().bottom;
    const below = [...list.children].filter((li) => li.getBoundingClientRect().bottom > bottom + 1).length;
    more.hidden = below === 0;
    more.textContent = `↓ ${below} more option${below === 1 ? "" : "s"} below: scroll the list`;
  };
  list.addEventListener("scroll", update, { passive: true });
  requestAnimationFrame(update); // once laid out
  return [list, more];
}

/** A mana cost as symbols, each with its words for screen readers and a tooltip. */
export function manaCost(cost: string): HTMLElement {
  return h("span", { class: "cost" }, manaSymbols(cost).map((sym) => {
    const inner = sym.slice(1, -1);
    const cls = /^[WUBRGC]$/.test(inner) ? `mana-${inner}` : inner === "T" ? "mana-tap" : "mana-generic";
    // {T}, the tap symbol (107.5): an arrow turning, as on the cards, not a "T" in a circle.
    return h("span", { class: `mana ${cls}`, role: "img", "aria-label": manaSymbolWords(sym),
      title: manaSymbolWords(sym) }, inner === "T" ? "↷" : inner);
  }));
}

/** Text with {X}-style symbols drawn as mana symbols. */
function optionSymbols(text: string): Child[] {
  const parts = text.split(/(\{[^}]+\})/);
  return parts.filter(Boolean).map((p) => (p.startsWith("{") ? manaCost(p) : p));
}

function rulesText(text: string): Child[] {
  return text.split("\n").map((line) => h("p", null, optionSymbols(line)));
}

function manaPoolText(pool: { white: number; blue: number; black: number; red: number;
  green: number; colorless: number } | undefined): string {
  if (!pool) return "";
  const parts: [number, string][] = [[pool.white, "W"], [pool.blue, "U"], [pool.black, "B"],
    [pool.red, "R"], [pool.green, "G"], [pool.colorless, "C"]];
  return parts.map(([n, l]) => `{${l}}`.repeat(n)).join("");
}

function extraKeywords(o: GameObject): string[] {
  const text = o.rulesText.toLowerCase();
  return o.keywords.filter((k) => !text.includes(k.toLowerCase()));
}

function colorClass(o: GameObject): string {
  if (o.colors.length > 1) return "multi";
  if (o.colors.length === 1) return `color-${o.colors[0]}`;
  return o.cardTypes.includes("Land") ? "land" : "colorless";
}

function formatClock(ms: number): string {
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

function markCards(ids: string[], on: boolean): void {
  for (const id of ids) {
    for (const el of document.querySelectorAll(`[data-testid=card][data-id="${CSS.escape(id)}"]`)) {
      el.classList.toggle("hinted", on);
    }
  }
}


/** A stand-in for the browser's WebSocket (Node 20 has none): records what the client sends
 * and lets a test deliver server frames, so the App's real protocol logic runs unchanged. */
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { App } from "../src/app";
import type { View } from "../src/gen/protocol/v1/game_pb";
import {
  ClientMessageSchema, Role, ServerMessageSchema, type ClientMessage,
} from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";

export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];

  readyState = FakeSocket.CONNECTING;
  binaryType = "blob";
  sent: ClientMessage[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  send(data: Uint8Array): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error("send on a socket that isn't open");
    this.sent.push(fromBinary(ClientMessageSchema, data));
  }

  /** As a browser's: a page may close with 1000 or 3000-4999 only. */
  close(code?: number, reason?: string): void {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999)) {
      throw new Error(`InvalidAccessError: close code ${code} is not allowed from a page`);
    }
    this.readyState = FakeSocket.CLOSED;
    this.closedWith = { code: code ?? 1005, reason: reason ?? "" };
  }

  closedWith: { code: number; reason: string } | null = null;

  // ---- test side
  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.({});
  }

  deliver(msg: MessageInitShape<typeof ServerMessageSchema>): void {
    const bytes = toBinary(ServerMessageSchema, create(ServerMessageSchema, msg));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    this.onmessage?.({ data: buffer });
  }

  drop(code = 1006, reason = ""): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason });
  }

  /** The last message sent, which must be of body `kind`. */
  last<K extends NonNullable<ClientMessage["body"]["case"]>>(kind: K):
      Extract<ClientMessage["body"], { case: K }>["value"] & { requestId: bigint } {
    const msg = this.sent.at(-1);
    if (!msg || msg.body.case !== kind) {
      throw new Error(`expected the client to send ${kind}, it sent ${msg?.body.case ?? "nothing"}`);
    }
    return Object.assign(msg.body.value, { requestId: msg.requestId }) as never;
  }
}

/** Install the fake as the global WebSocket; returns a function that ends the test's use
 * of it. The fake stays installed: a page a test left reconnecting (a dropped connection's
 * reconnect timer fires after the test) must reach no network. Put back, Node 22+'s own
 * WebSocket tried ws://server/ for the app's two minutes of reconnecting, and the test file
 * ran that long; Node 20, which has none, threw "WebSocket is not a constructor". */
export function installFakeSocket(): () => void {
  const g = globalThis as { WebSocket?: unknown };
  g.WebSocket = FakeSocket;
  FakeSocket.all = [];
  return () => { FakeSocket.all = []; };
}

/** Signed in as a new guest, Ann#0001, in the lobby (after installFakeSocket); with
 * `accountToken`, the welcome carries one (as a server's first welcome of a guest does). */
export function signedIn(accountToken = ""): { app: App; ws: FakeSocket } {
  const app = new App("ws://server/", "http://server/", null);
  app.signInGuest("Ann");
  const ws = FakeSocket.all.at(-1)!;
  ws.open();
  ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
    resumeToken: "r1", accountToken, account: { accountId: "a", name: "Ann#0001" } } } });
  return { app, ws };
}

/** Seated (seat 0) in room "r", its game started, holding `view` at `stateId`. */
export function seatedIn(ws: FakeSocket, view: View, stateId = 5n): void {
  ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
    room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
  ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId, view,
    viewHash: viewHash(view) } } });
}

/** A step of a game test: `edit` changes `view`, which is then delivered as the next delta
 * (its header, and with `players` each player too) with `events`; state ids count on from
 * `stateId`. */
export function deltaStepper(ws: FakeSocket, view: View, stateId = 5n, players = false):
    (edit: () => void, events?: { kind: { case: string; value: object } }[]) => void {
  let state = stateId;
  return (edit, events = []) => {
    edit();
    ws.deliver({ body: { case: "delta", value: { prevStateId: state, stateId: state + 1n, ops: [
      { op: { case: "setHeader", value: view.header! } },
      ...(players ? view.players.map((p) => ({ op: { case: "setPlayer" as const, value: p } })) : [])],
    viewHash: viewHash(view), events: events as never } } });
    state++;
  };
}

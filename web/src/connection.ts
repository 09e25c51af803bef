/**
 * One WebSocket to the server, speaking protocol v1 (protocol/README.md, "Transport"):
 * binary frames, one ClientMessage each way out; in, one ServerMessage per frame until the
 * server confirms batching (`Welcome.batched`), then one ServerBatch per frame.
 *
 * This layer knows nothing of games: it frames, numbers requests and reports the socket's
 * life. Reconnecting and resuming are the app's (it knows the resume token and state id).
 */
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import {
  ClientMessageSchema, ServerBatchSchema, ServerMessageSchema, type ServerMessage,
} from "./gen/protocol/v1/messages_pb";

export const PROTOCOL_VERSION = 1;
/** Close codes with a meaning for the client (protocol/README.md, "Close codes"). */
export const CLOSE_REPLACED = 4001;
/** The code this client closes with when it can't read a frame (application range). */
export const CLOSE_UNREADABLE = 4000;

export type ClientBody = MessageInitShape<typeof ClientMessageSchema>["body"];

/** Unknown fields are dropped while decoding, so nothing this schema doesn't know is ever
 * hashed (protocol/README.md, "Versioning"). */
const READ = { readUnknownFields: false } as const;

/** Decode one frame: a ServerMessage, or (once batching is on) a ServerBatch. */
export function decodeFrame(data: Uint8Array, batched: boolean): ServerMessage[] {
  if (batched) {
    const batch = fromBinary(ServerBatchSchema, data, READ);
    if (batch.messages.length === 0) throw new Error("an empty batch frame");
    return batch.messages;
  }
  return [fromBinary(ServerMessageSchema, data, READ)];
}

export interface ConnectionEvents {
  /** The socket is open: say Hello or Resume now. */
  open(): void;
  message(msg: ServerMessage): void;
  /** The socket closed (or never opened); `code` 1006 when it dropped. */
  closed(code: number, reason: string): void;
}

export class Connection {
  private ws: WebSocket | null = null;
  private nextRequest = 1n;
  /** The server sends ServerBatch frames on this socket (it confirmed in a Welcome). */
  private batched = false;

  constructor(private readonly url: string, private readonly events: ConnectionEvents) {}

  get isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Open a new socket (closing any previous one without reporting it). */
  open(): void {
    this.drop();
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.batched = false;
    ws.onopen = () => { if (this.ws === ws) this.events.open(); };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws !== ws) return;
      if (!(ev.data instanceof ArrayBuffer)) return; // the server sends binary frames only
      let messages: ServerMessage[];
      try {
        messages = decodeFrame(new Uint8Array(ev.data), this.batched);
      } catch (err) {
        console.error("undecodable frame from the server", err);
        // Browsers let a page close with 1000 or 3000-4999 only; the app reconnects and
        // resumes, so nothing the server sent is lost.
        ws.close(CLOSE_UNREADABLE, "undecodable frame");
        return;
      }
      for (const msg of messages) {
        const welcome = msg.body.case === "welcome" ? msg.body.value
          : msg.body.case === "resumed" ? msg.body.value.welcome : undefined;
        // Every frame after a Welcome that confirms batching is a batch.
        if (welcome?.batched) this.batched = true;
        this.events.message(msg);
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.events.closed(ev.code, ev.reason);
    };
  }

  /** Send a request; returns its request id (echoed by the server's answer). */
  send(body: ClientBody): bigint {
    const requestId = this.nextRequest++;
    if (this.ws === null || this.ws.readyState !== WebSocket.OPEN) return requestId;
    const msg = create(ClientMessageSchema, { requestId, body });
    this.ws.send(toBinary(ClientMessageSchema, msg));
    return requestId;
  }

  /** Close the socket without reporting it (the app chose to). */
  drop(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws !== null) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close(1000, "bye");
    }
  }
}

/** The WebSocket URL of the server that served this page (same host and port). */
export function serverUrl(loc: Location): string {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/`;
}

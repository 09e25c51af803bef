// A client's local mirror of its view, kept current by applying deltas: a port of
// client_sdk/mirror.py (protocol/README.md, "Views, state ids and hashes").
//
// Each delta names the state it applies to (prev_state_id) and carries the hash of the
// resulting view (./viewhash.ts); the mirror checks both and throws MirrorDesyncError on a gap
// or a mismatch, after which the client sends RequestSnapshot and loads the Snapshot it gets.
// The hash is kept element by element (an op replaces or drops one element's digest), so a
// delta costs a digest per element it changes, not a re-encoding of the whole view.
//
// A delta is applied all or nothing: if it doesn't fit (an unknown op, a wrong hash) the
// mirror is left at its last verified state, so it can still be shown while resyncing.
//
// A newer v1 server may send fields this schema doesn't know (protocol/README.md,
// "Versioning": all numbered 1000 or above, and not hashed). Decoded with
// readUnknownFields (protobuf-es' default) they are kept as unknown fields; the mirror drops
// them from every element it keeps, as a runtime that discards them while decoding would.

import { create } from "@bufbuild/protobuf";
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import {
  GameHeaderSchema,
  GameObjectSchema,
  PlayerSchema,
  ViewSchema,
  ZoneContentsSchema,
} from "./gen/protocol/v1/game_pb";
import type {
  Delta,
  GameHeader,
  GameObject,
  Player,
  Snapshot,
  View,
  ZoneContents,
  ZoneKind,
} from "./gen/protocol/v1/game_pb";
import {
  HEADER,
  OBJECT,
  PLAYER,
  ViewDigest,
  ZONE,
  discardUnknownFields,
  headerKey,
  objectKey,
  playerKey,
  zoneElementKey,
} from "./viewhash";

/** The mirror missed a state, got an op it doesn't know, or disagrees with the server's view
 * hash: ask for a snapshot (RequestSnapshot) and load it. */
export class MirrorDesyncError extends Error {
  override name = "MirrorDesyncError";
}

/** The key of a zone in `Mirror.zones`: its kind and owner (-1 for shared zones). */
export function zoneKey(kind: ZoneKind | number, owner: number): string {
  return `${kind}:${owner}`;
}

/** `message` (an element the mirror keeps) without the fields its schema doesn't know. */
function known<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>
): MessageShape<Desc> {
  return discardUnknownFields(schema, message);
}

/** A zone's element of the view: the form both the server and the reference mirror hash. */
function zoneContents(kind: number, owner: number, ids: readonly string[]): ZoneContents {
  return create(ZoneContentsSchema, { zone: { kind, owner }, objectIds: [...ids] });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The latest known view of one game, as protocol messages. */
export class Mirror {
  /** The state id of the view held (0n: no snapshot loaded, or the last one didn't check). */
  stateId = 0n;
  /** The viewer's seat, -1 for a spectator. */
  viewer = 0;
  header: GameHeader = create(GameHeaderSchema);
  /** Players by seat. */
  players = new Map<number, Player>();
  /** Visible objects by id. */
  objects = new Map<string, GameObject>();
  /** The ordered object ids of each visible zone, by `zoneKey(kind, owner)`. */
  zones = new Map<string, string[]>();
  private digest = new ViewDigest();

  /** Whether a snapshot has been received (and checked). */
  get ready(): boolean {
    return this.stateId !== 0n;
  }

  /** Replace the mirror with a full view. If its hash doesn't check, the view is kept but
   * the mirror isn't `ready` (no delta applies to it) and MirrorDesyncError is thrown. */
  loadSnapshot(s: Snapshot): void {
    const view = s.view ?? create(ViewSchema);
    this.stateId = 0n;
    this.viewer = view.viewer;
    this.header = known(GameHeaderSchema, view.header ?? create(GameHeaderSchema));
    this.players = new Map(view.players.map((p) => [p.seat, known(PlayerSchema, p)]));
    this.objects = new Map(view.objects.map((o) => [o.id, known(GameObjectSchema, o)]));
    this.zones = new Map(view.zones.map((z) => [
      zoneKey(z.zone?.kind ?? 0, z.zone?.owner ?? 0), [...z.objectIds]]));
    const digest = new ViewDigest();
    digest.put(headerKey, HEADER, GameHeaderSchema, this.header);
    for (const [seat, p] of this.players) digest.put(playerKey(seat), PLAYER, PlayerSchema, p);
    for (const [id, o] of this.objects) digest.put(objectKey(id), OBJECT, GameObjectSchema, o);
    for (const [key, ids] of this.zones) {
      const [kind, owner] = splitZoneKey(key);
      digest.put(zoneElementKey(kind, owner), ZONE, ZoneContentsSchema,
        zoneContents(kind, owner, ids));
    }
    this.digest = digest;
    const actual = digest.hash(this.viewer);
    if (!sameBytes(actual, s.viewHash)) {
      throw new MirrorDesyncError(`view hash mismatch in the snapshot of state ${s.stateId}: `
        + `computed ${hex(actual)}, the server's is ${hex(s.viewHash)}`);
    }
    this.stateId = s.stateId;
  }

  /** Apply a delta's ops in order and check the result; throw MirrorDesyncError (leaving the
   * mirror as it was) if the delta does not fit. */
  applyDelta(d: Delta): void {
    if (d.prevStateId !== this.stateId) {
      throw new MirrorDesyncError(
        `delta from state ${d.prevStateId}, mirror is at ${this.stateId}`);
    }
    const undo: (() => void)[] = [];
    try {
      for (const deltaOp of d.ops) {
        const op = deltaOp.op;
        switch (op.case) {
          case "createObject":
          case "updateObject":
          case "revealObject": {
            const obj = known(GameObjectSchema, op.value);
            this.remember(undo, objectKey(obj.id), this.objects, obj.id);
            this.objects.set(obj.id, obj);
            this.digest.put(objectKey(obj.id), OBJECT, GameObjectSchema, obj);
            break;
          }
          case "removeObject":
          case "concealObject":
            this.remember(undo, objectKey(op.value), this.objects, op.value);
            this.objects.delete(op.value);
            this.digest.drop(objectKey(op.value));
            break;
          case "setZone": {
            const kind = op.value.zone?.kind ?? 0;
            const owner = op.value.zone?.owner ?? 0;
            const ids = [...op.value.objectIds];
            this.remember(undo, zoneElementKey(kind, owner), this.zones, zoneKey(kind, owner));
            this.zones.set(zoneKey(kind, owner), ids);
            this.digest.put(zoneElementKey(kind, owner), ZONE, ZoneContentsSchema,
              zoneContents(kind, owner, ids));
            break;
          }
          case "setPlayer": {
            const player = known(PlayerSchema, op.value);
            this.remember(undo, playerKey(player.seat), this.players, player.seat);
            this.players.set(player.seat, player);
            this.digest.put(playerKey(player.seat), PLAYER, PlayerSchema, player);
            break;
          }
          case "setHeader": {
            const header = this.header;
            const part = this.digest.parts.get(headerKey);
            undo.push(() => {
              this.header = header;
              this.restorePart(headerKey, part);
            });
            this.header = known(GameHeaderSchema, op.value);
            this.digest.put(headerKey, HEADER, GameHeaderSchema, this.header);
            break;
          }
          default: {
            const fields = (deltaOp.$unknown ?? []).map((u) => u.no);
            throw new MirrorDesyncError(`unknown delta op in the delta to state ${d.stateId}`
              + (fields.length > 0 ? ` (field ${fields.join(", ")})` : ""));
          }
        }
      }
      const actual = this.digest.hash(this.viewer);
      if (!sameBytes(actual, d.viewHash)) {
        throw new MirrorDesyncError(`view hash mismatch at state ${d.stateId}: computed `
          + `${hex(actual)}, the server's is ${hex(d.viewHash)}`);
      }
    } catch (e) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
      throw e;
    }
    this.stateId = d.stateId;
  }

  /** The view hash of the mirror as it is (kept element by element). */
  hash(): Uint8Array {
    return this.digest.hash(this.viewer);
  }

  /** The mirrored view in canonical order (the form the view hash is computed over): players
   * by seat, objects by id, zones by (kind, owner). It shares the mirror's messages: read it,
   * don't change it. */
  view(): View {
    const zones = [...this.zones].map(([key, ids]) => {
      const [kind, owner] = splitZoneKey(key);
      return { kind, owner, ids };
    }).sort((a, b) => a.kind - b.kind || a.owner - b.owner);
    return create(ViewSchema, {
      viewer: this.viewer,
      header: this.header,
      players: [...this.players.keys()].sort((a, b) => a - b)
        .map((seat) => this.players.get(seat) as Player),
      objects: [...this.objects.keys()].sort(compareIds)
        .map((id) => this.objects.get(id) as GameObject),
      zones: zones.map((z) => zoneContents(z.kind, z.owner, z.ids)),
    });
  }

  // ---- convenience queries

  /** The visible objects of a zone, in order. */
  zone(kind: ZoneKind | number, owner = -1): GameObject[] {
    const ids = this.zones.get(zoneKey(kind, owner)) ?? [];
    return ids.flatMap((id) => {
      const obj = this.objects.get(id);
      return obj === undefined ? [] : [obj];
    });
  }

  /** Whether the game has a result. */
  get gameOver(): boolean {
    return this.header.result !== undefined;
  }

  // ---- undoing a delta that doesn't fit

  /** Push onto `undo` what restores `map`'s entry `key` and the element digest `part`. */
  private remember<K, V>(undo: (() => void)[], part: string, map: Map<K, V>, key: K): void {
    const had = map.has(key);
    const value = map.get(key);
    const digest = this.digest.parts.get(part);
    undo.push(() => {
      if (had) map.set(key, value as V);
      else map.delete(key);
      this.restorePart(part, digest);
    });
  }

  private restorePart(key: string, digest: bigint | undefined): void {
    if (digest === undefined) this.digest.drop(key);
    else this.digest.set(key, digest);
  }
}

function splitZoneKey(key: string): [number, number] {
  const at = key.indexOf(":");
  return [Number(key.slice(0, at)), Number(key.slice(at + 1))];
}

/** Object ids in UTF-16 code-unit order: Python's `sorted` for the server's ids (ASCII). The
 * order doesn't change the view hash. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Invite links: `http://HOST:PORT/#join=ROOM_ID&code=INVITE_CODE` (or `#watch=`). The room
 * and code ride in the URL fragment, which browsers never send to a server, so an invite
 * code doesn't end up in any request log. A seat (`#join=`) link carries the room's invite
 * code; a watch link its audience code (RoomCreated.audience_code: it watches what the invite
 * code watches, never takes a seat), or -- for a room made before rooms had one -- the invite
 * code: see `watchCode`.
 */

export interface Invite {
  role: "join" | "watch";
  roomId: string;
  code: string;
  /** For watching: the room's spectator tier (0 or absent: the live public view). */
  tier?: number;
}

export function inviteLink(base: string, invite: Invite): string {
  const params = new URLSearchParams();
  params.set(invite.role, invite.roomId);
  if (invite.code) params.set("code", invite.code);
  if (invite.tier) params.set("tier", String(invite.tier));
  return `${base.replace(/#.*$/, "")}#${params.toString()}`;
}

/** The code a room's watch links carry: its audience code -- which lets the audience watch
 * but not take a seat -- or, for a room made before rooms had one, its invite code. */
export function watchCode(inviteCode: string, audienceCode: string): string {
  return audienceCode || inviteCode;
}

/** The invite in a URL fragment (with or without its "#"), or null. */
export function parseInvite(hash: string): Invite | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const code = params.get("code") ?? "";
  const tier = Number(params.get("tier") ?? "0");
  for (const role of ["join", "watch"] as const) {
    const roomId = params.get(role);
    if (roomId) {
      return role === "watch" && Number.isInteger(tier) && tier > 0
        ? { role, roomId, code, tier } : { role, roomId, code };
    }
  }
  return null;
}

/** The invite in this page's URL, which is then taken out of the address bar (and the
 * history), so a reload doesn't offer it again and the code isn't left on screen. */
export function takeInvite(): Invite | null {
  const invite = parseInvite(location.hash);
  if (invite) history.replaceState(history.state, "", `${location.pathname}${location.search}`);
  return invite;
}

/**
 * Invite links: `http://HOST:PORT/#join=ROOM_ID&code=INVITE_CODE` (or `#watch=`). The room
 * and code ride in the URL fragment, which browsers never send to a server, so an invite
 * code doesn't end up in any request log.
 */

export interface Invite {
  role: "join" | "watch";
  roomId: string;
  code: string;
}

export function inviteLink(base: string, invite: Invite): string {
  const params = new URLSearchParams();
  params.set(invite.role, invite.roomId);
  if (invite.code) params.set("code", invite.code);
  return `${base.replace(/#.*$/, "")}#${params.toString()}`;
}

/** The invite in a URL fragment (with or without its "#"), or null. */
export function parseInvite(hash: string): Invite | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const code = params.get("code") ?? "";
  for (const role of ["join", "watch"] as const) {
    const roomId = params.get(role);
    if (roomId) return { role, roomId, code };
  }
  return null;
}

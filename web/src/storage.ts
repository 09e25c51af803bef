/**
 * What the browser keeps between page loads. The account token (long-lived, the account's
 * secret) is kept in localStorage, so the same browser is the same account; the resume
 * token (rotated on every Welcome/Resumed) in sessionStorage, per tab, so reloading a tab
 * resumes exactly that tab's seat (protocol/README.md, "Dropping and resuming"). Neither is
 * ever put in a URL or logged.
 */

const ACCOUNT_TOKEN = "manawire.accountToken";
const RESUME_TOKEN = "manawire.resumeToken";
const DISPLAY_NAME = "manawire.displayName";

function get(store: Storage | undefined, key: string): string {
  try { return store?.getItem(key) ?? ""; } catch { return ""; }
}

function put(store: Storage | undefined, key: string, value: string): void {
  try {
    if (value) store?.setItem(key, value); else store?.removeItem(key);
  } catch { /* storage disabled: the session lasts as long as the page */ }
}

const local = (): Storage | undefined => (typeof localStorage === "undefined" ? undefined : localStorage);
const session = (): Storage | undefined => (typeof sessionStorage === "undefined" ? undefined : sessionStorage);

export const saved = {
  get accountToken(): string { return get(local(), ACCOUNT_TOKEN); },
  set accountToken(v: string) { put(local(), ACCOUNT_TOKEN, v); },
  get resumeToken(): string { return get(session(), RESUME_TOKEN); },
  set resumeToken(v: string) { put(session(), RESUME_TOKEN, v); },
  get displayName(): string { return get(local(), DISPLAY_NAME); },
  set displayName(v: string) { put(local(), DISPLAY_NAME, v); },
};

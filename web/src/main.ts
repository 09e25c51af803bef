/** The browser client's entry point: connect to the server that served this page. */
import { App } from "./app";
import { serverUrl } from "./connection";
import { takeInvite } from "./links";
import { takeReplayLink } from "./replay";
import { TabGuard } from "./tabs";
import { mount } from "./ui";

const root = document.getElementById("app");
if (root) {
  const app = new App(serverUrl(location), `${location.origin}${location.pathname}`,
    takeInvite(), TabGuard.forPage());
  app.replayWanted = takeReplayLink();
  mount(root, app);
  app.start();
}

/**
 * A discovery answer later than 2 s is asked for once more: the rule judges both answers, so a
 * late read of the kit's own is excused by the second while a slow server stays failed.
 */
import { describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { runAgainst, serve } from "../../helpers/hostile-servers.js";
import { routes } from "../../helpers/hostile-ws.js";
import { byId, serverSide } from "../../helpers/run-results.js";

/** Discovery answered after `firstMs` the first time and at once after; upgrades accepted, frames never answered. */
async function agent(firstMs: number) {
  let asked = 0;
  const wss = new WebSocketServer({ noServer: true });
  const info = routes.stagewise["*"];
  const h = await serve(
    (req, res) => {
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json", ...info.headers });
        res.end(JSON.stringify(info.body));
      };
      if (!req.url?.startsWith("/stagewise/info")) return answer();
      asked++;
      if (asked === 1) setTimeout(answer, firstMs);
      else answer();
    },
    (req, socket, head) => wss.handleUpgrade(req, socket, head, () => {}),
  );
  return {
    target: h,
    asked: () => asked,
    close: () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      return h.close();
    },
  };
}

describe("stagewise-chat discovery asked again after a late answer", () => {
  it("a server slow the first time is asked twice and fails; a quick one is asked once", async () => {
    const slow = await agent(2_300);
    const quick = await agent(0);
    try {
      const [s, q] = await Promise.all([runAgainst(stagewiseChat, slow.target, { timeout: 3_000, params: { slow: false } }), runAgainst(stagewiseChat, quick.target, { timeout: 3_000, params: { slow: false } })]);
      expect(slow.asked()).toBe(2);
      const late = byId(serverSide(s.r), "stagewise-chat/wire/info-shape");
      expect(late.verdict, late.message).toBe("fail");
      expect(late.message).toMatch(/the head came after 2\d{3} ms/);
      expect(quick.asked()).toBe(1);
      expect(byId(serverSide(q.r), "stagewise-chat/wire/info-shape").verdict).toBe("pass");
    } finally {
      await slow.close();
      await quick.close();
    }
  }, 40_000);
});

/**
 * The stagewise-chat catalogue order comes from the check modules, grouped as §4 groups them: no second list of ids to
 * keep in step. Every check of the modules appears once, the groups are contiguous and in §4's order, and the published
 * profile's chat-only relaxations follow the catalogue (a new chat or tools check is covered without editing it).
 */
import { describe, expect, it } from "vitest";
import { STAGEWISE_SERVER_CHECKS, STAGEWISE_SERVER_ORDER } from "../../../src/suites/stagewise-chat/checks/index.js";
import { CHAT_CHECKS } from "../../../src/suites/stagewise-chat/checks/chat.js";
import { CHAT_SYNC_CHECKS } from "../../../src/suites/stagewise-chat/checks/chat-sync.js";
import { REJECT_CHECKS } from "../../../src/suites/stagewise-chat/checks/reject.js";
import { SIDE_CHECKS } from "../../../src/suites/stagewise-chat/checks/side.js";
import { TOOL_CHECKS } from "../../../src/suites/stagewise-chat/checks/tools.js";
import { TRPC_CHECKS } from "../../../src/suites/stagewise-chat/checks/trpc.js";
import { WIRE_CHECKS } from "../../../src/suites/stagewise-chat/checks/wire.js";
import { STAGEWISE_PUBLISHED } from "../../../src/suites/stagewise-chat/profiles.js";

const group = (id: string) => id.split("/")[1]!;

describe("stagewise-chat catalogue order", () => {
  it("holds every check of the modules once, grouped in §4's order, modules' order within a group", () => {
    const modules = [...WIRE_CHECKS, ...TRPC_CHECKS, ...SIDE_CHECKS, ...CHAT_SYNC_CHECKS, ...CHAT_CHECKS, ...REJECT_CHECKS, ...TOOL_CHECKS];
    expect([...STAGEWISE_SERVER_CHECKS].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...modules].sort((a, b) => a.id.localeCompare(b.id)));
    expect(STAGEWISE_SERVER_ORDER).toEqual(STAGEWISE_SERVER_CHECKS.map((c) => c.id));
    const groups = STAGEWISE_SERVER_ORDER.map(group).filter((g, i, all) => g !== all[i - 1]);
    expect(groups).toEqual(["wire", "trpc", "state", "messaging", "chat", "tools", "security"]);
    for (const g of groups) {
      const inModules = modules.filter((c) => group(c.id) === g).map((c) => c.id);
      expect(STAGEWISE_SERVER_ORDER.filter((id) => group(id) === g)).toEqual(inModules);
    }
  });

  it("the published profile lowers every chat and tools check of the catalogue to INFO", () => {
    const chatOnly = STAGEWISE_SERVER_ORDER.filter((id) => /^stagewise-chat\/(chat|tools)\//.test(id));
    expect(chatOnly.length).toBeGreaterThan(30);
    for (const id of chatOnly) expect(STAGEWISE_PUBLISHED.levels?.[id], id).toBe("INFO");
    expect(STAGEWISE_PUBLISHED.levels?.["stagewise-chat/wire/info-capabilities"]).toBe("INFO");
    expect(STAGEWISE_PUBLISHED.levels?.["stagewise-chat/wire/info-shape"]).toBeUndefined();
  });
});

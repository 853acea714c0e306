/**
 * The probes that drive an mcp-chat backend. The backend keeps one process-wide connection
 * (§3.1), so everything runs serially, starts with a reset (POST /disconnect) and ends
 * disconnected. Each exchange gets a label from labels.ts; facts that several checks need (the
 * listing, the tools of the connection the chat runs on, whether /chat exists, whether the
 * disconnect was confirmed) are published as note events.
 *
 * Budget (§3.11): one happy stream, one disconnected stream, five bad-input POSTs and at most
 * one real POST /chat — the only requests that may cost a model call.
 */
import { untilStopped } from "../../core/probes/probe-session.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { BAD_INPUTS, CONTRACT_PATHS, L, NOTE } from "./labels.js";
import { listedServers, toolNames } from "./listing.js";
import { readParams, type McpChatParams } from "./params.js";
import { BAD_INPUT_MAX_BYTES, ProbeClient } from "./probe-client.js";

export async function runProbes(ctx: ProbeContext): Promise<void> {
  const params = readParams(ctx.params);
  const client = new ProbeClient(ctx, params);
  await untilStopped(() => sequence(client, ctx, params));
}

async function sequence(c: ProbeClient, ctx: ProbeContext, p: McpChatParams): Promise<void> {
  let listing: { status?: number; json: unknown; endReason?: string } | undefined;
  const listed = await c.group("servers", "GET /servers", async () => {
    const r = await c.request(L.servers, "GET", "/servers");
    listing = { status: r.status, json: r.json, ...(r.endReason ? { endReason: r.endReason } : {}) };
    const servers = listedServers(r.json);
    if (servers) c.note(NOTE.servers, servers);
    return servers ?? [];
  });
  const a = listed[0];
  const b = listed.find((s) => s.id !== a?.id);
  // Without a listed server nothing can be connected: the rules that need a connection are
  // knock-ons of the listing's rule. One server is legal; switching servers then does not arise.
  // Only a listing read whole (or broken off by the server) was judged: a body the kit stopped
  // reading leaves servers/list-shape incomplete, and what it starves is not its knock-on.
  const judged = listing?.endReason === "eof" || listing?.endReason === "error";
  if (!a && judged && listing?.status !== undefined && listing.status !== 429) {
    const empty = listing.status === 200 && Array.isArray(listing.json) && listing.json.length === 0;
    c.note(NOTE.knockOn, { check: empty ? "mcp-chat/servers/non-empty" : "mcp-chat/servers/list-shape", where: "GET /servers" });
  } else if (a && !b) c.note(NOTE.notApplicable, { topic: "second-server", reason: `GET /servers lists one server (${a.id}); switching and reconnecting need two` });

  await c.group("cors", "CORS preflights and a foreign origin", async () => {
    const requestHeaders = [...new Set(["content-type", ...Object.keys(ctx.headers).map((h) => h.toLowerCase())])].join(", ");
    const someId = encodeURIComponent(a?.id ?? "agentwire-probe");
    for (const { path, method } of CONTRACT_PATHS) {
      await c.request(L.preflight(path), "OPTIONS", path.replace("{server_id}", someId), {
        headers: { "access-control-request-method": method, "access-control-request-headers": requestHeaders },
      });
    }
    await c.request(L.foreignPreflight, "OPTIONS", "/chat/stream", {
      origin: p.foreignOrigin,
      headers: { "access-control-request-method": "POST", "access-control-request-headers": requestHeaders },
    });
    await c.request(L.foreignRequest, "GET", "/status", { origin: p.foreignOrigin });
  });

  // Believed connection, from /status when it answers sensibly, else from the connect answer.
  let connectedId: string | null | undefined;
  const status = async (label: string) => {
    const r = await c.request(label, "GET", "/status");
    const seen = r.status === 200 ? statusConnection(r.json) : undefined;
    if (seen !== undefined) connectedId = seen;
    return r;
  };

  await c.group("reset", "reset: disconnect, status, disconnect again (idle)", async () => {
    await c.request(L.disconnectReset, "POST", "/disconnect");
    await status(L.statusAfterReset);
    await c.request(L.disconnectIdle, "POST", "/disconnect");
  });

  // Tools of each server as its connect answered them, for the chat's tool list.
  const toolsOf = new Map<string, string[]>();
  const connect = async (label: string, id: string) => {
    const r = await c.request(label, "POST", `/connect/${encodeURIComponent(id)}`);
    const tools = r.status === 200 ? toolNames((r.json as { tools?: unknown } | undefined)?.tools) : undefined;
    if (tools) {
      toolsOf.set(id, tools);
      c.note(NOTE.connectedTools, { label, serverId: id, tools });
    }
    if (r.status === 200) connectedId = id;
    return r;
  };

  let everConnected = false;
  if (a) {
    await c.group("connect", `connect ${a.id}, then status`, async () => {
      everConnected = (await connect(L.connect, a.id)).status === 200;
      await status(L.statusAfterConnect);
    });
  }

  await c.group("unknown-id", "connect an unlisted id, then status", async () => {
    const unknown = `agentwire-unknown-${Math.random().toString(36).slice(2, 10)}`;
    await c.request(L.connectUnknown, "POST", `/connect/${encodeURIComponent(unknown)}`);
    await status(L.statusAfterUnknown);
  });

  if (b) {
    await c.group("second-server", `connect ${b.id}, status, connect ${b.id} again, status`, async () => {
      everConnected = (await connect(L.connectB, b.id)).status === 200 || everConnected;
      await status(L.statusAfterConnectB);
      await connect(L.reconnectB, b.id);
      await status(L.statusAfterReconnect);
    });
  }

  // The chat runs on the first listed server: scenarios and prompts usually target it.
  let chatReady = false;
  if (a) {
    if (connectedId !== a.id) {
      await c.group("connect-for-chat", `connect ${a.id} for the chat`, async () => {
        everConnected = (await connect(L.connectForChat, a.id)).status === 200 || everConnected;
      });
    }
    chatReady = connectedId === a.id;
  }

  if (chatReady && a) {
    await c.group("chat-stream", "POST /chat/stream (the happy path; may take a model call)", async () => {
      c.note(NOTE.chatTools, toolsOf.get(a.id) ?? null);
      await c.request(L.chatStream, "POST", "/chat/stream", {
        body: JSON.stringify({ message: p.prompt }),
        stream: true,
        chat: true,
      });
    });

    await c.group("bad-input", "five malformed chat requests", async () => {
      for (const bad of BAD_INPUTS) {
        await c.request(L.badInput(bad.name), "POST", "/chat/stream", {
          body: bad.body,
          chat: true,
          maxBytes: BAD_INPUT_MAX_BYTES,
        });
      }
    });

    await c.group("chat-sync", "POST /chat: {} first, a real message only if it exists", async () => {
      const probe = await c.request(L.chatSyncProbe, "POST", "/chat", { body: "{}", chat: true, maxBytes: BAD_INPUT_MAX_BYTES });
      const absent = probe.status === 404 || probe.status === 405;
      c.note(NOTE.chatSync, { present: !absent && probe.status !== undefined, status: probe.status ?? null });
      // Only a 4xx to {} shows a real endpoint that validates; then spend the one model call.
      if (!absent && probe.status !== undefined && probe.status >= 400 && probe.status < 500) {
        await c.request(L.chatSync, "POST", "/chat", { body: JSON.stringify({ message: p.prompt }), chat: true, slow: true });
      }
    });
  }

  await c.group("disconnect", "disconnect, then status", async () => {
    // A disconnect that follows no connect would be one more idle disconnect, judged elsewhere.
    if (everConnected) await c.request(L.disconnect, "POST", "/disconnect");
    await status(L.statusAfterDisconnect);
  });

  const confirmed = connectedId === null;
  c.note(NOTE.disconnectConfirmed, confirmed);
  if (confirmed) {
    await c.group("chat-disconnected", "POST /chat/stream while disconnected", async () => {
      await c.request(L.chatDisconnected, "POST", "/chat/stream", {
        body: JSON.stringify({ message: p.prompt }),
        stream: true,
        chat: true,
      });
    });
  } else {
    ctx.progress("mcp-chat: /status did not confirm the disconnect; the disconnected chat probe is skipped");
  }

  if (p.keepConnection && a) {
    await c.group("restore", `connect ${a.id} again (--keep-connection)`, async () => {
      await connect(L.connectRestore, a.id);
    });
  }
}


/** Connected id from a /status body: a string, null when disconnected, undefined when unreadable. */
function statusConnection(json: unknown): string | null | undefined {
  if (!json || typeof json !== "object") return undefined;
  const s = json as { connected?: unknown; server_id?: unknown };
  if (s.connected === false) return null;
  if (s.connected === true && typeof s.server_id === "string") return s.server_id;
  return undefined;
}


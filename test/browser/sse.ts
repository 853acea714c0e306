/**
 * Reads an SSE response body chunk by chunk (reader + streaming TextDecoder) and returns the raw
 * text and the `data` payload of every dispatched event. Shared by the browser page (bundled) and
 * the node side of the test, so both are parsed the same way. Browser-safe: no node imports.
 */
export interface SseRead {
  text: string;
  payloads: string[];
}

export async function readSse(body: ReadableStream<Uint8Array> | null): Promise<SseRead> {
  const payloads: string[] = [];
  if (!body) return { text: "", payloads };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let pending = "";
  let data: string[] | null = null;
  const line = (l: string) => {
    if (l === "") {
      if (data) payloads.push(data.join("\n"));
      data = null;
    } else if (l.startsWith("data:")) {
      (data ??= []).push(l.slice(5).replace(/^ /, ""));
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    const chunk = done ? decoder.decode() : decoder.decode(value, { stream: true });
    text += chunk;
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      line(pending.slice(0, nl).replace(/\r$/, ""));
      pending = pending.slice(nl + 1);
    }
    if (done) break;
  }
  // An event not closed by a blank line before EOF is not dispatched (as in EventSource).
  return { text, payloads };
}

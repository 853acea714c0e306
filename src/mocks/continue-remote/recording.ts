/**
 * What the mock records of its clients for the client checks (given a transcript bus): each request
 * as it arrives, labelled by its route under the mock's profile ("unknown" otherwise), with what the
 * mock knew then in `meta`; the head of the answer; and the answer's JSON as served, so rules can
 * read the `/state` a client was shown. Control routes are the harness's, not the client's: not
 * recorded. Browser-safe.
 */
import { replyHead, type MockReply, type MockRequest } from "../../core/mock/exchange.js";
import { ClientRecorder } from "../../core/transport/http-client-recorder.js";
import type { TranscriptBus } from "../../core/transcript/transcript.js";
import type { ContinueRemoteMachine } from "./machine.js";
import { matchRoute } from "./routes.js";

/** What a recording mock answers once a real server would be gone (after `/exit`). */
export const SHUT_DOWN = { error: "The server has shut down" };

export interface ClientRecording {
  /** Records a request on arrival; the handle to pass to `answered`, or null when not recorded. */
  request(request: MockRequest, url: URL, exited: boolean): Promise<Recorded | null>;
  /** Records the answer (a fault's raw text as it is, else the JSON value) and hands the response back. */
  answered(recorded: Recorded | null, response: MockReply, answer: { value: unknown; raw?: { text: string }; text?: string }): MockReply;
}

export interface Recorded {
  exchange: string | null;
  label: string;
}

export function clientRecording(bus: TranscriptBus | undefined, machine: ContinueRemoteMachine): ClientRecording {
  const recorder = new ClientRecorder(bus);
  return {
    async request(request, url, exited) {
      if (!bus || url.pathname.toLowerCase().startsWith("/__agentwire/")) return null;
      const label = matchRoute(url.pathname, machine.cn)?.name ?? "unknown";
      // A copy of the body: the handler reads the request itself.
      const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.clone().text();
      const exchange = recorder.request({
        label,
        request,
        url,
        body,
        meta: {
          profile: machine.cn ? "cn-session" : "seed",
          isProcessing: machine.isProcessing,
          pendingRequestId: machine.pending?.requestId ?? null,
          exited,
        },
      });
      return { exchange, label };
    },
    answered(recorded, response, answer) {
      if (!recorded) return response;
      recorder.response(recorded.exchange, recorded.label, replyHead(response));
      // A 304 has no body: the client keeps what it was shown before.
      const text = response.status === 304 ? undefined : (answer.raw?.text ?? answer.text ?? JSON.stringify(answer.value));
      recorder.end(recorded.exchange, recorded.label, text);
      return response;
    },
  };
}

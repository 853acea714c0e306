/**
 * A framing or encoding deviation fails its framing rule and nothing that depends on the meaning
 * of events: a good recorded run is re-judged with its stream bytes transformed, and only the
 * rules that object to those bytes change their verdict.
 */
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { describeFramingRejudge } from "../../helpers/rejudge.js";

describeFramingRejudge(mcpChat, {
  bom: ["sse/utf8"],
  cr: ["sse/lf-only"],
  crlf: ["sse/lf-only"],
  // Every CRLF cut between its CR and LF: each event now straddles two reads.
  crlfCut: ["sse/lf-only", "sse/event-per-write"],
  bomCr: ["sse/lf-only", "sse/utf8"],
  // Every CR ends a read: each event is dispatched at its CR, with its read's time.
  crBytePerRead: ["sse/lf-only", "sse/event-per-write"],
});

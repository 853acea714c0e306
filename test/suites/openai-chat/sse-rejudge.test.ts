/**
 * A framing or encoding deviation fails its framing rule and nothing that depends on the meaning
 * of events: a good recorded run is re-judged with its stream bytes transformed, and only the
 * rules that object to those bytes change their verdict.
 */
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { describeFramingRejudge } from "../../helpers/rejudge.js";

describeFramingRejudge(openaiChat, {
  bom: ["sse/utf8"],
  cr: ["sse/canonical-framing"],
  crlf: ["sse/canonical-framing"],
  crlfCut: ["sse/canonical-framing"],
  bomCr: ["sse/canonical-framing", "sse/utf8"],
  // Every CR ends a read: each event is dispatched at its CR, with its read's time.
  crBytePerRead: ["sse/canonical-framing"],
});

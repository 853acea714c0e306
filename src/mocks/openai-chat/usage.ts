/**
 * Token counts, the mock's way: characters / 4, rounded up. The prompt is counted once from the
 * request; the completion as the answer is generated, so a running total is always at hand.
 */
import { contentText } from "./request-fields.js";
import type { ChatRequest } from "./request.js";

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

const tokens = (chars: number) => Math.ceil(chars / 4);

export function promptChars(request: ChatRequest): number {
  let n = 0;
  for (const m of request.messages) {
    n += [...contentText((m as { content?: unknown }).content)].length;
    for (const c of (m as { tool_calls?: { function: { name: string; arguments: string } }[] }).tool_calls ?? []) {
      n += c.function.name.length + c.function.arguments.length;
    }
  }
  return n;
}

export class UsageMeter {
  private chars = 0;
  constructor(private readonly prompt: number) {}

  add(text: string): void {
    this.chars += text.length;
  }

  usage(): Usage {
    const prompt_tokens = tokens(this.prompt);
    const completion_tokens = tokens(this.chars);
    return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
  }
}

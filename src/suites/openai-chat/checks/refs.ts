/** The seed sections and sentences the openai-chat rules come from (seed 001, in Korean). */

export const S1 = "§1 Continue → Backend: 요청 형식";
export const S2 = "§2 Backend → Continue: 모델의 tool 호출 응답 형식";
export const S3 = "§3 Continue가 tool 실행 후 재호출하는 방식";
export const S4 = "§4 Continue Built-in Tools 전체 스펙";

/** "Include the tools array and tool_choice, per the OpenAI Chat Completions spec." */
export const OPENAI_SPEC: [string, string] = [S1, "OpenAI Chat Completions 규격으로 tools 배열과 tool_choice를 포함합니다."];
/** "Built-in tool names (function names) must use the exact identifiers below." */
export const EXACT_NAMES: [string, string] = [S1, "내장 툴 이름(함수명)은 아래의 정확한 식별자를 사용해야 합니다."];
/** "To use a tool, the model must put the function call in the assistant message's tool_calls." */
export const TOOL_CALLS: [string, string] = [S2, "모델이 tool을 사용하려면 `assistant` 메시지의 `tool_calls`에 함수 호출을 포함해야 합니다."];
/** "arguments must be a JSON string." */
export const ARGS_STRING: [string, string] = [S2, "`arguments`는 반드시 JSON 문자열이어야 합니다."];
/** "If streaming is supported, incremental deltas of the form choices[0].delta.tool_calls are allowed too, and finish_reason "tool_calls" must be returned at the end." */
export const STREAMING: [string, string] = [S2, '스트리밍을 지원한다면 `choices[0].delta.tool_calls` 형태의 증분 델타도 허용되며, 마지막에 `finish_reason: "tool_calls"`를 반환해야 합니다.'];
/** "The execution result is attached as a role:"tool" message and the same model is called again." */
export const FOLLOW_UP: [string, string] = [S3, '실행 결과를 role:"tool" 메시지로 첨부해 같은 모델로 다시 요청을 보냅니다.'];
/** "The model then returns the final assistant answer as plain text." */
export const FINAL_ANSWER: [string, string] = [S3, "이에 대해 모델은 최종 `assistant` 답변을 평문으로 반환합니다."];
/** "The function name below is the identifier to use as-is in function.name for OpenAI function calling." */
export const FUNCTION_NAME: [string, string] = [S4, '아래 항목의 "함수명(name)"은 OpenAI function calling 시 `function.name`에 그대로 사용해야 하는 식별자입니다.'];
/** §4.5 search_and_replace_in_file: "No parallel calls." */
export const NO_PARALLEL: [string, string] = ["§4.5 search_and_replace_in_file", "파일의 특정 구간을 SEARCH/REPLACE 블록들로 정의해 정확히 치환합니다. 병렬 호출 금지."];
/** §4.9 view_diff: "Parameters: none." */
export const NO_PARAMS: [string, string] = ["§4.9 view_diff", "파라미터: 없음"];

/** The incremental UTF-8 validator lives in core (the openai-chat stream checks use it too). */
export { Utf8Validator } from "../../../core/transport/utf8.js";

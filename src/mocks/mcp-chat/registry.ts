/** The MCP servers the mock lists: two, so that "only one connected at a time" is observable. */

export interface McpTool {
  name: string;
  description: string;
}

export interface McpServerEntry {
  id: string;
  name: string;
  path: string;
  description?: string;
  /** Tools reported once connected (not part of the listing, as in the seed). */
  tools: McpTool[];
}

// `weather` comes first so a client (or probe) that connects "the first id" gets the tools the
// default scenarios call.
export const DEFAULT_SERVERS: readonly McpServerEntry[] = [
  {
    id: "weather",
    name: "Weather Service",
    path: "/servers/weather/server.py",
    description: "Get weather information for any location",
    tools: [
      { name: "get_weather", description: "Get current weather for a city" },
      { name: "get_forecast", description: "Get 5-day weather forecast" },
    ],
  },
  {
    id: "server-id-1",
    name: "Human Readable Name",
    path: "/path/to/server/script.py",
    description: "Optional description of what this server does",
    tools: [{ name: "echo", description: "Echo the input back" }],
  },
];

/** A server as `GET /servers` shows it. */
export function listing(server: McpServerEntry): Record<string, unknown> {
  const { tools: _tools, ...shown } = server;
  return { ...shown };
}

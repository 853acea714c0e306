/** What the stagewise-chat test page and its test share: the message it sends and the shape of its result. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type StagewisePageResult = { ok: true; info: Json; frames: string[]; controller: string | null } | { ok: false; error: string };

export const PAGE_TEXT = "hello from the page";
export const PAGE_METADATA = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [],
};

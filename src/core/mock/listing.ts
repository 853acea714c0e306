/** A mock's catalogue as the CLI and the package list it: names and descriptions only. Browser-safe. */
import type { FaultInfo, NamedItem } from "../run/protocol.js";

export function namedItems(list: readonly NamedItem[]): NamedItem[] {
  return list.map(({ name, description }) => ({ name, description }));
}

export function faultInfos(list: readonly FaultInfo[]): FaultInfo[] {
  return list.map(({ name, description, violates }) => ({ name, description, violates: [...violates] }));
}

/** What a mock plays, by name: its scenarios, its faults, and its framings (or what plays their role). */
export interface MockNames {
  scenarios: NamedItem[];
  faults: FaultInfo[];
  framings: NamedItem[];
}

export function mockNames(lists: { scenarios: readonly NamedItem[]; faults: readonly FaultInfo[]; framings: readonly NamedItem[] }): MockNames {
  return { scenarios: namedItems(lists.scenarios), faults: faultInfos(lists.faults), framings: namedItems(lists.framings) };
}

/** A mock's catalogue as the CLI and the package list it: names and descriptions only. Browser-safe. */
import type { FaultInfo, NamedItem } from "../protocol.js";

export function namedItems(list: readonly NamedItem[]): NamedItem[] {
  return list.map(({ name, description }) => ({ name, description }));
}

export function faultInfos(list: readonly FaultInfo[]): FaultInfo[] {
  return list.map(({ name, description, violates }) => ({ name, description, violates: [...violates] }));
}

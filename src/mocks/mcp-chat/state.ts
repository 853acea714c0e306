/**
 * The one process-wide connection the contract describes (the reference keeps a singleton).
 * Besides the current id it remembers what some faults need to misbehave realistically: the last
 * id ever connected and every id connected since the last disconnect.
 */
export class ConnectionState {
  connectedId: string | null = null;
  lastId: string | null = null;
  /** Ids connected since the last disconnect, oldest first. */
  sessionIds: string[] = [];

  connect(id: string): void {
    this.connectedId = id;
    this.lastId = id;
    if (!this.sessionIds.includes(id)) this.sessionIds.push(id);
  }

  disconnect(): void {
    this.connectedId = null;
    this.sessionIds = [];
  }

  reset(): void {
    this.disconnect();
    this.lastId = null;
  }
}

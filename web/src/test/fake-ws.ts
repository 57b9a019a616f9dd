// A WebSocket stand-in for the page and socket tests: records what the client sends; the test
// opens it, pushes server messages and drops it. Install it with
// `vi.stubGlobal('WebSocket', FakeWs)`, or hand `(url) => new FakeWs(url)` to a `Socket`.
export class FakeWs {
  static all: FakeWs[] = [];
  readyState = 0;
  sent: any[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  /** Whether the client closed it. */
  closed = false;
  constructor(public url: string) {
    FakeWs.all.push(this);
  }
  send(d: string) {
    this.sent.push(JSON.parse(d));
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  /** The connection is lost (the server or the network closed it). */
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

/**
 * Gives garbage back to the system under load. JavaScriptCore lets its heap grow well ahead of the garbage a busy
 * server makes (tens of MB at 20,000 requests/s) and returns freed pages lazily, so the resident size stays far
 * above what is live. Once a second this compares the resident size with the one measured just after its last
 * full collection, and when it has grown by more than `headroomMb` runs one (20–27 ms at 100,000 universities,
 * taking a loaded server from 187–202 to 144–159 MB). A heap that really grew (new data) raises that floor after one
 * collection, so it does not collect every second for nothing.
 */
export function startMemorySteward(headroomMb: number, everyMs = 1000): () => void {
  if (!(headroomMb > 0)) return () => {};
  const headroom = headroomMb * 1024 * 1024;
  let floor = process.memoryUsage.rss();
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    floor = Math.min(floor, rss);
    if (rss - floor > headroom) {
      Bun.gc(true);
      // A full collection returns the freed pages at once.
      floor = process.memoryUsage.rss();
    }
  }, everyMs);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

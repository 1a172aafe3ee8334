import { startLoopbackDns } from "./loopback-dns.ts";

/**
 * A loopback web of university home pages for the browser part, told apart by host name, with a DNS server on a
 * loopback port (the browser part's `resolver`) that maps every `*.localhost` name to 127.0.0.1:
 * `light.localhost` (small and fast), `heavy.localhost` (a render-blocking stylesheet served late, a large image,
 * long tasks, a layout shift, a script and a WebSocket to other hosts), `a11y.localhost` (WCAG violations) and
 * `noviewport.localhost` (no viewport tag, small text, crowded links); `moved.localhost` redirects to another
 * host. `pinned.test` (127.0.0.1) embeds subresources of `cdn.pinned.test` (127.0.0.1), `meta.pinned.test`
 * (169.254.169.254) and `intra.pinned.test` (10.0.0.5), and opens a WebSocket to 127.0.0.1 itself; names the
 * system's resolver does not know, so only the scanner's answers can take Chromium there.
 */

export interface BrowserFixtures {
  port: number;
  /** The fixtures' DNS server. */
  resolver: { host: string; port: number };
  /** `<name>.localhost:<port>`, the domain the part is given. */
  domain(name: "light" | "heavy" | "a11y" | "noviewport" | "moved" | "pinned"): string;
  /** Paths requested per host, e.g. `heavy.localhost` → ["/", "/slow.css", …]. */
  requests: Map<string, string[]>;
  /** TCP connections accepted by the stray port the heavy page opens a WebSocket to (as `live.localhost`). */
  strayConnections(): number;
  stop(): Promise<void>;
}

/** The fixtures' DNS answers: name → address. */
const PINNED_NAMES: Record<string, string> = {
  "pinned.test": "127.0.0.1",
  "cdn.pinned.test": "127.0.0.1",
  "meta.pinned.test": "169.254.169.254",
  "intra.pinned.test": "10.0.0.5",
};

/** An uncompressed 24-bit BMP of `w`×`h` noisy pixels (Chromium decodes it; it does not compress). */
function bmp(w: number, h: number): Uint8Array<ArrayBuffer> {
  const row = Math.ceil((w * 3) / 4) * 4;
  const size = 54 + row * h;
  const out = new Uint8Array(new ArrayBuffer(size));
  const v = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  v.setUint32(2, size, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, w, true);
  v.setInt32(22, h, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  v.setUint32(34, row * h, true);
  let seed = 42;
  for (let i = 54; i < size; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out[i] = seed >> 16;
  }
  return out;
}

const HEAD = (title: string, extra = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${extra}</head>`;

const LIGHT = `${HEAD("Light University", "<style>body{font:18px/1.5 sans-serif;margin:0 16px;color:#111;background:#fff}a{display:inline-block;padding:14px 8px;min-width:48px;min-height:48px;color:#0645ad}</style>")}
<body><header><nav aria-label="Main"><a href="/study">Study</a> <a href="/research">Research</a> <a href="/about">About</a></nav></header>
<main><h1>Light University</h1><p>A small, fast home page with readable text and generous links.</p></main>
<footer><p>Light University, 1 Main Street</p></footer></body></html>`;

const heavyPage = (port: number, stray: number) =>
  `${HEAD("Heavy University", `<link rel="stylesheet" href="/slow.css"><script src="http://tracker.localhost:${port}/t.js"></script><script>try { new WebSocket("ws://live.localhost:${stray}/feed"); } catch {}</script>`)}
<body><main><h1>Heavy University</h1><p>Everything on this page arrives late and moves around.</p>
<img src="/hero.bmp" width="500" height="350" alt="Campus"></main>
<script>
addEventListener("load", () => {
  let n = 0;
  const burn = () => { const t = performance.now(); while (performance.now() - t < 250) {} if (++n < 6) setTimeout(burn, 20); };
  setTimeout(burn, 0);
  setTimeout(() => { const d = document.createElement("div"); d.style.height = "300px"; d.textContent = "Announcement"; document.body.prepend(d); }, 100);
});
</script></body></html>`;

const A11Y = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font:18px sans-serif"><main><h1>Inaccessible University</h1>
<img src="/hero.bmp?small" width="40" height="40"><button></button><a href="/nowhere"></a>
<p style="color:#bbb;background:#fff">Light grey text on white.</p>
<input type="text"></main></body></html>`;

const NO_VIEWPORT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Old University</title>
<style>body{font:10px sans-serif;width:1100px} a{font-size:10px;margin-right:2px}</style></head>
<body><h1>Old University</h1><p>${"Tiny text written for a desktop screen. ".repeat(20)}</p>
<p>${Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join(" ")}</p></body></html>`;

const pinnedPage = (port: number, stray: number) =>
  `${HEAD("Pinned University")}<body><main><h1>Pinned University</h1><p>Subresources on the site's other hosts.</p>
<img src="http://cdn.pinned.test:${port}/hero.bmp?small" width="40" height="40" alt="CDN">
<img src="http://meta.pinned.test:${port}/latest/meta-data" width="1" height="1" alt="">
<img src="http://intra.pinned.test:${port}/admin" width="1" height="1" alt="">
<script>try { new WebSocket("ws://127.0.0.1:${stray}/feed"); } catch {}</script></main></body></html>`;

export async function startBrowserFixtures(): Promise<BrowserFixtures> {
  const requests = new Map<string, string[]>();
  const hero = bmp(500, 350);
  const small = bmp(40, 40);
  const html = (body: string) =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  let port = 0;
  let stray = 0;
  const strayListener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        stray++;
        socket.end();
      },
      data() {},
    },
  });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req): Promise<Response> {
      const url = new URL(req.url);
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      const list = requests.get(host) ?? [];
      list.push(url.pathname);
      requests.set(host, list);
      const name = host.replace(/\.localhost$/, "").replace(/\.test$/, "");
      if (url.pathname === "/hero.bmp") {
        return new Response(url.search === "?small" ? small : hero, {
          headers: { "content-type": "image/bmp" },
        });
      }
      if (url.pathname === "/slow.css") {
        await Bun.sleep(1_200);
        return new Response("body{font:18px sans-serif} img{max-width:100%;height:auto}", {
          headers: { "content-type": "text/css" },
        });
      }
      if (url.pathname !== "/") return new Response("not found", { status: 404 });
      if (name === "moved") return Response.redirect(`http://elsewhere.localhost:${port}/`, 302);
      if (name === "light") return html(LIGHT);
      if (name === "heavy") return html(heavyPage(port, strayListener.port));
      if (name === "a11y") return html(A11Y);
      if (name === "noviewport") return html(NO_VIEWPORT);
      if (name === "pinned") return html(pinnedPage(port, strayListener.port));
      return new Response("unknown fixture", { status: 404 });
    },
  });
  port = server.port ?? 0;
  const dns = await startLoopbackDns((name) =>
    name.endsWith(".localhost") ? "127.0.0.1" : PINNED_NAMES[name],
  );
  return {
    port,
    resolver: dns.resolver,
    domain: (name) => (name === "pinned" ? `pinned.test:${port}` : `${name}.localhost:${port}`),
    requests,
    strayConnections: () => stray,
    stop: async () => {
      server.stop(true);
      strayListener.stop();
      await dns.close();
    },
  };
}

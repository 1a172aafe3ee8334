import type { ScoredPart } from "../scores/check-points.ts";
import type { Observations } from "./observations.ts";
import { checkTable, earned } from "./rubric/check-table.ts";
import { scoredFrom, tiered } from "./rubric/points.ts";

export const SOCIAL_CHECKS = checkTable("presence_social_score", "unirank", {
  networks: {
    id: "social.networks",
    label: "Social networks linked",
    max: 100,
    earns:
      "25 per distinct network with a profile path (Facebook, X/Twitter, Instagram, LinkedIn, TikTok, Bluesky, Threads, Weibo, VK, mastodon.social)",
    remediation: "Link the official accounts on at least four social networks from the website.",
  },
});
export const VIDEO_CHECKS = checkTable("presence_video_score", "unirank", {
  channel: {
    id: "video.channel",
    label: "Video channel linked",
    max: 100,
    earns:
      "a channel on YouTube (/@name, /channel/, /c/, /user/), Vimeo, Bilibili, Youku or Dailymotion 100; only single videos 50; none 0",
    remediation: "Link the official video channel from the website.",
  },
});
export const ORCID_CHECKS = checkTable("research_orcid_score", "unirank", {
  ids: {
    id: "orcid.ids",
    label: "ORCID iDs linked",
    max: 100,
    earns: "distinct ORCID iDs linked (orcid.org/0000-0000-0000-000X): ≥ 5 100, 2–4 70, 1 40, none 0",
    remediation: "Link every researcher's staff page to their ORCID iD.",
  },
});
export const PROFILE_CHECKS = checkTable("research_profiles_score", "unirank", {
  linked: {
    id: "profiles.linked",
    label: "Scholar profiles linked",
    max: 100,
    earns:
      "distinct scholar profiles linked (Google Scholar, ResearchGate, Scopus, Web of Science/Publons, Academia.edu, Semantic Scholar, dblp): ≥ 5 100, 2–4 70, 1 40, none 0",
    remediation: "Link researchers' Google Scholar, Scopus or ResearchGate profiles from their staff pages.",
  },
});
export const REPOSITORY_CHECKS = checkTable("research_repository_score", "unirank", {
  linked: {
    id: "repository.linked",
    label: "Repository linked",
    max: 70,
    earns:
      "a crawled page links a repository: a host starting repository., eprints., dspace., digital., research., openaccess., hal., pure., scholar(ship)., ir. …, or a path with /handle/, /jspui, /xmlui, /eprints, /dspace, /repository",
    remediation: "Run an open-access repository and link it from the home page.",
  },
  ownDomain: {
    id: "repository.own-domain",
    label: "Repository on the university's domain",
    max: 30,
    earns: "that repository is on the university's domain or a subdomain",
    remediation: "Host the repository under the university's domain.",
  },
});
export const OPENNESS_CHECKS = checkTable("webo_openness_score", "unirank", {
  richFiles: {
    id: "openness.rich-files",
    label: "Rich files linked",
    max: 100,
    earns:
      "distinct rich files (.pdf, .doc(x), .ppt(x), .xls(x), .odt, .ods, .odp, .epub, .csv, .ps) linked on the domain or its subdomains: ≥ 50 100; ≥ 20 75; ≥ 5 50; ≥ 1 25; none 0",
    remediation: "Publish papers and reports as openly reachable files on the domain.",
  },
});

/** Every distinct link found on the crawled pages, parsed (unparseable ones dropped). */
export function allLinks(o: Observations): URL[] {
  const seen = new Set<string>();
  const out: URL[] = [];
  for (const p of o.pages) {
    for (const href of p.links) {
      if (seen.has(href)) continue;
      seen.add(href);
      try {
        out.push(new URL(href));
      } catch {}
    }
  }
  return out;
}

const host = (u: URL) => u.hostname.toLowerCase().replace(/^(www|m)\./, "");
const onSite = (u: URL, domain: string) => {
  const h = u.hostname.toLowerCase();
  return h === domain || h.endsWith(`.${domain}`);
};

const SOCIAL: Record<string, string> = {
  "facebook.com": "Facebook",
  "twitter.com": "X",
  "x.com": "X",
  "instagram.com": "Instagram",
  "linkedin.com": "LinkedIn",
  "tiktok.com": "TikTok",
  "bsky.app": "Bluesky",
  "threads.net": "Threads",
  "weibo.com": "Weibo",
  "vk.com": "VK",
  "mastodon.social": "Mastodon",
};

/** presence_social_score: 25 points per social network linked, at most 100. */
export function scoreSocial(o: Observations): ScoredPart {
  const S = "presence_social_score" as const;
  const networks = new Set<string>();
  for (const u of allLinks(o)) {
    const name = SOCIAL[host(u)];
    if (name && u.pathname.length > 1) networks.add(name);
  }
  const list = [...networks].sort();
  return scoredFrom(S, [
    earned(
      SOCIAL_CHECKS.networks,
      Math.min(100, 25 * list.length),
      list.length ? `links to ${list.join(", ")}` : "no social network linked",
    ),
  ]);
}

const VIDEO_HOSTS = new Set([
  "youtube.com",
  "vimeo.com",
  "bilibili.com",
  "space.bilibili.com",
  "youku.com",
  "dailymotion.com",
]);
const CHANNEL = /^\/(@[^/]+|channel\/|c\/|user\/)|^\/[^/]+\/?$/;

/** presence_video_score: a video channel linked (100), or only single videos (50). */
export function scoreVideo(o: Observations): ScoredPart {
  const S = "presence_video_score" as const;
  const video = allLinks(o).filter((u) => VIDEO_HOSTS.has(host(u)) || host(u) === "youtu.be");
  const channel = video.find(
    (u) => host(u) !== "youtu.be" && u.pathname !== "/watch" && CHANNEL.test(u.pathname),
  );
  return scoredFrom(S, [
    earned(
      VIDEO_CHECKS.channel,
      channel ? 100 : video.length ? 50 : 0,
      channel ? `links to ${channel.href}` : video.length ? "links to single videos only" : "no video link",
    ),
  ]);
}

const ORCID = /^\/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\/?$/i;

/** research_orcid_score: distinct ORCID iDs linked on the crawled pages. */
export function scoreOrcid(o: Observations): ScoredPart {
  const S = "research_orcid_score" as const;
  const ids = new Set<string>();
  for (const u of allLinks(o)) {
    const m = host(u) === "orcid.org" ? ORCID.exec(u.pathname) : null;
    if (m?.[1]) ids.add(m[1].toUpperCase());
  }
  return scoredFrom(S, [
    earned(
      ORCID_CHECKS.ids,
      tiered(ids.size, [
        [5, 100],
        [2, 70],
        [1, 40],
      ]),
      `${ids.size} ORCID iD(s) linked`,
    ),
  ]);
}

/** Whether a link points at a public scholar profile. */
export function isScholarProfile(u: URL): boolean {
  const h = host(u);
  const p = u.pathname;
  if (h === "scholar.google.com") return p.startsWith("/citations") && u.searchParams.has("user");
  if (h === "researchgate.net") return p.startsWith("/profile/");
  if (h === "scopus.com") return p.includes("authid") || u.searchParams.has("authorId");
  if (h === "webofscience.com" || h === "publons.com")
    return p.includes("/researcher/") || p.includes("/author/");
  if (h === "academia.edu" || h.endsWith(".academia.edu")) return h !== "academia.edu" || p.length > 1;
  if (h === "semanticscholar.org") return p.startsWith("/author/");
  if (h === "dblp.org") return p.startsWith("/pid/");
  return false;
}

/** research_profiles_score: distinct scholar profiles linked on the crawled pages. */
export function scoreScholarProfiles(o: Observations): ScoredPart {
  const S = "research_profiles_score" as const;
  const profiles = new Set(
    allLinks(o)
      .filter(isScholarProfile)
      .map((u) => u.href),
  );
  return scoredFrom(S, [
    earned(
      PROFILE_CHECKS.linked,
      tiered(profiles.size, [
        [5, 100],
        [2, 70],
        [1, 40],
      ]),
      `${profiles.size} scholar profile(s) linked`,
    ),
  ]);
}

const REPOSITORY_HOST =
  /^(repository|repositorio|eprints?|dspace|digital|research|openaccess|oa|hal|pure|scholar|scholarship|ir|bora|depot|archive)[.-]/;
const REPOSITORY_PATH = /\/(handle|jspui|xmlui|eprints?|dspace|repository|repositorio)(\/|$)/i;

/** A link that looks like an institutional repository (DSpace, EPrints, Pure, HAL …). */
export function isRepositoryLink(u: URL): boolean {
  return REPOSITORY_HOST.test(u.hostname.toLowerCase()) || REPOSITORY_PATH.test(u.pathname);
}

/** research_repository_score: an institutional repository linked (70) on the university's own domain (30). */
export function scoreRepository(o: Observations): ScoredPart {
  const S = "research_repository_score" as const;
  const repos = allLinks(o).filter(isRepositoryLink);
  const own = repos.find((u) => onSite(u, o.domain));
  const any = own ?? repos[0];
  return scoredFrom(S, [
    earned(REPOSITORY_CHECKS.linked, any ? 70 : 0, any ? `links to ${any.href}` : "no repository link found"),
    earned(
      REPOSITORY_CHECKS.ownDomain,
      own ? 30 : 0,
      own ? `${own.hostname} is under ${o.domain}` : "no repository under the university's domain",
    ),
  ]);
}

const RICH = /\.(pdf|docx?|pptx?|xlsx?|odt|ods|odp|epub|csv|ps)$/i;

/** webo_openness_score: rich files (PDF, office documents, data) on the university's domain. */
export function scoreOpenness(o: Observations): ScoredPart {
  const S = "webo_openness_score" as const;
  const files = new Set(
    allLinks(o)
      .filter((u) => onSite(u, o.domain) && RICH.test(u.pathname))
      .map((u) => u.href),
  );
  return scoredFrom(S, [
    earned(
      OPENNESS_CHECKS.richFiles,
      tiered(files.size, [
        [50, 100],
        [20, 75],
        [5, 50],
        [1, 25],
      ]),
      `${files.size} rich file(s) on the domain`,
    ),
  ]);
}

/**
 * Whether a link can count for a rubric (social, video, ORCID, scholar profile, repository, rich file): the only
 * links kept in the evidence, so stored observations stay small and re-score the same.
 */
export function isNotableLink(href: string, domain: string): boolean {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return false;
  }
  const h = host(u);
  return (
    SOCIAL[h] !== undefined ||
    VIDEO_HOSTS.has(h) ||
    h === "youtu.be" ||
    h === "orcid.org" ||
    isScholarProfile(u) ||
    isRepositoryLink(u) ||
    (onSite(u, domain) && RICH.test(u.pathname))
  );
}

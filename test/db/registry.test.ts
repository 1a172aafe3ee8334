import { beforeAll, expect, test } from "bun:test";
import { readGeneration } from "../../lib/db/generation.ts";
import { importRegistry, type RegistryEntry, selectRegistryEntries, writeRecords } from "../../lib/index.ts";
import { readRegistry } from "../../src/registry-data.ts";
import { describeEachDatabase } from "../support/databases.ts";

let list: RegistryEntry[] = [];
beforeAll(async () => {
  list = await readRegistry();
});

test("the bundled list holds 10,251 entries in 200 countries", () => {
  expect(list.length).toBe(10_251);
  expect(new Set(list.map((e) => e.alpha_two_code)).size).toBe(200);
});

test("duplicate and multi-domain rule: the first free domain of each entry, in list order", () => {
  const s = selectRegistryEntries([
    { name: "A", domains: ["a.edu", "a2.edu"], alpha_two_code: "US" },
    { name: "A again", domains: ["A.EDU."], alpha_two_code: "US" },
    { name: "A2 campus", domains: ["a2.edu", "a3.edu"], alpha_two_code: "US" },
    { name: " B  School ", domains: ["www.b.ac.uk"], alpha_two_code: "gb" },
    { name: "No domain", domains: [], alpha_two_code: "FR" },
    { name: "Bad code", domains: ["c.fr"], alpha_two_code: "ZZ" },
    { name: "Bad domain", domains: ["not a domain"], alpha_two_code: "FR" },
  ]);
  expect(s.records.map((r) => [r.domain, r.name, r.country])).toEqual([
    ["a.edu", "A", "US"],
    ["a3.edu", "A2 campus", "US"],
    ["www.b.ac.uk", "B School", "GB"],
  ]);
  expect([s.listed, s.duplicates, s.invalid]).toEqual([7, 1, 3]);
});

describeEachDatabase("registry import", (get) => {
  const count = async () =>
    Number(
      (
        await get()
          .db.selectFrom("universities")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("a country filter adds that country's universities only", async () => {
    await get().reset();
    const expected = list.filter((e) => e.alpha_two_code === "FR" || e.alpha_two_code === "JP").length;
    const s = await importRegistry(get().db, list, { countries: ["fr", "JP"] });
    expect(s.listed).toBe(expected);
    expect(s.inserted).toBe(expected);
    expect(await count()).toBe(expected);
    const countries = await get().db.selectFrom("universities").select("country").distinct().execute();
    expect(countries.map((c) => c.country).sort()).toEqual(["FR", "JP"]);
  });

  test("the whole list: counts, no scans; a re-run changes nothing", async () => {
    await get().reset();
    const first = await importRegistry(get().db, list);
    expect(first).toEqual({ listed: 10_251, inserted: 10_249, existing: 0, duplicates: 2, invalid: 0 });
    expect(await count()).toBe(10_249);
    const scans = await get().db.selectFrom("scans").select("id").limit(1).execute();
    expect(scans).toEqual([]);
    const before = await get().db.selectFrom("universities").selectAll().orderBy("id").execute();
    const generation = await readGeneration(get().db);
    const again = await importRegistry(get().db, list);
    expect(again.inserted).toBe(0);
    expect(again.existing).toBe(10_249);
    expect(await readGeneration(get().db)).toBe(generation);
    expect(await get().db.selectFrom("universities").selectAll().orderBy("id").execute()).toEqual(before);
  }, 120_000);

  test("a university already stored with scans keeps its id, name and scans", async () => {
    await get().reset();
    const fr = list.find((e) => e.alpha_two_code === "FR")!;
    const domain = (fr.domains as string[])[0]!.toLowerCase();
    await writeRecords(get().db, [
      { type: "university", domain: "first.example", name: "First", country: "DE" },
      { type: "university", domain, name: "Our own name", country: "FR" },
      {
        type: "scan",
        source_id: "s1",
        domain,
        status: "completed",
        started_at: "2026-01-01T00:00:00+00:00",
        completed_at: "2026-01-01T00:10:00+00:00",
        overall_score: 70,
      },
    ]);
    const before = await get()
      .db.selectFrom("universities")
      .selectAll()
      .where("domain", "=", domain)
      .execute();
    const s = await importRegistry(get().db, list, { countries: ["FR"] });
    expect(s.existing).toBe(1);
    const after = await get()
      .db.selectFrom("universities")
      .selectAll()
      .where("domain", "=", domain)
      .execute();
    expect(after).toEqual(before);
    expect(after[0]!.id).toBe(2);
    const scans = await get().db.selectFrom("scans").select(["university_id", "overall_score"]).execute();
    expect(scans).toEqual([{ university_id: 2, overall_score: 70 }]);
    const latest = await get().db.selectFrom("latest_scans").select("university_id").execute();
    expect(latest).toEqual([{ university_id: 2 }]);
  });
});
